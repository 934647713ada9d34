import Foundation
import LinkShare
import ParlorHost
import ParlorKit
import ParlorTesting
import Testing

@Suite("Choosing the feed: a subreddit or an address, remembered per person, and back to the server's default")
struct FeedChoiceFlowTests {
    static let swiftListing = Fixtures.listing(title: "Swift 6.3 released", url: "https://swift.org/blog/swift-6.3/", score: 321, domain: "swift.org")

    @Test("Choose feed shows the Feed field and the server's default; a subreddit name shows that subreddit")
    func chooseSubreddit() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let alice = linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice")
            try await alice.openApp(named: "LinkShare")
            try await alice.tap("Choose feed")
            let chooser = await alice.view()
            #expect(chooser.text(id: "server-default") == "Server default: r/programming")
            #expect(!chooser.buttonTitles.contains("Use server default"))
            server.answer(with: .listing(Self.swiftListing))
            try await alice.submit("r/swift", in: "Feed")
            let view = await alice.view()
            #expect(server.requestedPaths.last == "/r/swift.json")
            #expect(view.text(id: "feed-title") == "r/swift")
            #expect(view.rowLabels == ["Swift 6.3 released, score 321, swift.org"])
            #expect(view.text(id: "server-default") == nil, "the chooser closes once a feed is shown")
        }
    }

    @Test("An Atom feed's address, typed then shown with the button, lists its entries under its own title")
    func chooseAtomURL() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let alice = linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice")
            try await alice.openApp(named: "LinkShare")
            try await alice.tap("Choose feed")
            // Served as application/json: the format is read from the content.
            server.answer(with: FeedAnswer(body: Fixtures.atom))
            try await alice.type(server.url("/feeds/weekly.atom").absoluteString, into: "Feed")
            try await alice.tap("Show feed")
            let view = await alice.view()
            #expect(server.requestedPaths.last == "/feeds/weekly.atom")
            #expect(view.text(id: "feed-title") == "Swift Weekly")
            #expect(view.listedTitles == Fixtures.atomTitles)
            #expect(view.rowLabels.first == "Typed throws in practice & more, weekly.example.com")
            try await alice.tap("Typed throws in practice & more, weekly.example.com")
            let staged = try #require(await alice.staged()?.message)
            #expect(staged.url?.absoluteString == "https://weekly.example.com/issues/1")
        }
    }

    @Test("An RSS feed lists its items")
    func chooseRSSURL() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let alice = linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice")
            try await alice.openApp(named: "LinkShare")
            try await alice.tap("Choose feed")
            server.answer(with: FeedAnswer(body: Fixtures.rss))
            try await alice.submit(server.url("/blog/rss.xml").absoluteString, in: "Feed")
            let view = await alice.view()
            #expect(view.text(id: "feed-title") == "Example & Co. Blog")
            #expect(view.listedTitles == Fixtures.rssTitles)
        }
    }

    @Test("Text that names no feed keeps the chooser open with the reason, and the feed shown stays")
    func refusedChoice() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let alice = linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice")
            try await alice.openApp(named: "LinkShare")
            try await alice.tap("Choose feed")
            try await alice.submit("http://10.0.0.7/feed", in: "Feed")
            let view = await alice.view()
            #expect(view.text(id: "feed-notice") == "LinkShare doesn't read feeds from local or private addresses such as 10.0.0.7. Choose a public feed.")
            #expect(view.text(id: "server-default") == "Server default: r/programming")
            #expect(view.listedTitles == Fixtures.programmingTitles)
            #expect(server.requestedPaths == ["/r/programming.json"])
        }
    }

    @Test("The choice is remembered after closing and reopening the app; Use server default goes back and is remembered too")
    func rememberedAndBackToDefault() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let alice = linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice")
            try await alice.openApp(named: "LinkShare")
            try await alice.tap("Choose feed")
            server.answer(with: .listing(Self.swiftListing))
            try await alice.submit("swift", in: "Feed")
            try await alice.dismissApp()

            let reopened = try await alice.openApp(named: "LinkShare")
            #expect(server.requestedPaths.last == "/r/swift.json")
            #expect(reopened.text(id: "feed-title") == "r/swift")

            try await alice.tap("Choose feed")
            #expect(await alice.view().text(id: "server-default") == "Server default: r/programming")
            server.answer(with: .listing(Fixtures.programming))
            try await alice.tap("Use server default")
            let back = await alice.view()
            #expect(back.text(id: "feed-title") == "r/programming")
            #expect(back.listedTitles == Fixtures.programmingTitles)
            try await alice.dismissApp()
            #expect(try await alice.openApp(named: "LinkShare").text(id: "feed-title") == "r/programming")
            #expect(server.requestedPaths.last == "/r/programming.json")
        }
    }

    @Test("The choice lives in the person's container: a new instance (another conversation, a restarted server) opens on it")
    func keptInTheContainer() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let app = patientLinkShare(feedURL: server.url())
            let container = InMemoryContainer()
            func instance() -> AppInstance<LinkShare> {
                AppInstance(app: app, configuration: InstanceConfiguration(
                    localParticipant: ParticipantID(), remoteParticipants: [], conversationHost: NoConversationHost(),
                    container: container, httpClient: URLSessionFetchClient()))
            }
            let first = instance()
            _ = await first.openFromDrawer()
            let chooser = await first.perform(.action(try #require(buttonAction("Choose feed", in: await first.current().view))))
            let field = try #require(chooser.view.allNodes.lazy.compactMap { node -> TextFieldNode? in
                if case .textField(let field) = node { return field }
                return nil
            }.first)
            server.answer(with: .listing(Self.swiftListing))
            _ = await first.perform(.action(try #require(field.onSubmit), value: "swift"))
            #expect(try await container.data(forKey: "feed") != nil)

            let second = instance()
            let view = await second.openFromDrawer().view
            #expect(view.text(id: "feed-title") == "r/swift")
            #expect(view.listedTitles == ["Swift 6.3 released"])
        }
    }

    @Test("A chosen feed that cannot be reached says so with Retry and Choose feed, and names its host")
    func chosenFeedUnreachable() async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let alice = linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice")
            try await alice.openApp(named: "LinkShare")
            try await alice.tap("Choose feed")
            server.answer(with: FeedAnswer(status: 404, body: "Not Found"))
            try await alice.submit("nosuchsub", in: "Feed")
            let view = await alice.view()
            #expect(view.text(id: "feed-error") == "There is no feed at this address (127.0.0.1 answered HTTP 404). Check the address, or choose another feed.")
            #expect(view.buttonTitles == ["Retry", "Choose feed"])
            #expect(view.rowLabels.isEmpty, "the previous feed's posts are not shown under the new feed's name")
        }
    }

    /// The action of the button titled `title`.
    func buttonAction(_ title: String, in view: ViewNode) -> ActionPayload? {
        view.allNodes.lazy.compactMap { node -> ActionPayload? in
            if case .button(let button) = node, button.title == title { return button.action }
            return nil
        }.first
    }
}
