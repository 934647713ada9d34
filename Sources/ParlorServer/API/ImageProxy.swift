import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ParlorImages
import ParlorKit
import ParlorStore

/// `GET /images/proxy?url=…&sig=…`: remote images that apps, feeds and link cards show, fetched by
/// the server, so the browser loads images from Parlor only (`img-src 'self'`) and a remote host
/// learns neither who looks nor from where, as Zulip's camo and GitHub's do.
///
/// Against abuse: only addresses the server itself handed out (`ImageLinks`: signed with its
/// key), so nobody can point the proxy anywhere else; only for signed-in people; http(s) only;
/// the host must resolve to public addresses only (no loopback, private, link-local or
/// multicast), and the request goes to the address that was checked, so a name cannot re-resolve
/// elsewhere in between; no cookies or headers of the person are sent, redirects are not
/// followed; at most `maxBytes`, and the whole fetch (connecting, the answer, every byte of it)
/// ends within `timeout` however slowly the host sends; at most `perPerson` fetches at once for
/// one person and `perServer` for the server; the bytes must be a PNG, JPEG, GIF or WebP image
/// within the pixel budget (`UploadedImage.checkBudget`), whatever the remote server says. One
/// person's fetches from remote hosts are limited per minute (`imageProxyFetchesPerMinute`), so
/// the proxy cannot be made to flood a host; small images are kept in a bounded cache, which
/// answers without fetching and without counting.
public struct ImageProxy: Sendable {
    static let maxBytes = 5 * 1024 * 1024
    /// Images up to this size are cached, `cacheCapacity` of them (at most 32 MiB in all).
    static let maxCachedBytes = 256 * 1024
    static let cacheCapacity = 128
    /// The longest image address: as long as any a message may carry, so every image the
    /// renderer signs can be fetched.
    static let maxURLLength = Limits.maxURLLength

    /// Let hosts on private addresses through (tests, and a server whose apps use a local network).
    let allowPrivateHosts: Bool
    /// Remote fetches per person per minute.
    let fetches: RateLimiter
    /// Fetches under way, per person and for the server.
    let inFlight: ConcurrencyLimit
    let links: ImageLinkSigner
    let budget: PixelBudget
    let metrics: ServerMetrics
    private let cache = Cache()

    /// How long one remote fetch may take, from connecting to its last byte.
    let timeout: Duration

    init(configuration: ServerConfiguration, links: ImageLinkSigner, metrics: ServerMetrics) {
        timeout = configuration.imageProxyTimeout
        allowPrivateHosts = configuration.allowsPrivateHosts
        fetches = RateLimiter(limit: configuration.imageProxyFetchesPerMinute, window: .seconds(60))
        inFlight = ConcurrencyLimit(
            perKey: configuration.imageProxyFetchesPerPerson, total: configuration.imageProxyFetchesAtOnce, patience: configuration.imageProxyWait)
        budget = configuration.imageBudget
        self.links = links
        self.metrics = metrics
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
            guard let signature = request.uri.queryParameters.get("sig"), await links.current().isSigned(text, signature: signature) else {
                metrics.refused(by: "imageProxyUnsigned")
                throw APIError(.forbidden, code: .unsignedImage, "Parlor loads only the images its own pages link to; this address was not one of them.")
            }
            let (data, type) = try await image(at: url, text: text, host: host, for: viewer.id, logger: context.logger)
            return Response(
                status: .ok,
                headers: [.contentType: type, .cacheControl: "private, max-age=86400", .contentDisposition: "inline"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// From the cache, else fetched (counted against `viewer`'s allowances).
    private func image(at url: URL, text: String, host: String, for viewer: UserID, logger: Logger) async throws -> (data: Data, type: String) {
        if let cached = await cache.image(for: text) { return cached }
        if let wait = await fetches.take(viewer.description) {
            metrics.refused(by: "imageProxyPerMinute")
            throw APIError.tooMany(
                .tooManyImages, "You loaded \(fetches.limit) remote images in the last minute, the most allowed; try again in \(wait) seconds.",
                retryAfter: wait)
        }
        switch await inFlight.enter(viewer.description) {
        case .entered: break
        case .keyFull:
            metrics.refused(by: "imageProxyPerPerson")
            throw APIError.tooMany(
                .tooManyImages, "\(inFlight.perKey) of your images were loading for \(inFlight.patience.components.seconds) seconds; try again.", retryAfter: 1)
        case .totalFull:
            metrics.refused(by: "imageProxyBusy")
            throw APIError.tooMany(.imageProxyBusy, "Parlor is loading many images for everyone at the moment; try again in a second.", retryAfter: 1)
        case .cancelled:
            throw CancellationError()
        }
        defer { inFlight.leave(viewer.description) }
        let image: (data: Data, type: String)
        do {
            // AsyncHTTPClient's own timeouts end at the answer's head or between two reads: a host
            // sending a byte every few seconds would otherwise hold the fetch, and a socket, for minutes.
            image = try await withDeadline(timeout) { try await self.fetch(url, host: host, logger: logger) }
        } catch is DeadlinePassed {
            logger.notice("A remote image took too long", metadata: ["host": "\(host.prefix(100))", "limit": "\(timeout)"])
            throw APIError(.notFound, code: .imageUnavailable, "The image at \(host.prefix(100)) did not load within \(timeout.components.seconds) seconds.")
        }
        await cache.keep(image, for: text)
        return image
    }

    private func fetch(_ url: URL, host: String, logger: Logger) async throws -> (data: Data, type: String) {
        let address = try await PublicHosts.address(of: host, allowPrivate: allowPrivateHosts, for: .image)
        let wait = TimeAmount(timeout)
        let client = PublicHosts.client(connectingTo: address, for: host, connectTimeout: wait, readTimeout: wait)
        defer { client.shutdown { _ in } }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "image/png, image/jpeg, image/gif, image/webp")
        let body: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: wait)
            guard response.status == .ok else {
                throw APIError(.notFound, code: .imageUnavailable, "The image's server answered \(response.status.code).")
            }
            body = try await response.body.collect(upTo: Self.maxBytes)
        } catch let error as APIError {
            throw error
        } catch is NIOTooManyBytesError {
            throw MessagesError(.mediaExceedsMaxSize, "The image is over \(ByteCount.limit(Self.maxBytes)).")
        } catch {
            logger.notice("A remote image could not be fetched", metadata: ["host": "\(host.prefix(100))", "error": "\(error)"])
            throw APIError(.notFound, code: .imageUnavailable, "The image could not be fetched from \(host.prefix(100)).")
        }
        // Read from the headers: a small file declaring a huge canvas never reaches a browser to
        // be decoded.
        let info: ImageInfo
        do {
            info = try UploadedImage.checkBudget(Array(body.readableBytesView), budget: budget)
        } catch {
            if error.code == .unsupportedFormat || error.code == .unreadable {
                throw MessagesError(.improperFileType, "That address is not a PNG, JPEG, GIF or WebP image.")
            }
            throw APIError(.contentTooLarge, code: .imageTooLarge, error.message)
        }
        return (Data(buffer: body), info.format.mimeType)
    }
}
