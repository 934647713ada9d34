import Foundation
import ParlorKit
import ParlorTesting
import Testing

/// Answers to a session (`Message.answersSession`) in the simulator, held to the server's rules:
/// only an app whose manifest asks may send one, and the bubble stays in the name of whoever sent
/// the session's first message, even once that message expired for the reader.
@Suite("Answers to a session in the simulator")
struct SessionAnswerTests {
    /// Cheers: a session of cheers, each an answer to the first; checks nothing itself.
    struct Cheers: MessagesApp {
        let answers: Bool
        var manifest: AppManifest {
            AppManifest(id: "org.parlor.test.cheers", name: "Cheers", icon: .asset("cheers.png"), sendsExpiringMessages: true, answersSessions: answers)
        }
        struct State: Codable, Sendable {}
        var initialState: State { State() }
        func body(state: State, environment: ViewEnvironment) -> ViewNode { Text("Cheers") }
        func handle(_ action: String, state: inout State, context: AppContext) async throws {}
    }

    static func cheer(_ count: Int, in session: Session, answers: Bool, expiring: Bool = false) -> Message {
        Message(
            session: session, url: URL(string: "https://parlor.example/cheers?n=\(count)"),
            layout: .template(TemplateLayout(caption: "\(count) cheers")), shouldExpire: expiring, answersSession: answers)
    }

    @Test("An answer keeps the bubble in the name of whoever sent the session's first message, even once that message expired for the reader")
    func starterAfterExpiry() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], apps: [Cheers(answers: true)])
        let alice = simulator.participant("Alice"), bob = simulator.participant("Bob"), carol = simulator.participant("Carol")
        let session = Session()
        let first = try await alice.sendRawMessage(Self.cheer(0, in: session, answers: false, expiring: true), app: "Cheers", replacing: nil)
        #expect(try await carol.transcript().count == 1, "Carol reads Alice's message: its countdown starts")
        await simulator.advanceClock(by: .seconds(121))
        #expect(try await carol.transcript().isEmpty, "expired for Carol")

        _ = try await bob.sendRawMessage(Self.cheer(1, in: session, answers: true), app: "Cheers", replacing: first.id)
        let lines = try await carol.transcript()
        #expect(lines.map(\.kind) == [.summary, .bubble], "Bob's line, then the session's bubble")
        #expect(lines.last?.sender == "Alice" && lines.last?.posted.sender == "Bob", "in Alice's name, as the server names her")
    }

    @Test("An app whose manifest does not ask to answer sessions is refused an answer, saying why; its turns go through")
    func answerNeedsThePermission() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [Cheers(answers: false)])
        let alice = simulator.participant("Alice"), bob = simulator.participant("Bob")
        let session = Session()
        let first = try await alice.sendRawMessage(Self.cheer(0, in: session, answers: false), app: "Cheers", replacing: nil)
        let refused = await #expect(throws: MessagesError.self) {
            try await bob.sendRawMessage(Self.cheer(1, in: session, answers: true), app: "Cheers", replacing: first.id)
        }
        #expect(refused?.code == .actionRefused && refused?.message.contains("(answersSessions)") == true, "\(String(describing: refused))")
        _ = try await bob.sendRawMessage(Self.cheer(1, in: session, answers: false), app: "Cheers", replacing: first.id)
        #expect(try await alice.transcript().last?.sender == "Bob", "a turn is its sender's")
    }
}
