import Foundation
import LinkShare
import ParlorKit
import ParlorTesting
import Testing

@Suite("Feed failures: a clear error, a Retry button, and the last good list kept")
struct FeedErrorFlowTests {
    /// How slow the "slow server" is in the timeout tests: far beyond their 2-second timeout.
    static let slowAnswer: Duration = .seconds(90)

    /// Opens LinkShare for Alice on a server answering `Fixtures.programming`, then answers `failure`
    /// and taps Refresh: the view after that tap, and the server. The app's timeout is `timeout`,
    /// or a patient one (`patientLinkShare`) for tests not about timeouts.
    func refreshFailing(with failure: FeedAnswer, timeout: Duration? = nil,
                        _ check: (SimulatedParticipant, FeedServer) async throws -> Void) async throws {
        try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let app = timeout.map { LinkShare(feedURL: server.url(), timeout: $0) } ?? patientLinkShare(feedURL: server.url())
            let alice = linkShareConversation(app).participant("Alice")
            let first = try await alice.openApp(named: "LinkShare")
            #expect(first.listedTitles == Fixtures.programmingTitles)
            server.answer(with: failure)
            try await alice.tap("Refresh")
            try await check(alice, server)
        }
    }

    /// The error shown, the Retry button, and the previous posts still listed.
    func expectErrorKeepingList(_ view: ViewNode, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(view.text(id: "feed-error") == message, sourceLocation: sourceLocation)
        #expect(view.buttonTitles.contains("Retry"), sourceLocation: sourceLocation)
        #expect(view.listedTitles == Fixtures.programmingTitles, sourceLocation: sourceLocation)
        #expect(view.visibleTexts.contains("Showing the posts from the last successful refresh."), sourceLocation: sourceLocation)
    }

    @Test("Network failure: the server goes away; Retry shows it cannot be reached and keeps the list")
    func networkFailure() async throws {
        let alice = try await FeedServer.run(answering: .listing(Fixtures.programming)) { server in
            let alice = linkShareConversation(patientLinkShare(feedURL: server.url())).participant("Alice")
            try await alice.openApp(named: "LinkShare")
            return alice
        }
        // The server has stopped: nothing listens on its port now.
        try await alice.tap("Refresh")
        let failed = await alice.view()
        expectErrorKeepingList(failed, "Couldn't reach 127.0.0.1. Check your connection, or choose another feed.")
        #expect(failed.buttonTitles.contains("Choose feed"))
        #expect(failed.text(id: "feed-tries") == nil)
        // Each Retry that fails again changes the view, so a person sees that it tried.
        try await alice.tap("Retry")
        let retried = await alice.view()
        expectErrorKeepingList(retried, "Couldn't reach 127.0.0.1. Check your connection, or choose another feed.")
        #expect(retried.text(id: "feed-tries") == "Still failing after 2 tries.")
        try await alice.tap("Retry")
        #expect(await alice.view().text(id: "feed-tries") == "Still failing after 3 tries.")
    }

    @Test("Network failure on the first load: the error and Retry, no posts")
    func networkFailureBeforeAnyList() async throws {
        let url = try await FeedServer.run(answering: .listing(Fixtures.programming)) { $0.url() }
        let alice = linkShareConversation(patientLinkShare(feedURL: url)).participant("Alice")
        let view = try await alice.openApp(named: "LinkShare")
        #expect(view.text(id: "feed-error") == "Couldn't reach 127.0.0.1. Check your connection, or choose another feed.")
        #expect(view.buttonTitles == ["Retry", "Choose feed"])
        #expect(view.rowLabels.isEmpty)
        #expect(await alice.appError() == nil)
    }

    @Test("Timeout: a server slower than the app's timeout gives a timeout error in time, and Retry recovers")
    func timeout() async throws {
        try await refreshFailing(with: FeedAnswer(body: Fixtures.programming, delay: Self.slowAnswer), timeout: .seconds(2)) { alice, server in
            expectErrorKeepingList(await alice.view(), "127.0.0.1 didn't answer within 2 seconds. Retry in a moment, or choose another feed.")
            server.answer(with: .listing(Fixtures.listing(title: "Back again", url: "https://back.example/")))
            try await alice.tap("Retry")
            let view = await alice.view()
            #expect(view.text(id: "feed-error") == nil)
            #expect(view.listedTitles == ["Back again"])
        }
    }

    @Test("Timeout: the app gives up at its timeout, not the server's pace")
    func timeoutIsPrompt() async throws {
        try await refreshFailing(with: FeedAnswer(body: Fixtures.programming, delay: Self.slowAnswer), timeout: .seconds(2)) { alice, _ in
            let started = ContinuousClock.now
            try await alice.tap("Retry")
            let waited = ContinuousClock.now - started
            let error = await alice.view().text(id: "feed-error")
            #expect(waited < Self.slowAnswer / 3, "the app answered at its own 2-second timeout, not the server's 90 seconds")
            #expect(error == "127.0.0.1 didn't answer within 2 seconds. Retry in a moment, or choose another feed.")
        }
    }

    @Test("A non-200 answer shows its status and keeps the list", arguments: [
        (503, "127.0.0.1 is having trouble (HTTP 503). Retry in a moment."),
        (500, "127.0.0.1 is having trouble (HTTP 500). Retry in a moment."),
        (404, "There is no feed at this address (127.0.0.1 answered HTTP 404). Check the address, or choose another feed."),
        (429, "127.0.0.1 is limiting requests (HTTP 429). Wait a moment, then retry."),
        (403, "127.0.0.1 answered with an error (HTTP 403). Retry later, or choose another feed."),
    ])
    func nonOKStatus(status: Int, message: String) async throws {
        // The body is a valid listing: the status alone must make it an error.
        try await refreshFailing(with: FeedAnswer(status: status, body: Fixtures.listing(title: "Error page", url: "https://x.example/"))) { alice, _ in
            expectErrorKeepingList(await alice.view(), message)
        }
    }

    @Test("An answer that is no feed says what it is instead, keeps the list, and Retry recovers", arguments: [
        ("<html><body>We're down</body></html>", "a web page, not a feed"),
        (#"{"kind": "Listing", "data": {"children": [{"kind": "t3""#, "broken JSON"),
        (#"{"error": 500, "message": "Internal Server Error"}"#, "JSON, but not a Reddit listing"),
        ("<rss version=\"2.0\"><channel><item><title>Cut", "XML that is not well-formed, at line 1"),
        ("We're down", "not JSON, RSS or Atom"),
    ])
    func notAFeed(body: String, message: String) async throws {
        try await refreshFailing(with: FeedAnswer(body: body)) { alice, server in
            expectErrorKeepingList(
                await alice.view(), "This address doesn't give a feed LinkShare can read (\(message)). Choose an RSS, Atom or Reddit feed.")
            server.answer(with: .listing(Fixtures.listing(title: "Fixed", url: "https://fixed.example/")))
            try await alice.tap("Retry")
            let view = await alice.view()
            #expect(view.text(id: "feed-error") == nil)
            #expect(view.buttonTitles.contains("Refresh"))
            #expect(view.listedTitles == ["Fixed"])
        }
    }

    @Test("A post shared from the kept list after a failure still makes a valid message")
    func shareFromKeptList() async throws {
        try await refreshFailing(with: FeedAnswer(status: 503, body: "")) { alice, _ in
            try await alice.tap(LinkShareFlowTests.zigRow)
            let staged = try #require(await alice.staged()?.message)
            #expect(staged.url?.absoluteString == LinkShareFlowTests.zigURL)
        }
    }
}
