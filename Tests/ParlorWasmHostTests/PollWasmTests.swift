import Foundation
import ParlorHost
import ParlorKit
import ParlorTesting
import ParlorWasmHost
import Testing

/// Quick Poll's Embedded Swift port (examples/poll-wasm), built by `WasmAppBuilder` into one
/// WebAssembly file, through examples/poll's own scenarios: its messages are ParlorKit's
/// `SharedState` (read and forged here with ParlorKit itself), its rebase counts two votes at once.
@Suite("WebAssembly apps: Quick Poll in Embedded Swift")
struct PollWasmTests {
    /// What the poll's first message sets, as examples/poll writes it with ParlorKit.
    struct Question: Codable, Sendable, Equatable {
        var text: String
        var options: [String]
    }
    typealias Ballot = SharedState<Question, Int>

    static let module: Result<WasmAppModule, any Error> = Result {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("poll-\(UUID().uuidString).wasm")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try WasmAppBuilder(app: EmbeddedSwiftTests.root.appendingPathComponent("examples/poll-wasm")).build(to: output)
        return try WasmAppModule(bytes: Array(try Data(contentsOf: output)))
    }

    /// Alice asks "Lunch?" with Pizza and Sushi (the empty option fields are left out) and sends it.
    static func lunchPoll() async throws -> ConversationSimulator {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], hosting: [WasmApp.app(try module.get())])
        let alice = simulator.participant("Alice")
        try await alice.openApp(named: "Poll (Wasm)")
        try await alice.type("Lunch? 🍕", into: "question")
        try await alice.type("Pizza", into: "option-0")
        try await alice.type("Sushi", into: "option-1")
        try await alice.tap("Create")
        _ = try await alice.sendStaged()
        return simulator
    }

    static func bubble(of simulator: ConversationSimulator, for name: String = "Alice") async throws -> String {
        let line = try #require(try await simulator.participant(name).transcript().last)
        return "\(line.template?.caption ?? "") | \(line.template?.subcaption ?? "")"
    }

    @Test("A poll starts with no votes, in ParlorKit's own format; a vote updates the one bubble, and a person can change it")
    func voting() async throws {
        let simulator = try await Self.lunchPoll()
        #expect(try await Self.bubble(of: simulator) == "Lunch? 🍕 | Pizza 0 · Sushi 0")
        let first = try #require(await simulator.messages.last?.message)
        #expect(try Ballot(message: first).fixed == Question(text: "Lunch? 🍕", options: ["Pizza", "Sushi"]), "ParlorKit reads the port's state")
        let bob = simulator.participant("Bob")
        _ = try await bob.tapMessage(containing: "Lunch?")
        try await bob.tap("Pizza: 0")
        _ = try await bob.sendStaged()
        #expect(try await Self.bubble(of: simulator) == "Lunch? 🍕 | Pizza 1 · Sushi 0")
        #expect(await bob.view().visibleTexts.contains("✓ Pizza: 1"), "Bob sees his vote")
        try await bob.tap("Sushi: 0")
        _ = try await bob.sendStaged()
        #expect(try await Self.bubble(of: simulator) == "Lunch? 🍕 | Pizza 0 · Sushi 1", "one vote each: Bob's moved")
        #expect(try await simulator.participant("Carol").transcript().filter { $0.kind == .bubble }.count == 1, "one bubble, updated in place")
    }

    @Test("Two people vote from the same message at once: both votes count (the port's rebase re-applies the second to the new head)")
    func simultaneousVotes() async throws {
        let simulator = try await Self.lunchPoll()
        let bob = simulator.participant("Bob"), carol = simulator.participant("Carol")
        try await simulator.holdDeliveries(to: "Bob")
        try await simulator.holdDeliveries(to: "Carol")
        _ = try await bob.tapMessage(containing: "Lunch?")
        _ = try await carol.tapMessage(containing: "Lunch?")
        try await bob.tap("Pizza: 0")
        try await carol.tap("Sushi: 0")
        _ = try await bob.sendStaged()
        _ = try await carol.sendStaged()
        #expect(try await Self.bubble(of: simulator) == "Lunch? 🍕 | Pizza 1 · Sushi 1")
        #expect(await carol.staged() == nil, "Carol's vote went through; nothing waits in her compose field")
    }

    @Test("Forged messages, made with ParlorKit's SharedState, are refused by the port's validate: another person's vote changed, a vote for no option, the question changed; the sender's own vote goes through")
    func forgeries() async throws {
        let simulator = try await Self.lunchPoll()
        let bob = simulator.participant("Bob"), carol = simulator.participant("Carol")
        _ = try await carol.tapMessage(containing: "Lunch?")
        try await carol.tap("Sushi: 0")
        let head = try #require(try await carol.sendStaged())
        let ballot = try Ballot(message: head.message)
        let carolID = try await carol.participantID(in: "Poll (Wasm)"), bobID = try await bob.participantID(in: "Poll (Wasm)")
        #expect(ballot[carolID] == 1)

        func send(_ ballot: Ballot) async throws {
            let message = Message(session: head.message?.session, url: try ballot.url(base: "https://parlor.example/poll"), layout: .template(TemplateLayout(caption: "x")))
            try await bob.sendRawMessage(message, app: "Poll (Wasm)", replacing: head.id)
        }
        var changedCarol = ballot
        changedCarol[carolID] = 0
        var outOfRange = ballot
        outOfRange[bobID] = 7
        var renamed = ballot
        renamed.fixed.text = "Dinner?"
        let refusals: [(Ballot, String)] = [
            (changedCarol, "A message may change only its sender's own entry, not someone else's."),
            (outOfRange, "A poll has a question, 2 to 4 options, and votes for them."),
            (renamed, "What the first message set cannot change afterwards."),
        ]
        for (forged, reason) in refusals {
            let refused = await #expect(throws: MessagesError.self) { try await send(forged) }
            #expect(refused?.message == reason)
        }
        var honest = ballot
        honest[bobID] = 0
        try await send(honest)
        #expect(await simulator.messages.count == 3)
        #expect(try await Self.bubble(of: simulator) == "x | ", "Bob's own, valid vote went through")
    }

    @Test("A state written with a name twice is refused: a poll whose question is given twice (one shown, one swapped in after the votes), and a vote of -0, which no count would show")
    func duplicateNamesAndOddNumbers() async throws {
        let simulator = try await Self.lunchPoll()
        let bob = simulator.participant("Bob"), carol = simulator.participant("Carol")
        _ = try await carol.tapMessage(containing: "Lunch?")
        try await carol.tap("Sushi: 0")
        let head = try #require(try await carol.sendStaged())
        let carolID = try await carol.participantID(in: "Poll (Wasm)"), bobID = try await bob.participantID(in: "Poll (Wasm)")

        func message(_ json: String, session: Session? = head.message?.session) -> Message {
            let state = Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            return Message(session: session, url: URL(string: "https://parlor.example/poll?state=\(state)"), layout: .template(TemplateLayout(caption: "x")))
        }
        let votes = #""\#(carolID.compactString)":1"#
        let twice = #"{"byParticipant":{\#(votes)},"fixed":{"options":["Pizza","Sushi"],"text":"Fire Bob?","text":"Lunch? 🍕"}}"#
        let refused = await #expect(throws: MessagesError.self) { try await bob.sendRawMessage(message(twice), app: "Poll (Wasm)", replacing: head.id) }
        #expect(refused?.code == .malformedURLState)
        let started = await #expect(throws: MessagesError.self) { try await bob.sendRawMessage(message(twice, session: Session()), app: "Poll (Wasm)", replacing: nil) }
        #expect(started?.code == .malformedURLState, "nor may a new poll start with a name twice")
        // The same name written once plainly and once with an escape, either way round: the kit
        // compares names as read, not as written.
        for (first, second) in [(#""text""#, #""te\u0078t""#), (#""te\u0078t""#, #""text""#), (#""te\u0078t""#, #""\u0074ext""#)] {
            let escaped = #"{"byParticipant":{\#(votes)},"fixed":{"options":["Pizza","Sushi"],\#(first):"Fire Bob?",\#(second):"Lunch? 🍕"}}"#
            let refused = await #expect(throws: MessagesError.self, "\(first) and \(second)") {
                try await bob.sendRawMessage(message(escaped), app: "Poll (Wasm)", replacing: head.id)
            }
            #expect(refused?.code == .malformedURLState)
        }
        let minusZero = #"{"byParticipant":{\#(votes),"\#(bobID.compactString)":-0},"fixed":{"options":["Pizza","Sushi"],"text":"Lunch? 🍕"}}"#
        _ = try await bob.sendRawMessage(message(minusZero), app: "Poll (Wasm)", replacing: head.id)
        _ = try await bob.tapMessage(containing: "x")
        #expect(await bob.view().visibleTexts.contains("✓ Pizza: 1"), "a vote of -0 is a vote for the first option, counted and shown")
    }
}
