import Foundation
import Hello
import ParlorKit
import ParlorTesting

/// A simulated conversation with the test apps (Counter, Live) and Hello installed for everyone.
struct Fixture {
    let log = EventLog()
    let simulator: ConversationSimulator

    init(_ names: [String] = ["Alice", "Bob", "Carol"], stickerPacks: [StickerPack] = []) {
        simulator = ConversationSimulator(participants: names, apps: [CounterApp(log: log), LiveApp(), Hello()], stickerPacks: stickerPacks)
    }

    subscript(_ name: String) -> SimulatedParticipant { simulator.participant(name) }

    /// `participant` starts a counter session from the drawer: opens Counter, taps Add, sends.
    @discardableResult
    func startCounter(by participant: SimulatedParticipant) async throws -> PostedMessage? {
        try await participant.openApp(named: "Counter")
        try await participant.tap("Add")
        return try await participant.sendStaged()
    }

    /// `participant` taps the newest counter bubble, taps Add, and sends.
    @discardableResult
    func addToCounter(by participant: SimulatedParticipant) async throws -> PostedMessage? {
        try await participant.tapMessage(containing: "Count")
        try await participant.tap("Add")
        return try await participant.sendStaged()
    }

    /// A participant's transcript as `kind text` lines.
    func lines(of participant: SimulatedParticipant) async throws -> [String] {
        try await participant.transcript().map { ($0.kind == .bubble ? "bubble " : "summary ") + $0.text }
    }
}
