import Foundation
import HTTPTypes
import Hummingbird
import AsyncHTTPClient
import Crypto
import ParlorKit
import ParlorStoreSQLite
@testable import ParlorServer
import Synchronization
import Testing

/// The image proxy: the browser loads remote images from Parlor only, and the proxy cannot be
/// turned against the server's own network (issue: "Security", CSP).
@Suite("Remote images through the server's proxy")
struct ImageProxyTests {
    static let png = TestImages.png(width: 8, height: 8, shade: 3)

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
            router.get("/bomb.png") { _, _ -> Response in
                Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: TestImages.pngDeclaring(width: 50_000, height: 50_000))))
            }
            // Answers once the test lets it (`ImageHostLog.release`).
            router.get("/held.png") { request, _ -> Response in
                log.record(request.headers)
                while !log.released { try await Task.sleep(for: .milliseconds(20)) }
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: Self.png)))
            }
            // A byte a second, for ever: the host that would hold a socket for as long as it likes.
            router.get("/slow.png") { request, _ -> Response in
                log.record(request.headers)
                return Response(status: .ok, body: ResponseBody { writer in
                    for byte in Self.png {
                        try await writer.write(ByteBuffer(bytes: [byte]))
                        try await Task.sleep(for: .seconds(1))
                    }
                    try await writer.finish(nil)
                })
            }
        }, { port in try await body(port, log) })
    }

    /// The proxy's address for `url` without a signature: what someone who found the proxy sends.
    static func unsigned(_ url: String) -> String {
        "/images/proxy?url=" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url)
    }

    /// The proxy's address for `url` as the server hands it out: signed with the key it keeps in
    /// the store.
    static func proxy(_ url: String, _ store: SQLiteStore) async throws -> String {
        let candidate = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let key = try await store.secret(named: ImageLinkSigner.secretName, candidate: candidate)
        return ImageLinks(key: SymmetricKey(data: key)).proxied(url)
    }

    @Test("A remote image comes back typed by its bytes; the remote host gets no cookie, token or referrer of the viewer")
    func proxiesImages() async throws {
        try await Self.withImageHost { port, log in
            try await TestServer { $0.allowsPrivateHosts = true; $0.imageProxyTimeout = Self.patience }.run(.live) { api, store in
                let alice = try await api.signUp("alice")
                let reply = try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/cat.png", store), as: alice)
                #expect(reply.status == .ok)
                #expect(reply.body == Self.png)
                #expect(reply.headers[.contentType] == "image/png", "typed by its bytes, not by what the host said")
                let seen = try #require(log.headers.first)
                #expect(seen[.authorization] == nil && seen[.cookie] == nil && seen[.referer] == nil)

                let notImage = try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/page.html", store), as: alice)
                #expect(notImage.status == .unsupportedMediaType || notImage.status == .badRequest)
                #expect(notImage.errorCode == "improperFileType")
                let huge = try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/huge.png", store), as: alice)
                #expect(huge.status == .contentTooLarge)
                let moved = try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/moved", store), as: alice)
                #expect(moved.status == .notFound && moved.errorCode == "imageUnavailable", "redirects are not followed")
                #expect(try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/cat.png", store)).status == .unauthorized, "signed-in people only")
                for bad in ["file:///etc/passwd", "ftp://example.com/a.png", "javascript:alert(1)", "not a url"] {
                    #expect(try await api.get(Self.unsigned(bad), as: alice).status == .badRequest, "\(bad)")
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
            }.run(.live) { api, store in
                let mallory = try await api.signUp("mallory")
                let cat = try await Self.proxy("http://127.0.0.1:\(port)/cat.png", store)
                for _ in 0..<5 {
                    let reply = try await api.get(cat, as: mallory)
                    #expect(reply.status == .ok && reply.body == Self.png)
                }
                #expect(log.headers.count == 1, "the host was asked once; the cache answered the rest")
                // Every new address is a fetch: the busting trick (?n=…) runs out.
                #expect(try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/cat.png?n=1", store), as: mallory).status == .ok)
                let refused = try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/cat.png?n=2", store), as: mallory)
                #expect(refused.status == .tooManyRequests)
                #expect(refused.errorCode == "tooManyImages")
                #expect(refused.headers[.retryAfter] != nil)
                #expect(log.headers.count == 2, "the refused fetch never reached the host")
                #expect(try await api.get(cat, as: mallory).status == .ok, "a cached image is still shown")
                let alice = try await api.signUp("alice")
                #expect(try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/cat.png?n=2", store), as: alice).status == .ok, "alice has her own allowance")
            }
        }
    }

    @Test("By default the proxy refuses hosts on the server's own or private networks, by address, whatever the name")
    func refusesPrivateNetworks() async throws {
        try await Self.withImageHost { port, log in
            try await TestServer().run(.router) { api, store in
                let alice = try await api.signUp("alice")
                for host in ["127.0.0.1", "localhost", "[::1]", "0.0.0.0", "127.1", "2130706433"] {
                    let reply = try await api.get(try await Self.proxy("http://\(host):\(port)/cat.png", store), as: alice)
                    #expect(reply.status == .forbidden, "\(host): \(reply.status.code)")
                    #expect(reply.errorCode == "hostNotAllowed", "\(host)")
                }
                #expect(log.headers.isEmpty, "no request reached the private host")
            }
        }
    }

    @Test("The proxy fetches only addresses the server handed out: unsigned, forged or reused signatures are 403 and never reach the host")
    func onlySignedAddresses() async throws {
        try await Self.withImageHost { port, log in
            try await TestServer { $0.allowsPrivateHosts = true; $0.imageProxyTimeout = Self.patience }.run(.live) { api, store in
                let alice = try await api.signUp("alice")
                let cat = "http://127.0.0.1:\(port)/cat.png"
                let signed = try await Self.proxy(cat, store)
                let signature = try #require(signed.split(separator: "&sig=").last)
                let attempts = [
                    Self.unsigned(cat),
                    Self.unsigned(cat) + "&sig=" + String(repeating: "0", count: 32),
                    // A signature given for one address does not open another.
                    Self.unsigned("http://127.0.0.1:\(port)/slow.png") + "&sig=" + signature,
                    Self.unsigned(cat) + "&sig=" + signature.dropLast(),
                ]
                for attempt in attempts {
                    let reply = try await api.get(attempt, as: alice)
                    #expect(reply.status == .forbidden, "\(attempt): \(reply.status.code)")
                    #expect(reply.errorCode == "unsignedImage")
                }
                #expect(log.headers.isEmpty, "no refused address reached the host")
                #expect(try await api.get(signed, as: alice).status == .ok)
            }
        }
    }

    @Test("The image in a link's card and in an app's view goes out as a signed proxy address")
    func handedOutSigned() async throws {
        try await TestServer().run(.router) { _, store in
            let links = ImageLinks(key: SymmetricKey(data: try await store.secret(named: ImageLinkSigner.secretName, candidate: [1, 2, 3])))
            let address = links.proxied("https://images.example/a+b.png?x=1&y=%2F")
            #expect(address.hasPrefix("/images/proxy?url=https%3A%2F%2Fimages.example%2Fa%2Bb.png%3Fx%3D1%26y%3D%252F&sig="))
            #expect(links.proxied("/assets/apps/org.example/a.png") == "/assets/apps/org.example/a.png", "Parlor's own paths stay")
            #expect(links.proxied("data:image/png;base64,AAAA") == "data:image/png;base64,AAAA")
            let view = try JSONDecoder().decode(ViewNode.self, from: Data("""
                {"type": "stack", "axis": "vertical", "alignment": "center", "children": [
                  {"type": "image", "source": {"url": "https://images.example/cat.png"}, "label": "Cat"},
                  {"type": "image", "source": {"asset": "dog.png"}, "label": "Dog"}]}
                """.utf8))
            let images = links.proxied(view).allNodes.compactMap { node -> ImageSource? in
                if case .image(let image) = node { return image.source }
                return nil
            }
            #expect(images.first == .url(URL(string: links.proxied("https://images.example/cat.png"))!))
            #expect(images.last == .asset("dog.png"))
        }
    }

    @Test("A host that sends a byte every second is cut off at the deadline, body included, and the socket let go")
    func slowHostCutOff() async throws {
        try await Self.withImageHost { port, _ in
            try await TestServer { $0.allowsPrivateHosts = true; $0.imageProxyTimeout = .seconds(2) }.run(.live) { api, store in
                let alice = try await api.signUp("alice")
                let started = ContinuousClock.now
                let reply = try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/slow.png", store), as: alice)
                let took = ContinuousClock.now - started
                #expect(reply.status == .notFound && reply.errorCode == "imageUnavailable")
                #expect(reply.text.contains("did not load within 2 seconds"))
                #expect(took < .seconds(20), "the whole fetch has one deadline (took \(took)); the image has \(Self.png.count) bytes at one a second")
            }
        }
    }

    @Test("At most N fetches at once for one person and for the server; one more waits for a place, and is refused after its wait (429 tooManyImages, imageProxyBusy)")
    func concurrentFetchesCapped() async throws {
        try await Self.withImageHost { port, log in
            try await TestServer {
                $0.allowsPrivateHosts = true
                $0.imageProxyTimeout = Self.patience
                $0.imageProxyFetchesPerPerson = 1
                $0.imageProxyFetchesAtOnce = 2
                $0.imageProxyWait = .seconds(2)
            }.run(.live) { api, store in
                let mallory = try await api.signUp("mallory")
                let alice = try await api.signUp("alice")
                let bob = try await api.signUp("bob")
                let server = try #require(api.port)
                // Each request on a connection of its own: the test client's one connection would queue them.
                @Sendable func fetch(_ path: String, as person: Person) async throws -> (status: Int, body: String) {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(server)\(path)")
                    request.headers.add(name: "Authorization", value: "Bearer \(person.token)")
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                    let body = try await response.body.collect(upTo: 1 << 20)
                    return (Int(response.status.code), String(buffer: body))
                }
                let held = try await Self.proxy("http://127.0.0.1:\(port)/held.png", store)
                async let first = fetch(held, as: mallory)
                // Once the host has the first request, mallory's place is taken: a second waits its
                // two seconds, then is refused.
                for _ in 0..<200 where log.headers.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                let second = try await fetch(try await Self.proxy("http://127.0.0.1:\(port)/cat.png?2", store), as: mallory)
                #expect(second.status == 429 && second.body.contains("tooManyImages"), "\(second.body)")
                async let alices = fetch(try await Self.proxy("http://127.0.0.1:\(port)/held.png?3", store), as: alice)
                for _ in 0..<200 where log.headers.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
                let busy = try await fetch(try await Self.proxy("http://127.0.0.1:\(port)/cat.png", store), as: bob)
                #expect(busy.status == 429 && busy.body.contains("imageProxyBusy"), "\(busy.body)")
                #expect(log.headers.count == 2, "the refused ones never reached the host")
                // One that waits gets the first place given back.
                async let waiting = fetch(try await Self.proxy("http://127.0.0.1:\(port)/cat.png?4", store), as: bob)
                try await Task.sleep(for: .milliseconds(300))
                log.release()
                let answers = try await (first, alices, waiting)
                #expect(answers.0.status == 200 && answers.1.status == 200)
                #expect(answers.2.status == 200, "a waiting image loads once a place frees up: \(answers.2.body)")
                #expect(try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/cat.png", store), as: bob).status == .ok, "places free up")
            }
        }
    }

    @Test("A remote image declaring 50,000 × 50,000 pixels is refused from its header (413), never passed on to be decoded")
    func remoteBombRefused() async throws {
        try await Self.withImageHost { port, _ in
            try await TestServer { $0.allowsPrivateHosts = true; $0.imageProxyTimeout = Self.patience }.run(.live) { api, store in
                let alice = try await api.signUp("alice")
                let reply = try await api.get(try await Self.proxy("http://127.0.0.1:\(port)/bomb.png", store), as: alice)
                #expect(reply.status == .contentTooLarge)
                #expect(reply.errorCode == "imageTooLarge")
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
    private let isReleased = Mutex(false)
    /// Lets `/held.png` answer.
    func release() { isReleased.withLock { $0 = true } }
    var released: Bool { isReleased.withLock { $0 } }
    func record(_ headers: HTTPFields) { seen.withLock { $0.append(headers) } }
    var headers: [HTTPFields] { seen.withLock { $0 } }
}
