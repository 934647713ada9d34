import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ParlorKit
import ParlorStore

/// `GET /images/proxy?url=…`: remote images that apps and feeds show, fetched by the server, so
/// the browser loads images from Parlor only (`img-src 'self'`) and a remote host learns neither
/// who looks nor from where, as Zulip's camo and GitHub's do.
///
/// Against abuse: only for signed-in people; http(s) only; the host must resolve to public
/// addresses only (no loopback, private, link-local or multicast), and the request goes to the
/// address that was checked, so a name cannot re-resolve elsewhere in between; no cookies or
/// headers of the person are sent, redirects are not followed; at most `maxBytes`, and the bytes
/// must be a PNG, JPEG, GIF or WebP image, whatever the remote server says. One person's fetches
/// from remote hosts are limited per minute (`imageProxyFetchesPerMinute`), so the proxy cannot be
/// made to flood a host; small images are kept in a bounded cache, which answers without fetching
/// and without counting.
public struct ImageProxy: Sendable {
    static let maxBytes = 5 * 1024 * 1024
    /// Images up to this size are cached, `cacheCapacity` of them (at most 32 MiB in all).
    static let maxCachedBytes = 256 * 1024
    static let cacheCapacity = 128
    static let maxURLLength = 2048
    /// Image types, by their leading bytes.
    static let imageTypes: [(prefix: [UInt8], type: String)] = AppRoutes.blobTypes + [([0x52, 0x49, 0x46, 0x46], "image/webp")]

    /// Let hosts on private addresses through (tests, and a server whose apps use a local network).
    let allowPrivateHosts: Bool
    /// Remote fetches per person per minute.
    let fetches: RateLimiter
    private let cache = Cache()

    /// How long one remote fetch may take, connection included.
    let timeout: TimeAmount

    init(allowPrivateHosts: Bool, fetchesPerMinute: Int, timeout: Duration) {
        self.timeout = TimeAmount(timeout)
        self.allowPrivateHosts = allowPrivateHosts
        fetches = RateLimiter(limit: fetchesPerMinute, window: .seconds(60))
    }

    /// Recently fetched small images, by address.
    private actor Cache {
        var images = LRUCache<String, (data: Data, type: String)>(capacity: ImageProxy.cacheCapacity)
        func image(for url: String) -> (data: Data, type: String)? { images[url] }
        func keep(_ image: (data: Data, type: String), for url: String) {
            guard image.data.count <= ImageProxy.maxCachedBytes else { return }
            images.set(image, for: url)
        }
    }

    func add(to router: Router<ParlorRequestContext>) {
        router.get("/images/proxy") { request, context in
            let viewer = try context.requireUser()
            guard let text = request.uri.queryParameters.get("url"), text.count <= Self.maxURLLength,
                  let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty
            else { throw APIError.invalid("'url' is an http or https address of at most \(Self.maxURLLength) characters.") }
            let (data, type) = try await image(
                at: url, host: host, for: viewer.id, logger: context.logger)
            return Response(
                status: .ok,
                headers: [.contentType: type, .cacheControl: "private, max-age=86400", .contentDisposition: "inline"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// From the cache, else fetched (counted against `viewer`'s allowance).
    private func image(at url: URL, host: String, for viewer: UserID, logger: Logger) async throws -> (data: Data, type: String) {
        let key = url.absoluteString
        if let cached = await cache.image(for: key) { return cached }
        if let wait = await fetches.take(viewer.description) {
            throw APIError.tooMany(
                "tooManyImages", "You loaded \(fetches.limit) remote images in the last minute, the most allowed; try again in \(wait) seconds.",
                retryAfter: wait)
        }
        let image = try await fetch(url, host: host, logger: logger)
        await cache.keep(image, for: key)
        return image
    }

    private func fetch(_ url: URL, host: String, logger: Logger) async throws -> (data: Data, type: String) {
        let address = try await PublicHosts.address(of: host, allowPrivate: allowPrivateHosts, for: .image)
        let client = PublicHosts.client(connectingTo: address, for: host, connectTimeout: timeout, readTimeout: timeout)
        defer { client.shutdown { _ in } }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "image/png, image/jpeg, image/gif, image/webp")
        let body: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: timeout)
            guard response.status == .ok else {
                throw APIError(.notFound, code: "imageUnavailable", "The image's server answered \(response.status.code).")
            }
            body = try await response.body.collect(upTo: Self.maxBytes)
        } catch let error as APIError {
            throw error
        } catch is NIOTooManyBytesError {
            throw MessagesError(.mediaExceedsMaxSize, "The image is over \(Self.maxBytes / 1024 / 1024) MiB.")
        } catch {
            logger.notice("A remote image could not be fetched", metadata: ["host": "\(host.prefix(100))", "error": "\(error)"])
            throw APIError(.notFound, code: "imageUnavailable", "The image could not be fetched from \(host).")
        }
        let data = Data(buffer: body)
        guard let type = Self.imageTypes.first(where: { data.starts(with: $0.prefix) })?.type else {
            throw MessagesError(.improperFileType, "That address is not a PNG, JPEG, GIF or WebP image.")
        }
        return (data, type)
    }
}
