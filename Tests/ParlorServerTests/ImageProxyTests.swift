import Foundation
import HTTPTypes
import Hummingbird
import ParlorServer
import Synchronization
import Testing

/// The image proxy: the browser loads remote images from Parlor only, and the proxy cannot be
/// turned against the server's own network (issue: "Security", CSP).
@Suite("Remote images through the server's proxy")
struct ImageProxyTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 3, count: 100)

    /// A remote image host on 127.0.0.1: `/cat.png`, `/page.html` (not an image), `/huge.png`
    /// (over the proxy's limit), `/moved` (a redirect to /cat.png); it records the headers it got.
    /// The proxy's timeout here: these tests check what is fetched, not how fast, and a 2-core
    /// machine running every suite at once has stalled them past the 10 s default.
    static let patience: Duration = .seconds(60)

    static func withImageHost<T: Sendable>(_ body: (Int, ImageHostLog) async throws -> T) async throws -> T {
        let log = ImageHostLog()
        return try await LocalWebHost.run({ router in
            router.get("/cat.png") { request, _ -> Response in
                log.record(request.headers)
                return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(bytes: Self.png)))
            }
            router.get("/page.html") { _, _ -> Response in
                Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(string: "<script>alert(1)</script>")))
            }
            router.get("/huge.png") { _, _ -> Response in
                Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: Self.png + Data(count: 6 * 1024 * 1024))))
            }
            router.get("/moved") { _, _ -> Response in Response(status: .found, headers: [.location: "/cat.png"]) }
        }, { port in try await body(port, log) })
    }

    static func proxy(_ url: String) -> String {
        "/images/proxy?url=" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url)
    }

    @Test("A remote image comes back typed by its bytes; the remote host gets no cookie, token or referrer of the viewer")
    func proxiesImages() async throws {
        try await Self.withImageHost { port, log in
            try await TestServer { $0.allowsPrivateHosts = true; $0.imageProxyTimeout = Self.patience }.run(.live) { api in
                let alice = try await api.signUp("alice")
                let reply = try await api.get(Self.proxy("http://127.0.0.1:\(port)/cat.png"), as: alice)
                #expect(reply.status == .ok)
                #expect(reply.body == Self.png)
                #expect(reply.headers[.contentType] == "image/png", "typed by its bytes, not by what the host said")
                let seen = try #require(log.headers.first)
                #expect(seen[.authorization] == nil && seen[.cookie] == nil && seen[.referer] == nil)

                let notImage = try await api.get(Self.proxy("http://127.0.0.1:\(port)/page.html"), as: alice)
                #expect(notImage.status == .unsupportedMediaType || notImage.status == .badRequest)
                #expect(notImage.errorCode == "improperFileType")
                let huge = try await api.get(Self.proxy("http://127.0.0.1:\(port)/huge.png"), as: alice)
                #expect(huge.status == .contentTooLarge)
                let moved = try await api.get(Self.proxy("http://127.0.0.1:\(port)/moved"), as: alice)
                #expect(moved.status == .notFound && moved.errorCode == "imageUnavailable", "redirects are not followed")
                #expect(try await api.get(Self.proxy("http://127.0.0.1:\(port)/cat.png")).status == .unauthorized, "signed-in people only")
                for bad in ["file:///etc/passwd", "ftp://example.com/a.png", "javascript:alert(1)", "not a url"] {
                    #expect(try await api.get(Self.proxy(bad), as: alice).status == .badRequest, "\(bad)")
                }
            }
        }
    }

    @Test("One person's remote fetches are limited per minute (429 tooManyImages); a cached image is answered without fetching or counting; others are not affected")
    func fetchesAreLimitedAndCached() async throws {
        try await Self.withImageHost { port, log in
            try await TestServer {
                $0.allowsPrivateHosts = true
                $0.imageProxyFetchesPerMinute = 2
                $0.imageProxyTimeout = Self.patience
            }.run(.live) { api in
                let mallory = try await api.signUp("mallory")
                let cat = Self.proxy("http://127.0.0.1:\(port)/cat.png")
                for _ in 0..<5 {
                    let reply = try await api.get(cat, as: mallory)
                    #expect(reply.status == .ok && reply.body == Self.png)
                }
                #expect(log.headers.count == 1, "the host was asked once; the cache answered the rest")
                // Every new address is a fetch: the busting trick (?n=…) runs out.
                #expect(try await api.get(Self.proxy("http://127.0.0.1:\(port)/cat.png?n=1"), as: mallory).status == .ok)
                let refused = try await api.get(Self.proxy("http://127.0.0.1:\(port)/cat.png?n=2"), as: mallory)
                #expect(refused.status == .tooManyRequests)
                #expect(refused.errorCode == "tooManyImages")
                #expect(refused.headers[.retryAfter] != nil)
                #expect(log.headers.count == 2, "the refused fetch never reached the host")
                #expect(try await api.get(cat, as: mallory).status == .ok, "a cached image is still shown")
                let alice = try await api.signUp("alice")
                #expect(try await api.get(Self.proxy("http://127.0.0.1:\(port)/cat.png?n=2"), as: alice).status == .ok, "alice has her own allowance")
            }
        }
    }

    @Test("By default the proxy refuses hosts on the server's own or private networks, by address, whatever the name")
    func refusesPrivateNetworks() async throws {
        try await Self.withImageHost { port, log in
            try await TestServer().run { api in
                let alice = try await api.signUp("alice")
                for host in ["127.0.0.1", "localhost", "[::1]", "0.0.0.0", "127.1", "2130706433"] {
                    let reply = try await api.get(Self.proxy("http://\(host):\(port)/cat.png"), as: alice)
                    #expect(reply.status == .forbidden, "\(host): \(reply.status.code)")
                    #expect(reply.errorCode == "hostNotAllowed", "\(host)")
                }
                #expect(log.headers.isEmpty, "no request reached the private host")
            }
        }
    }

    @Test("Addresses are sorted into public and private as RFC 6890 lists them")
    func addressClasses() {
        for address in ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
                        "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "ff02::1",
                        "64:ff9b::a00:5", "64:ff9b:1::1", "2002:a00:1::1", "::10.0.0.1", "fec0::1"] {
            #expect(!PublicHosts.isPublic(address), "\(address)")
        }
        for address in ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"] {
            #expect(PublicHosts.isPublic(address), "\(address)")
        }
    }
}

/// The request headers an image host saw.
final class ImageHostLog: Sendable {
    private let seen = Mutex<[HTTPFields]>([])
    func record(_ headers: HTTPFields) { seen.withLock { $0.append(headers) } }
    var headers: [HTTPFields] { seen.withLock { $0 } }
}
