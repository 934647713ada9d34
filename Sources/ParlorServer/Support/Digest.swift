import Crypto
import Foundation

/// Lowercase hex SHA-256: how session tokens are stored, uploads are named and sign-in throttle
/// keys are made (a fixed size whatever the input).
enum Digest {
    static func sha256Hex(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    static func sha256Hex(_ text: String) -> String { sha256Hex(Data(text.utf8)) }
}
