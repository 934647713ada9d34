import Foundation
import ParlorKit
import ParlorTesting
import Testing

@Suite("Group conversations")
struct GroupConversationTests {
    static let five = ["Alice", "Bob", "Carol", "Dave", "Eve"]

    @Test("Five participants take turns in one session; everyone sees the same collapsed transcript")
    func fiveParticipants() async throws {
        let fixture = Fixture(Self.five)
        try await fixture.startCounter(by: fixture["Alice"])
        for name in Self.five.dropFirst() {
            try await fixture[name].send(text: "\(name) is next")
            try await fixture.addToCounter(by: fixture[name])
        }
        let expected = [
            "summary Counted to 1", "bubble Bob is next", "summary Counted to 2", "bubble Carol is next", "summary Counted to 3",
            "bubble Dave is next", "summary Counted to 4", "bubble Eve is next", "bubble Count 5",
        ]
        for name in Self.five {
            #expect(try await fixture.lines(of: fixture[name]) == expected, "\(name)")
        }
        #expect(await fixture.simulator.messages.count == 9)
    }

    @Test("Three messages in one session leave two summary lines in place and one bubble at the bottom; other messages keep their order")
    func sessionCollapse() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"], bob = fixture["Bob"], carol = fixture["Carol"]
        try await fixture.startCounter(by: alice)
        try await bob.send(text: "nice")
        try await fixture.addToCounter(by: bob)
        try await carol.send(text: "go on")
        try await fixture.addToCounter(by: carol)

        let transcript = try await alice.transcript()
        #expect(transcript.map(\.kind) == [.summary, .bubble, .summary, .bubble, .bubble])
        #expect(transcript.map(\.text) == ["Counted to 1", "nice", "Counted to 2", "go on", "Count 3"])
        #expect(transcript.map(\.sender) == ["Alice", "Bob", "Bob", "Carol", "Carol"])
        #expect(transcript.last?.appName == "Counter")
        #expect(transcript.last?.template?.caption == "Count 3")
    }

    @Test("A summary line cannot be tapped; the session's bubble can")
    func summaryNotTappable() async throws {
        let fixture = Fixture()
        try await fixture.startCounter(by: fixture["Alice"])
        try await fixture.addToCounter(by: fixture["Bob"])
        let carol = fixture["Carol"]
        let transcript = try await carol.transcript()
        let summary = try #require(transcript.first)
        #expect(summary.kind == .summary)
        await #expect(throws: SimulatorError.self) { try await carol.tapMessage(summary) }
        let view = try await carol.tapMessage(containing: "Count 2")
        #expect(view.visibleTexts.contains("count 2"))
    }

    @Test("Sequence numbers are gapless, also across refused sends and every kind of message")
    func gaplessSequence() async throws {
        let sticker = try Sticker(id: "party/cake.png", image: .asset("cake.png"), localizedDescription: "A cake")
        let fixture = Fixture(stickerPacks: [StickerPack(id: "party", name: "Party", stickers: [sticker])])
        let alice = fixture["Alice"], bob = fixture["Bob"], carol = fixture["Carol"]
        try await fixture.startCounter(by: alice)
        await #expect(throws: MessagesError.self) { try await bob.send(text: String(repeating: "x", count: 10_001)) }
        await #expect(throws: MessagesError.self) { try await bob.send(text: "") }
        try await bob.send(text: "hi")
        try await carol.openStickerPack("party")
        try await carol.tapSticker("A cake")
        try await carol.sendStaged()

        // Bob and Carol both update the same head: Carol's is refused as stale.
        try await bob.tapMessage(containing: "Count 1")
        try await bob.tap("Add")
        try await carol.tapMessage(containing: "Count 1")
        try await carol.tap("Add")
        try await bob.sendStaged()
        await #expect(throws: MessagesError.self) { try await carol.sendStaged() }
        try await alice.send(text: "done")

        let sequences = await fixture.simulator.messages.map(\.sequence)
        #expect(sequences == Array(1...5))
    }

    @Test("Participant ids are stable per participant and app, different across apps and people; remote ids list the others")
    func participantIDs() async throws {
        let fixture = Fixture(Self.five)
        let alice = fixture["Alice"]
        let aliceCounter = try await alice.participantID(in: "Counter")
        #expect(try await alice.participantID(in: "Counter") == aliceCounter)
        #expect(try await alice.participantID(in: "org.parlor.test.counter") == aliceCounter)
        #expect(try await alice.participantID(in: "Hello") != aliceCounter)

        var counterIDs: [String: ParticipantID] = [:]
        for name in Self.five { counterIDs[name] = try await fixture[name].participantID(in: "Counter") }
        #expect(Set(counterIDs.values).count == 5)
        for name in Self.five {
            let helloID = try await fixture[name].participantID(in: "Hello")
            #expect(!counterIDs.values.contains(helloID), "\(name)'s Hello id must not match any Counter id")
        }

        let posted = try #require(try await fixture.startCounter(by: alice))
        #expect(posted.message?.senderParticipantIdentifier == aliceCounter)
        let opened = try #require(fixture.log.all.first { $0.hook == "willBecomeActive" })
        #expect(opened.participant == aliceCounter)
        #expect(Set(opened.remotes) == Set(Self.five.dropFirst().compactMap { counterIDs[$0] }))
        #expect(opened.remotes.count == 4)
    }

    @Test("A recipient sees the sender's id in the viewing app's ids, and the app sees no names")
    func senderIDsSeenByRecipients() async throws {
        let fixture = Fixture()
        try await fixture.startCounter(by: fixture["Alice"])
        let aliceID = try await fixture["Alice"].participantID(in: "Counter")
        let bobLine = try #require(try await fixture["Bob"].transcript().last)
        #expect(bobLine.message?.senderParticipantIdentifier == aliceID)
        #expect(bobLine.message?.url?.absoluteString.contains("Alice") == false)
    }
}
