import Foundation
import ParlorKit
import ParlorTesting
import Testing

/// The simulator's tools for the cases a fast, in-order simulation hides: late deliveries,
/// messages made by hand, transcripts read by people.
@Suite("Simulator tools: held deliveries, raw messages, named transcripts")
struct RaceToolsTests {
    @Test("Held deliveries do not reach the open app until released, then arrive in order; the transcript is not held")
    func heldDeliveries() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"], bob = fixture["Bob"]
        try await bob.openApp(named: "Counter")
        let bobID = try await bob.participantID(in: "Counter")
        try await fixture.simulator.holdDeliveries(to: "Bob")

        let first = try #require(try await fixture.startCounter(by: alice))
        try await alice.tapMessage(containing: "Count 1")
        try await alice.tap("Send now")
        #expect(fixture.log.all.filter { $0.participant == bobID && $0.hook == "didReceive" }.isEmpty, "Bob's app has heard of nothing")
        #expect(try await fixture.lines(of: bob) == ["summary Counted to 1", "bubble Count 2"], "Bob sees both messages")

        try await fixture.simulator.releaseDeliveries(to: "Bob")
        let received = fixture.log.all.filter { $0.participant == bobID && $0.hook == "didReceive" }.map(\.message)
        #expect(received.count == 2)
        #expect(received.first == first.id, "in the order they were sent")

        // No longer held: the next one arrives at once.
        try await alice.tap("Send now")
        #expect(fixture.log.all.filter { $0.participant == bobID && $0.hook == "didReceive" }.count == 3)
    }

    @Test("sendRawMessage sets the app as the host would; the named transcript reads participants' tokens as names")
    func rawMessagesAndNames() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"], bob = fixture["Bob"]
        let bobID = try await bob.participantID(in: "Hello")
        let wave = Message(
            url: URL(string: "https://parlor.example/hello?text=hi"),
            layout: .template(TemplateLayout(caption: "\(bobID.mention) waved")), summaryText: "Waved")
        #expect(wave.appID == nil)
        try await alice.sendRawMessage(wave, app: "Hello", replacing: nil)

        let line = try #require(try await alice.transcript().last)
        #expect(line.message?.appID?.rawValue == "org.parlor.hello")
        #expect(line.appName == "Hello")
        #expect(line.text.contains(bobID.mention), "the app's own view of it")
        #expect(line.namedText == "Bob waved")

        // No app named and none open: the test is told what to do.
        await #expect(throws: SimulatorError.self) { try await bob.sendRawMessage(wave, replacing: nil) }
        // With the app open, it is the one used.
        try await bob.openApp(named: "Hello")
        let posted = try await bob.sendRawMessage(Message(url: wave.url, layout: wave.layout), replacing: nil)
        #expect(posted.message?.appID?.rawValue == "org.parlor.hello")
    }
}
