import Foundation
import ParlorKit
import ParlorTesting
import Testing

@Suite("Staging, sending and session heads")
struct SendingTests {
    @Test("Sending the same message id twice commits it once")
    func idempotentCommit() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"]
        try await alice.openApp(named: "Counter")
        try await alice.tap("Send twice")
        #expect(await alice.appError() == nil)
        #expect(await fixture.simulator.messages.count == 1)
        #expect(fixture.log.all.contains { $0.hook == "same message twice" })
        #expect(try await fixture["Bob"].transcript().count == 1)
    }

    @Test("Sending on a stale head is refused as sessionConflict carrying the new head; nothing is lost")
    func staleHead() async throws {
        let fixture = Fixture()
        let bob = fixture["Bob"], carol = fixture["Carol"]
        try await fixture.startCounter(by: fixture["Alice"])
        try await bob.tapMessage(containing: "Count 1")
        try await bob.tap("Add")
        try await carol.tapMessage(containing: "Count 1")
        try await carol.tap("Add 10")
        let bobs = try #require(try await bob.sendStaged())

        do {
            try await carol.sendStaged()
            Issue.record("Carol's stale update was committed")
        } catch let error as MessagesError {
            #expect(error.code == .sessionConflict)
            #expect(error.sessionHead?.id == bobs.id)
        }
        #expect(await carol.staged()?.message?.template?.caption == "Count 11", "Carol's message waits in her compose field")
        #expect(await fixture.simulator.messages.count == 2)

        // Carol re-applies her change on the new head.
        try await carol.tapMessage(containing: "Count 2")
        try await carol.tap("Add 10")
        try await carol.sendStaged()
        #expect(try await fixture.lines(of: carol).last == "bubble Count 12")
    }

    @Test("An app's immediate send that loses the race is re-run on the new head: no count is lost")
    func sendNowRebases() async throws {
        let fixture = Fixture()
        let bob = fixture["Bob"], carol = fixture["Carol"]
        try await fixture.startCounter(by: fixture["Alice"])
        try await bob.tapMessage(containing: "Count 1")
        try await carol.tapMessage(containing: "Count 1")
        try await bob.tap("Send now")
        try await carol.tap("Send now")
        #expect(await carol.appError() == nil)
        #expect(try await fixture.lines(of: fixture["Alice"]) == ["summary Counted to 1", "summary Counted to 2", "bubble Count 3"])
        #expect(await carol.view().visibleTexts.contains("count 3"))
    }

    @Test("A forged update the app's validate refuses is never committed")
    func forgedUpdateRefused() async throws {
        let fixture = Fixture()
        let bob = fixture["Bob"]
        try await fixture.startCounter(by: fixture["Alice"])
        try await bob.tapMessage(containing: "Count 1")
        try await bob.tap("Cheat")
        do {
            try await bob.sendStaged()
            Issue.record("the forged count was committed")
        } catch let error as MessagesError {
            #expect(error.code == .actionRefused)
        }
        #expect(await fixture.simulator.messages.count == 1)
    }

    @Test("Staging replaces the staged message; only the last one is sent")
    func stagingReplaces() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"]
        try await alice.openApp(named: "Counter")
        try await alice.tap("Add")
        try await alice.tap("Add 10")
        #expect(await alice.staged()?.message?.template?.caption == "Count 10")
        try await alice.sendStaged()
        #expect(await alice.staged() == nil)
        #expect(try await fixture.lines(of: alice) == ["bubble Count 10"])
        #expect(try await alice.sendStaged() == nil, "nothing is left to send")
    }

    @Test("Removing the staged message calls didCancelSending and sends nothing")
    func removeStaged() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"]
        try await alice.openApp(named: "Counter")
        try await alice.tap("Add")
        let staged = try #require(await alice.staged()?.message)
        await alice.removeStaged()
        let aliceID = try await alice.participantID(in: "Counter")
        #expect(fixture.log.hooks(of: aliceID).last == "didCancelSending")
        #expect(fixture.log.all.last?.message == staged.id)
        #expect(await alice.staged() == nil)
        #expect(await fixture.simulator.messages.isEmpty)
    }

    @Test("Sending the staged message calls didStartSending; the committed message is no longer pending")
    func sendStaged() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"]
        try await alice.openApp(named: "Counter")
        try await alice.tap("Add")
        let staged = try #require(await alice.staged()?.message)
        #expect(staged.isPending)
        let posted = try #require(try await alice.sendStaged())
        let aliceID = try await alice.participantID(in: "Counter")
        #expect(fixture.log.hooks(of: aliceID).suffix(1) == ["didStartSending"])
        #expect(fixture.log.all.last?.message == staged.id)
        #expect(posted.id == staged.id)
        #expect(posted.message?.isPending == false)
        #expect(posted.message?.appID == "org.parlor.test.counter")
    }

    @Test("A message from the open app reaches other participants who have it open (didReceive)")
    func didReceive() async throws {
        let fixture = Fixture()
        let bob = fixture["Bob"], carol = fixture["Carol"]
        try await bob.openApp(named: "Counter")
        try await carol.openApp(named: "Hello")
        let posted = try #require(try await fixture.startCounter(by: fixture["Alice"]))
        let bobID = try await bob.participantID(in: "Counter"), carolID = try await carol.participantID(in: "Counter")
        #expect(fixture.log.all.filter { $0.hook == "didReceive" }.map(\.participant) == [bobID])
        #expect(fixture.log.all.last { $0.hook == "didReceive" }?.message == posted.id)
        #expect(fixture.log.hooks(of: carolID).isEmpty)
    }
}
