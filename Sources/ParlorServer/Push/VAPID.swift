import Crypto
import Foundation

/// The server's identity to push services (RFC 8292, "VAPID"): one P-256 key pair for the whole
/// server, made at first start and kept in the store (every node signs with the same key; a
/// backup keeps it). Browsers subscribe with its public key; each push carries a JWT it signed.
struct VAPID: Sendable {
    let key: P256.Signing.PrivateKey
    /// Who runs the server, for the push service to reach (a `mailto:` or `https:` URL).
    let contact: String

    /// The public key as browsers take it (`applicationServerKey`): 65 bytes, base64url.
    var publicKey: String { Base64URL.encode(key.publicKey.x963Representation) }

    /// How long a signed token is good for (at most 24 hours, RFC 8292 §2).
    static let lifetime: TimeInterval = 12 * 60 * 60

    /// The `Authorization` header for a push to `endpoint`: `vapid t=<JWT>, k=<public key>`.
    func authorization(for endpoint: URL, now: Date = Date()) throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else { throw URLError(.badURL) }
        let port = endpoint.port.map { ":\($0)" } ?? ""
        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let claims = try JSONSerialization.data(
            withJSONObject: ["aud": "\(scheme)://\(host)\(port)", "exp": Int(now.timeIntervalSince1970 + Self.lifetime), "sub": contact],
            options: [.sortedKeys, .withoutEscapingSlashes])
        let input = "\(Base64URL.encode(Array(header.utf8))).\(Base64URL.encode(claims))"
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return "vapid t=\(input).\(Base64URL.encode(signature)), k=\(publicKey)"
    }
}
