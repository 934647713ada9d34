import Foundation
import HTTPTypes
import Hummingbird
@testable import ParlorInput
@testable import ParlorServer
import ParlorStore
import Testing

/// The link previews people see: asked for while writing, kept with the message, refused for
/// private networks.
@Suite("Link previews")
struct LinkPreviewTests {
    static let article = """
        <html><head><title>Old title</title>
        <meta property="og:title" content="A story worth reading">
        <meta property="og:description" content="It has a beginning, a middle and an end.">
        <meta property="og:image" content="/cover.png">
        </head><body>…</body></html>
        """

    static func withSite<T: Sendable>(_ body: (Int) async throws -> T) async throws -> T {
        try await LocalWebHost.run({ router in
            router.get("/story") { _, _ in Self.html(Self.article) }
            router.get("/moved") { _, _ in Response(status: .movedPermanently, headers: [.location: "/story"]) }
            router.get("/untitled") { _, _ in Self.html("<html><head></head><body>No title here</body></html>") }
            router.get("/data.json") { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
            }
            router.get("/loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }
            // A `</head>` inside a comment in the first packet; the real tags come in the next.
            router.get("/commented") { _, _ in
                Response(status: .ok, headers: [.contentType: "text/html"], body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "<html><head><!-- an old draft: </head> <body> -->"))
                    try await Task.sleep(for: .milliseconds(200))
                    try await writer.write(ByteBuffer(string: #"<meta property="og:title" content="The real title"></head><body></body></html>"#))
                    try await writer.finish(nil)
                })
            }
            // A page whose head arrives a few bytes at a time, for a minute: each read is quick,
            // the whole is not.
            router.get("/trickle") { _, _ in
                Response(status: .ok, headers: [.contentType: "text/html"], body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "<html><head><title>Slow"))
                    for _ in 0..<600 {
                        try await Task.sleep(for: .milliseconds(100))
                        try await writer.write(ByteBuffer(string: " "))
                    }
                    try await writer.write(ByteBuffer(string: "</title></head></html>"))
                    try await writer.finish(nil)
                })
            }
        }, body)
    }

    static func html(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func preview(_ url: String) -> String {
        "/api/link-preview?url=" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url)
    }

    @Test("A </head> inside a comment does not end the reading: the tags after it make the card")
    func commentedHeadEnd() async throws {
        try await Self.withSite { site in
            try await TestServer { $0.allowsPrivateHosts = true }.run(.live) { api in
                let alice = try await api.signUp("alice")
                let card = try await api.get(Self.preview("http://127.0.0.1:\(site)/commented"), as: alice)
                #expect(card.status == .ok, "\(card.text)")
                #expect(try card.decode(Wire.LinkPreview.self).title == "The real title")
            }
        }
    }

    @Test("A card is shown while writing, kept with the sent message for everyone and after a reload; redirects are followed")
    func previewIsKeptWithTheMessage() async throws {
        try await Self.withSite { site in
            try await TestServer { $0.allowsPrivateHosts = true }.run(.live) { api in
                let port = try #require(api.port)
                let alice = try await api.signUp("alice")
                let bob = try await api.signUp("bob")
                let direct = try await api.conversation(of: alice, with: [bob])
                let link = "http://127.0.0.1:\(site)/story"

                let card = try await api.get(Self.preview(link), as: alice).decode(Wire.LinkPreview.self)
                #expect(card.title == "A story worth reading")
                #expect(card.description == "It has a beginning, a middle and an end.")
                // The page's image, made absolute, goes out as the image proxy's signed address.
                let image = try #require(card.imageURL.flatMap { URLComponents(string: $0) })
                #expect(image.path == "/images/proxy")
                #expect(image.queryItems?.first { $0.name == "url" }?.value == "http://127.0.0.1:\(site)/cover.png")
                #expect(image.queryItems?.first { $0.name == "sig" }?.value?.count == 32)
                #expect(try await api.get(Self.preview("http://127.0.0.1:\(site)/moved"), as: alice).decode(Wire.LinkPreview.self).title
                    == "A story worth reading", "a redirect is followed")
                #expect(try await api.get(Self.preview(link)).status == .unauthorized)

                let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
                let sent = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                    "id": .string(UUID().uuidString), "text": .string("Read this: \(link) !"), "linkPreview": .string(link),
                ]).decode(Wire.Message.self)
                #expect(sent.linkPreview?.title == "A story worth reading")
                #expect(try await bobSocket.messages(1).first?.linkPreview?.url == link, "Bob sees the card live")
                let history = try await api.messages(in: direct.id, as: bob)
                #expect(history.first?.linkPreview == sent.linkPreview, "and after a reload")

                // Without asking for it, no card; an edit keeps the card while the link stays.
                let plain = try await api.send("See \(link)", in: direct.id, as: alice)
                #expect(plain.linkPreview == nil, "a sender who removed the card sends none")
                let aliceSocket = try await TestSocket.session(port: port, as: alice)
                let kept = try await MessageChangeTests.edit(aliceSocket, sent, to: "Really, read this: \(link)")
                #expect(kept.message?.linkPreview?.title == "A story worth reading")
                let dropped = try await MessageChangeTests.edit(aliceSocket, sent, to: "Never mind")
                #expect(dropped.type == "messageChanged")
                #expect(dropped.message?.linkPreview == nil, "an edit that takes the link out takes the card with it")
                await aliceSocket.disconnect()
                await bobSocket.disconnect()
            }
        }
    }

    @Test("Pages that cannot be shown: no title, not HTML, endless redirects, nothing there; the text is sent anyway, without a card")
    func unavailablePages() async throws {
        try await Self.withSite { site in
            try await TestServer { $0.allowsPrivateHosts = true }.run { api in
                let alice = try await api.signUp("alice")
                let bob = try await api.signUp("bob")
                let direct = try await api.conversation(of: alice, with: [bob])
                for path in ["/untitled", "/data.json", "/loop", "/missing"] {
                    let reply = try await api.get(Self.preview("http://127.0.0.1:\(site)\(path)"), as: alice)
                    #expect(reply.status == .notFound, "\(path)")
                    #expect(reply.errorCode == "previewUnavailable", "\(path)")
                }
                #expect(try await api.get(Self.preview("ftp://127.0.0.1/file"), as: alice).errorCode == "previewUnavailable")
                #expect(try await api.get(Self.preview("not a link"), as: alice).errorCode == "previewUnavailable")
                #expect(try await api.get(Self.preview("http://x.example/" + String(repeating: "a", count: 2048)), as: alice).errorCode == "invalidValue")

                let link = "http://127.0.0.1:\(site)/untitled"
                let sent = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                    "id": .string(UUID().uuidString), "text": .string("look \(link)"), "linkPreview": .string(link),
                ])
                #expect(sent.status == .created, "the text goes, without a card")
                #expect(try sent.decode(Wire.Message.self).linkPreview == nil)
                let elsewhere = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                    "id": .string(UUID().uuidString), "text": "no link here", "linkPreview": .string("http://127.0.0.1:\(site)/story"),
                ])
                #expect(elsewhere.status == .created)
                #expect(try elsewhere.decode(Wire.Message.self).linkPreview == nil, "a card is only for a link in the text")
            }
        }
    }

    @Test("A page that never finishes sending its head is given up at linkPreviewTimeout, for the whole fetch: previewUnavailable, and a send with it goes at once without a card")
    func tricklingPageIsGivenUp() async throws {
        try await Self.withSite { site in
            try await TestServer { $0.allowsPrivateHosts = true; $0.linkPreviewTimeout = .seconds(2) }.run { api in
                let alice = try await api.signUp("alice")
                let bob = try await api.signUp("bob")
                let direct = try await api.conversation(of: alice, with: [bob])
                let link = "http://127.0.0.1:\(site)/trickle"
                let started = ContinuousClock.now
                let reply = try await api.get(Self.preview(link), as: alice)
                #expect(reply.errorCode == "previewUnavailable", "\(reply.text)")
                #expect(reply.text.contains("did not load within 2 seconds"), "\(reply.text)")
                // A byte arrives every 100 ms for a minute: without a deadline for the whole fetch,
                // AsyncHTTPClient's read timeout would never fire.
                #expect(ContinuousClock.now - started < .seconds(30), "given up at the deadline, not when the page ends")
                let sent = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                    "id": .string(UUID().uuidString), "text": .string("slow \(link)"), "linkPreview": .string(link),
                ])
                #expect(sent.status == .created)
                #expect(try sent.decode(Wire.Message.self).linkPreview == nil)
            }
        }
    }

    @Test("A link to 127.0.0.1, 10.0.0.1 or any private address is refused with hostNotAllowed, and nothing is fetched")
    func privateAddressesAreRefused() async throws {
        try await Self.withSite { site in
            try await TestServer().run { api in
                let alice = try await api.signUp("alice")
                for url in ["http://127.0.0.1:\(site)/story", "http://10.0.0.1/", "http://[::1]:\(site)/story", "http://localhost:\(site)/story", "http://169.254.169.254/latest/meta-data/"] {
                    let reply = try await api.get(Self.preview(url), as: alice)
                    #expect(reply.status == .forbidden, "\(url): \(reply.text)")
                    #expect(reply.errorCode == "hostNotAllowed", "\(url)")
                }
            }
        }
    }

    @Test("Each person has linkPreviewsPerMinute fetches; pages already read are answered from the cache without counting")
    func fetchesAreLimited() async throws {
        try await Self.withSite { site in
            try await TestServer { $0.allowsPrivateHosts = true; $0.linkPreviewsPerMinute = 2 }.run { api in
                let alice = try await api.signUp("alice")
                let bob = try await api.signUp("bob")
                #expect(try await api.get(Self.preview("http://127.0.0.1:\(site)/story"), as: alice).status == .ok)
                #expect(try await api.get(Self.preview("http://127.0.0.1:\(site)/moved"), as: alice).status == .ok)
                let third = try await api.get(Self.preview("http://127.0.0.1:\(site)/story?again"), as: alice)
                #expect(third.status == .tooManyRequests)
                #expect(third.errorCode == "previewingTooFast")
                #expect(third.headers[.retryAfter] != nil)
                #expect(try await api.get(Self.preview("http://127.0.0.1:\(site)/story"), as: alice).status == .ok, "a page read lately")
                #expect(try await api.get(Self.preview("http://127.0.0.1:\(site)/story?again"), as: bob).status == .ok, "Bob has his own allowance")
            }
        }
    }
}
