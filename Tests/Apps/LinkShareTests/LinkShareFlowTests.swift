import Foundation
import LinkShare
import ParlorKit
import ParlorTesting
import Testing

@Suite("LinkShare in a conversation, fetching from a local server")
struct LinkShareFlowTests {
    static let zigRow = "Zig 0.14 release notes, score 640, ziglang.org"
    static let zigURL = "https://ziglang.org/download/0.14.0/release-notes.html"

    @Test("Seed flow: Alice shares a post; Bob (app closed) and Alice (app open in compact) tap it and read the link in the in-app web page")
    func seedFlow() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let simulator = linkShareConversation(patientLinkShare(feedURL: server.url()))
            let alice = simulator.participant("Alice")
            let list = try await alice.openApp(named: "LinkShare")
            #expect(await alice.presentationStyle() == .compact)
            #expect(server.requestedPaths == ["/r/programming.json"])
            #expect(list.listedTitles == Fixtures.programmingTitles)
            #expect(list.visibleTexts.contains("score: 640"))
            #expect(list.visibleTexts.contains("ziglang.org"))

            try await alice.tap(Self.zigRow)
            let staged = try #require(await alice.staged()?.message)
            #expect(staged.template?.caption == "Zig 0.14 release notes")
            #expect(staged.template?.subcaption == "score: 640")
            #expect(staged.template?.trailingSubcaption == "ziglang.org")
            #expect(staged.url?.absoluteString == Self.zigURL)
            try await alice.sendStaged()

            // Bob has not opened LinkShare: tapping the bubble opens it expanded, on the link.
            let bob = simulator.participant("Bob")
            let bubble = try #require(try await bob.transcript().last)
            #expect(bubble.appName == "LinkShare")
            #expect(bubble.template?.caption == "Zig 0.14 release notes")
            let bobView = try await bob.tapMessage(containing: "Zig 0.14 release notes")
            #expect(await bob.presentationStyle() == .expanded)
            #expect(bobView.webPages.map(\.url.absoluteString) == [Self.zigURL])
            #expect(bobView.webPages.map(\.title) == ["Zig 0.14 release notes"])

            // Alice still has LinkShare open in compact: the tap expands it onto the link.
            #expect(await alice.presentationStyle() == .compact)
            let aliceView = try await alice.tapMessage(containing: "Zig 0.14 release notes")
            #expect(await alice.presentationStyle() == .expanded)
            #expect(aliceView.webPages.map(\.url.absoluteString) == [Self.zigURL])

            // The way back: the list again, still expanded.
            try await bob.tap("Back to posts")
            let back = await bob.view()
            #expect(back.webPages.isEmpty)
            #expect(back.listedTitles == Fixtures.programmingTitles)
        }
    }

    @Test("The feed is a setting: another subreddit's listing is fetched, named in the header and listed")
    func feedIsASetting() async throws {
        let swift = Fixtures.listing(title: "Swift 6.3 released", url: "https://swift.org/blog/swift-6.3/", score: 321, domain: "swift.org")
        try await FeedServer.run(answering: .listing(swift)) { server in
            let simulator = linkShareConversation(patientLinkShare(feedURL: server.url("/r/swift.json")))
            let view = try await simulator.participant("Alice").openApp(named: "LinkShare")
            #expect(server.requestedPaths == ["/r/swift.json"])
            #expect(view.text(id: "feed-title") == "r/swift")
            #expect(view.rowLabels == ["Swift 6.3 released, score 321, swift.org"])
        }
    }

    @Test("Refresh fetches the feed again and lists what it has now")
    func refreshShowsNewPosts() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let alice = linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice")
            try await alice.openApp(named: "LinkShare")
            server.answer(with: .listing(Fixtures.listing(title: "Fresh post", url: "https://fresh.example/")))
            try await alice.tap("Refresh")
            #expect(server.requestedPaths.count == 2)
            #expect(await alice.view().listedTitles == ["Fresh post"])
        }
    }

    @Test("A message tapped while the app is open expanded shows the link; collapsing returns to the list")
    func tapWhileExpanded() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let simulator = linkShareConversation(patientLinkShare(feedURL: server.url()))
            let alice = simulator.participant("Alice")
            try await alice.openApp(named: "LinkShare")
            try await alice.tap(Self.zigRow)
            try await alice.sendStaged()
            try await alice.expand()
            #expect(await alice.view().webPages.isEmpty)
            let page = try await alice.tapMessage(containing: "Zig 0.14")
            #expect(page.webPages.map(\.url.absoluteString) == [Self.zigURL])
            try await alice.collapse()
            let list = await alice.view()
            #expect(list.webPages.isEmpty)
            #expect(list.listedTitles == Fixtures.programmingTitles)
        }
    }

    @Test("Opening from the drawer after reading a link shows the list, not the old page")
    func drawerOpensTheList() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let simulator = linkShareConversation(patientLinkShare(feedURL: server.url()))
            let alice = simulator.participant("Alice")
            try await alice.openApp(named: "LinkShare")
            try await alice.tap(Self.zigRow)
            try await alice.sendStaged()
            let bob = simulator.participant("Bob")
            try await bob.tapMessage(containing: "Zig")
            try await bob.dismissApp()
            let view = try await bob.openApp(named: "LinkShare")
            #expect(view.webPages.isEmpty)
            #expect(view.listedTitles == Fixtures.programmingTitles)
        }
    }

    @Test("Entity-escaped text reads as plain text, in the list and in the bubble")
    func escapedTextReadsPlainly() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let simulator = linkShareConversation(patientLinkShare(feedURL: server.url()))
            let alice = simulator.participant("Alice")
            let view = try await alice.openApp(named: "LinkShare")
            #expect(!view.visibleTexts.contains { $0.contains("&amp;") || $0.contains("&lt;") || $0.contains("&#") || $0.contains("&quot;") })
            let canvas = "<canvas> tricks: \"60 fps\" isn't magic — it’s budgeting"
            try await alice.tap("\(canvas), score 87, developer.mozilla.org")
            let staged = try #require(await alice.staged()?.message)
            #expect(staged.template?.caption == canvas)
            #expect(staged.url?.absoluteString == "https://developer.mozilla.org/en-US/docs/Web/API/Canvas_API?utm_source=reddit&utm_medium=social")
        }
    }

    @Test("Entries that are not posts, and posts with a non-web or overlong link, are not listed")
    func unshareableEntriesAreNotListed() async throws {
        let listing = Fixtures.listing([
            FixturePost(name: "t3_a", title: "Keep me", score: 5, url: "https://keep.example/", domain: "keep.example"),
            FixturePost(name: "t3_b", title: "Script link", url: "javascript:alert(document.cookie)"),
            FixturePost(name: "t3_c", title: "Huge link", url: Fixtures.url(length: 5_001)),
        ])
        for body in [listing, Fixtures.mixed] {
            try await FeedServer.run(answering: .listing(body)) { server in
                let view = try await linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice").openApp(named: "LinkShare")
                #expect(view.listedTitles == (body == listing ? ["Keep me"] : ["A good post", "Another good post"]))
                #expect(view.text(id: "feed-error") == nil)
            }
        }
    }
}
