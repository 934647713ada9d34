import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ParlorKit
import ParlorStore

#if canImport(Glibc)
import Glibc
#endif

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
                at: url, host: host, port: url.port ?? (scheme == "https" ? 443 : 80), for: viewer.id, logger: context.logger)
            return Response(
                status: .ok,
                headers: [.contentType: type, .cacheControl: "private, max-age=86400", .contentDisposition: "inline"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// From the cache, else fetched (counted against `viewer`'s allowance).
    private func image(at url: URL, host: String, port: Int, for viewer: UserID, logger: Logger) async throws -> (data: Data, type: String) {
        let key = url.absoluteString
        if let cached = await cache.image(for: key) { return cached }
        if let wait = await fetches.take(viewer.description) {
            throw APIError.tooMany(
                "tooManyImages", "You loaded \(fetches.limit) remote images in the last minute, the most allowed; try again in \(wait) seconds.",
                retryAfter: wait)
        }
        let image = try await fetch(url, host: host, port: port, logger: logger)
        await cache.keep(image, for: key)
        return image
    }

    private func fetch(_ url: URL, host: String, port: Int, logger: Logger) async throws -> (data: Data, type: String) {
        let address = try await Self.publicAddress(of: host, port: port, allowPrivate: allowPrivateHosts)
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: timeout, read: timeout)
        configuration.dnsOverride = [host: address]
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
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

    /// Threads for `getaddrinfo`, which blocks.
    private static let resolverPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    /// The first address `host` resolves to, when every address it resolves to is public.
    /// - Throws: `hostNotAllowed` for a host on a private address; `imageUnavailable` when it does not resolve.
    static func publicAddress(of host: String, port: Int, allowPrivate: Bool) async throws -> String {
        // On a pool of its own: a slow name server must not hold the threads bcrypt and files use.
        let addresses = try await resolverPool.runIfActive { resolve(host) }
        guard let first = addresses.first else {
            throw APIError(.notFound, code: "imageUnavailable", "\(host.prefix(100)) does not resolve.")
        }
        guard allowPrivate || addresses.allSatisfy(isPublic) else {
            throw MessagesError(.hostNotAllowed, "Images are fetched from public hosts only; \(host.prefix(100)) is on a private network.")
        }
        return first
    }

    /// Every address `host` resolves to, as text (IPv4 dotted, IPv6 colon form).
    static func resolve(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var result: [String] = []
        var cursor = list
        while let entry = cursor {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !result.contains(text) { result.append(text) }
            }
            cursor = entry.pointee.ai_next
        }
        return result
    }

    /// Whether an address (text form) is on the public internet: not loopback, private,
    /// shared, link-local, multicast, reserved or unspecified.
    public static func isPublic(_ address: String) -> Bool {
        if let v4 = ipv4(address) { return isPublicIPv4(v4) }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, address.split(separator: "%").first.map(String.init) ?? address, &bytes) == 1 else { return false }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return isPublicIPv4(Array(bytes[12..<16]))  // ::ffff:a.b.c.d
        }
        // Addresses that carry an IPv4 address a gateway reaches: NAT64 64:ff9b::/96 and
        // 64:ff9b:1::/48, 6to4 2002::/16; and the deprecated IPv4-compatible ::/96.
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] || bytes[0..<12].allSatisfy({ $0 == 0 }) {
            return isPublicIPv4(Array(bytes[12..<16]))
        }
        if bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return false }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return isPublicIPv4(Array(bytes[2..<6])) }
        if bytes.allSatisfy({ $0 == 0 }) || bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return false }  // :: and ::1
        if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if bytes[0] == 0xFE && bytes[1] & 0x80 == 0x80 { return false }  // fe80::/10 link-local, fec0::/10 site-local
        if bytes[0] == 0xFF { return false }  // multicast
        if bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0x0D && bytes[3] == 0xB8 { return false }  // 2001:db8::/32 documentation
        return true
    }

    private static func ipv4(_ address: String) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 4)
        return inet_pton(AF_INET, address, &bytes) == 1 ? bytes : nil
    }

    private static func isPublicIPv4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168): false
        case (100, 64...127): false  // shared address space
        case (172, 16...31): false
        case (192, 0) where b[2] == 0 || b[2] == 2: false  // IETF protocol assignments, TEST-NET-1
        case (198, 18...19): false  // benchmarking
        case (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: false  // TEST-NET-2, -3
        case (224...255, _): false  // multicast, reserved, broadcast
        default: true
        }
    }
}
