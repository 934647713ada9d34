import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291): the payload is encrypted for one browser's
/// subscription with the `aes128gcm` content coding (RFC 8188), in a single record, so that the
/// push service carries only ciphertext.
enum WebPushEncryption {
    /// What the browser gave when it subscribed: its P-256 public key (65 bytes, uncompressed) and
    /// its 16-byte authentication secret.
    struct Recipient: Sendable {
        let publicKey: P256.KeyAgreement.PublicKey
        let authSecret: [UInt8]

        /// - Throws: `Refusal` naming what is wrong with the keys.
        init(publicKey: [UInt8], authSecret: [UInt8]) throws {
            guard publicKey.count == 65, publicKey.first == 0x04 else { throw Refusal.publicKey }
            guard let key = try? P256.KeyAgreement.PublicKey(x963Representation: publicKey) else { throw Refusal.publicKey }
            guard authSecret.count == 16 else { throw Refusal.authSecret }
            self.publicKey = key
            self.authSecret = authSecret
        }
    }

    enum Refusal: Error, Equatable {
        case publicKey, authSecret, tooLarge
    }

    /// The record size written in the header; one record holds the whole payload.
    static let recordSize: UInt32 = 4096
    /// The most plaintext one push carries: a record less its delimiter and the AEAD tag (push
    /// services take 4096-byte bodies; the header is 86 bytes of them).
    static let maxPlaintext = 3993

    /// `plaintext` encrypted for `recipient`: salt (16) ‖ record size (4) ‖ key id length (1) ‖ the
    /// sender's ephemeral public key (65) ‖ ciphertext with tag.
    /// - Parameters:
    ///   - salt, senderKey: fresh for every message; given only by tests (RFC 8291's example).
    static func encrypt(
        _ plaintext: [UInt8], for recipient: Recipient, salt: [UInt8]? = nil, senderKey: P256.KeyAgreement.PrivateKey? = nil
    ) throws -> [UInt8] {
        guard plaintext.count <= maxPlaintext else { throw Refusal.tooLarge }
        let salt = salt ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
        let senderKey = senderKey ?? P256.KeyAgreement.PrivateKey()
        let senderPublic = [UInt8](senderKey.publicKey.x963Representation)
        let subscriberPublic = [UInt8](recipient.publicKey.x963Representation)

        // RFC 8291 §3.3-3.4: the input keying material from the ECDH secret and the auth secret.
        let shared = try senderKey.sharedSecretFromKeyAgreement(with: recipient.publicKey)
        let ecdhSecret = shared.withUnsafeBytes { [UInt8]($0) }
        let keyInfo = Array("WebPush: info".utf8) + [0] + subscriberPublic + senderPublic
        let ikm = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: ecdhSecret), salt: recipient.authSecret, info: keyInfo, outputByteCount: 32)

        // RFC 8188 §2.2-2.3: the content-encryption key and nonce from the salt.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)

        // One record, the last: the plaintext, then the delimiter 0x02 and no padding.
        let sealed = try AES.GCM.seal(
            plaintext + [0x02], using: cek, nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { [UInt8]($0) }))
        let size = recordSize
        let header = salt + [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + [UInt8(senderPublic.count)] + senderPublic
        return header + sealed.ciphertext + sealed.tag
    }
}
