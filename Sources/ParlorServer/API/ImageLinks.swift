import Crypto
import Foundation
import Logging
import ParlorKit
import ParlorStore
import Synchronization

/// The addresses through which a browser loads remote images: `/images/proxy?url=…&sig=…`, signed
/// with a key of the server's (HMAC-SHA256), as GitHub's camo and Zulip's proxy do. The server
/// signs every remote image it hands out (an app's views and bubbles, a link's card, an app's
/// icon), and the proxy fetches only what carries a valid signature: it cannot be pointed at any
/// other address, by anyone.
struct ImageLinks: Sendable {
    let key: SymmetricKey

    /// The proxy's path.
    static let path = "/images/proxy"
    /// Hex characters of a signature (the first 16 bytes of the HMAC: 128 bits).
    static let signatureLength = 32

    /// `url` as the browser loads it: an http(s) address through the proxy, signed; anything
    /// else (Parlor's own paths, `data:` images) as it is.
    func proxied(_ url: String) -> String {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return url }
        let encoded = url.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
        return "\(Self.path)?url=\(encoded)&sig=\(signature(of: url))"
    }

    /// An image source with a remote address pointed at the proxy.
    func proxied(_ source: ImageSource) -> ImageSource {
        guard case .url(let url) = source else { return source }
        let text = url.absoluteString
        let through = proxied(text)
        guard through != text, let relative = URL(string: through) else { return source }
        return .url(relative)
    }

    /// A view with every remote image pointed at the proxy.
    func proxied(_ view: ViewNode) -> ViewNode {
        view.mappingImages(proxied)
    }

    /// Whether `signature` is the one this server gives `url` (compared in constant time).
    func isSigned(_ url: String, signature: String) -> Bool {
        let expected = Array(self.signature(of: url).utf8)
        let given = Array(signature.utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func signature(of url: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(url.utf8), using: key)
        return mac.prefix(Self.signatureLength / 2).map { String(format: "%02x", $0) }.joined()
    }

    /// RFC 3986's unreserved characters: everything else in a query value is escaped.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// The server's `ImageLinks`, with the key every node shares: read from the store once (made
/// there by the first node to ask), kept for the process's life.
final class ImageLinkSigner: Sendable {
    private let store: any SecretStore
    private let logger: Logger
    private let links = Mutex<ImageLinks?>(nil)
    /// This process's key while the store's cannot be read.
    private let fallback = ImageLinks(key: SymmetricKey(size: .bits256))
    /// The store's name of the key.
    static let secretName = "image-proxy-key"

    init(store: any SecretStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The links, once the key is known.
    func current() async -> ImageLinks {
        if let known = links.withLock({ $0 }) { return known }
        let candidate = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let key: [UInt8]
        do {
            key = try await store.secret(named: Self.secretName, candidate: candidate)
        } catch {
            // Without the store's key this node's links work on this node only; the next call tries again.
            logger.warning("The image proxy's key could not be read from the store", metadata: ["error": "\(error)"])
            return fallback
        }
        return links.withLock { links in
            if let known = links { return known }
            let made = ImageLinks(key: SymmetricKey(data: key))
            links = made
            return made
        }
    }
}
