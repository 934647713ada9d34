import Foundation
import ParlorKit
import ParlorTesting
import Testing

/// A view that shows a control per person, with no copy of the participants in the app's state.
struct RollCallApp: MessagesApp {
    var manifest: AppManifest { AppManifest(id: "org.parlor.test.rollcall", name: "Roll Call", icon: .asset("rollcall.png")) }
    struct State: Codable, Sendable {}
    enum Action: Codable, Sendable { case wave(ParticipantID) }
    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            for person in environment.remoteParticipantIdentifiers {
                Button("Wave at \(person.mention)", action: Action.wave(person))
            }
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {}
}

@Suite("The conversation's people in a view")
struct ParticipantsInViewTests {
    @Test("body sees the conversation's other participants, in process and across the app protocol alike", arguments: [false, true])
    func remoteParticipantsInTheEnvironment(outside: Bool) async throws {
        let app = RollCallApp()
        let simulator = outside
            ? ConversationSimulator(participants: ["Alice", "Bob", "Carol"], hosting: [OutOfProcess.app(app)])
            : ConversationSimulator(participants: ["Alice", "Bob", "Carol"], apps: [app])
        let alice = simulator.participant("Alice")
        let view = try await alice.openApp(named: "Roll Call")
        let others = [try await simulator.participant("Bob").participantID(in: "Roll Call"), try await simulator.participant("Carol").participantID(in: "Roll Call")]
        #expect(Set(view.visibleTexts) == Set(others.map { "Wave at \($0.mention)" }), "\(view.visibleTexts)")
        #expect(!view.visibleTexts.contains("Wave at \(try await alice.participantID(in: "Roll Call").mention)"), "not oneself")
    }

    @Test("They come in the order of their names, case and accents aside, as a host gives them")
    func inTheOrderOfTheirNames() async throws {
        let simulator = ConversationSimulator(participants: ["Zoe", "émile", "Bob", "alice"], apps: [RollCallApp()])
        let view = try await simulator.participant("Zoe").openApp(named: "Roll Call")
        var expected: [String] = []
        for name in ["alice", "Bob", "émile"] {
            expected.append("Wave at \(try await simulator.participant(name).participantID(in: "Roll Call").mention)")
        }
        #expect(view.visibleTexts == expected)
    }
}
