import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import ParlorKit

#if canImport(Glibc)
import Glibc
#endif

/// Hosts on the public internet, for what the server fetches from hosts people choose (remote
/// images, apps' requests to any host): a name's addresses, all checked to be public, and a client
/// that connects to the address checked, so the name cannot be resolved again to somewhere else.
public enum PublicHosts {
    /// Threads for `getaddrinfo`, which blocks.
    private static let resolverPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    /// What a fetch from an outside host is for: the refusals say it.
    enum Purpose: Sendable {
        /// A remote image a page shows (the image proxy).
        case image
        /// An app's own request (`context.fetch`) to a host its manifest allows only through `*`.
        case appRequest
        /// The page a text links to, for its card (`LinkPreviews`).
        case linkPreview
    }

    /// The first address `host` resolves to, when every address it resolves to is public: the
    /// one to connect to (`dnsOverride`), so the name cannot be resolved again to somewhere else.
    /// - Throws: `hostNotAllowed` for a host on a private address; when it does not resolve,
    ///   `imageUnavailable` for an image and `networkFailure` for an app's request.
    static func address(of host: String, allowPrivate: Bool, for purpose: Purpose) async throws -> String {
        // On a pool of its own: a slow name server must not hold the threads bcrypt and files use.
        let addresses = try await resolverPool.runIfActive { resolve(host) }
        let name = host.prefix(100)
        guard let first = addresses.first else {
            switch purpose {
            case .image: throw APIError(.notFound, code: .imageUnavailable, "\(name) does not resolve.")
            case .appRequest: throw MessagesError(.networkFailure, "Couldn't find \(name) on the internet.")
            case .linkPreview: throw APIError(.notFound, code: .previewUnavailable, "\(name) does not resolve.")
            }
        }
        guard allowPrivate || addresses.allSatisfy(isPublic) else {
            switch purpose {
            case .image: throw MessagesError(.hostNotAllowed, "Images are fetched from public hosts only; \(name) is on a private network.")
            case .appRequest: throw MessagesError(.hostNotAllowed, "Apps reach public hosts only; \(name) is on a private network.")
            case .linkPreview: throw MessagesError(.hostNotAllowed, "Link previews are made for pages on public hosts only; \(name) is on a private network.")
            }
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

    /// A client that connects to `address` whatever `host` resolves to by then (the name is still
    /// sent, for TLS and virtual hosts), and follows no redirect. Shut it down after use.
    static func client(connectingTo address: String, for host: String, connectTimeout: TimeAmount, readTimeout: TimeAmount) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: connectTimeout, read: readTimeout)
        configuration.dnsOverride = [host: address]
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
