import Foundation
import ParlorKit
import ParlorTesting
import Poll
import Testing

@Suite("Quick Poll")
struct PollTests {
    /// Alice asks "Lunch?" with Pizza and Sushi (the empty option fields are left out) and sends it.
    /// - Parameter outOfProcess: host Poll across the app connection protocol (every call, answer
    ///   and rebase as JSON), as a server hosts an app in its own process.
    static func lunchPoll(outOfProcess: Bool = false) async throws -> ConversationSimulator {
        let names = ["Alice", "Bob", "Carol"]
        let simulator = outOfProcess
            ? ConversationSimulator(participants: names, hosting: [OutOfProcess.app(Poll())])
            : ConversationSimulator(participants: names, apps: [Poll()])
        let alice = simulator.participant("Alice")
        try await alice.openApp(named: "Poll")
        try await alice.type("Lunch?", into: "question")
        try await alice.type("Pizza", into: "option-0")
        try await alice.type("Sushi", into: "option-1")
        try await alice.tap("Create")
        try await alice.sendStaged()
        return simulator
    }

    /// The bubble everyone sees last.
    static func bubble(of simulator: ConversationSimulator, for name: String = "Alice") async throws -> String {
        let line = try #require(try await simulator.participant(name).transcript().last)
        return "\(line.template?.caption ?? "") | \(line.template?.subcaption ?? "")"
    }

    @Test("A poll starts with no votes; a vote updates the one bubble, and a person can change it")
    func voting() async throws {
        let simulator = try await Self.lunchPoll()
        #expect(try await Self.bubble(of: simulator) == "Lunch? | Pizza 0 · Sushi 0")
        let bob = simulator.participant("Bob")
        try await bob.tapMessage(containing: "Lunch?")
        try await bob.tap("Pizza: 0")
        try await bob.sendStaged()
        #expect(try await Self.bubble(of: simulator) == "Lunch? | Pizza 1 · Sushi 0")
        #expect(await bob.view().visibleTexts.contains("✓ Pizza: 1"), "Bob sees his vote")

        try await bob.tap("Sushi: 0")
        try await bob.sendStaged()
        #expect(try await Self.bubble(of: simulator) == "Lunch? | Pizza 0 · Sushi 1", "one vote each: Bob's moved")
        #expect(try await simulator.participant("Carol").transcript().filter { $0.kind == .bubble }.count == 1, "one bubble, updated in place")
    }

    @Test(
        "Two people vote from the same message at once: both votes count (the host re-applies the second to the new head), in process and out",
        arguments: [false, true])
    func simultaneousVotes(outOfProcess: Bool) async throws {
        let simulator = try await Self.lunchPoll(outOfProcess: outOfProcess)
        let bob = simulator.participant("Bob"), carol = simulator.participant("Carol")
        // Both open the poll before either sends; neither app hears of the other's vote in time.
        try await simulator.holdDeliveries(to: "Bob")
        try await simulator.holdDeliveries(to: "Carol")
        try await bob.tapMessage(containing: "Lunch?")
        try await carol.tapMessage(containing: "Lunch?")
        try await bob.tap("Pizza: 0")
        try await carol.tap("Sushi: 0")
        try await bob.sendStaged()
        try await carol.sendStaged()
        #expect(try await Self.bubble(of: simulator) == "Lunch? | Pizza 1 · Sushi 1")
        #expect(await carol.staged() == nil, "Carol's vote went through; nothing waits in her compose field")
    }

    @Test("Forged messages are refused: a change to another person's vote, a vote for an option that does not exist")
    func forgeries() async throws {
        let simulator = try await Self.lunchPoll()
        let bob = simulator.participant("Bob"), carol = simulator.participant("Carol")
        try await carol.tapMessage(containing: "Lunch?")
        try await carol.tap("Sushi: 0")
        let head = try #require(try await carol.sendStaged())
        var ballot = try Poll.Ballot(message: head.message)
        let carolID = try await carol.participantID(in: "Poll"), bobID = try await bob.participantID(in: "Poll")

        func send(_ ballot: Poll.Ballot) async throws {
            let message = Message(session: head.message?.session, url: try ballot.url(base: "https://parlor.example/poll"), layout: .template(TemplateLayout(caption: "x")))
            try await bob.sendRawMessage(message, app: "Poll", replacing: head.id)
        }
        var changedCarol = ballot
        changedCarol[carolID] = 0
        await #expect(throws: MessagesError.self) { try await send(changedCarol) }
        var outOfRange = ballot
        outOfRange[bobID] = 7
        await #expect(throws: MessagesError.self) { try await send(outOfRange) }
        ballot[bobID] = 1
        try await send(ballot)  // Bob's own, valid vote goes through
        #expect(await simulator.messages.count == 3)
    }
}
