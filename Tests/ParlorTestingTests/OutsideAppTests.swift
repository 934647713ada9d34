import Foundation
import ParlorHost
import ParlorKit
import ParlorTesting
import Testing

/// An app in another language, tested headlessly: the Python example (examples/dice) started as
/// a process that speaks the app connection protocol on its standard input and output, hosted by
/// the simulator as a server hosts it.
@Suite("An app outside the process, in the simulator")
struct OutsideAppTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func dice() throws -> ProcessAppLink {
        let manifest = try JSONDecoder().decode(
            AppManifest.self, from: Data(contentsOf: root.appendingPathComponent("examples/dice/manifest.json")))
        return try OutOfProcess.process(manifest: manifest, command: ["python3", root.appendingPathComponent("examples/dice/dice.py").path])
    }

    @Test("Dice, in Python: three people roll in one session; the bubble keeps everyone's score; a forged score is refused by the app")
    func threePeopleRoll() async throws {
        let dice = try Self.dice()
        defer { dice.terminate() }
        let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], hosting: [dice.app])
        let alice = simulator.participant("Alice")
        let bob = simulator.participant("Bob")
        let carol = simulator.participant("Carol")

        let opened = try await alice.openApp(named: "Dice")
        #expect(opened.visibleTexts.contains("Dice"), "\(opened.visibleTexts)")
        try await alice.tap("Roll a die")
        #expect(await alice.appError() == nil)
        let first = try #require(try await bob.transcript().last)
        #expect(first.text.contains("rolled"), "\(first.text)")

        for person in [bob, carol] {
            _ = try await person.tapLatestMessage()
            try await person.tap("Roll a die")
            let error = await person.appError()
            #expect(error == nil, "\(person.name): \(String(describing: error))")
        }
        let bubbles = try await alice.transcript().filter { $0.kind == .bubble && $0.appName == "Dice" }
        #expect(bubbles.count == 1, "one session, one bubble")
        let latest = try #require(bubbles.last?.posted.message)
        let scores = try #require(latest.template?.subcaption)
        #expect(scores.components(separatedBy: " · ").count == 3, "everyone's score: \(scores)")

        // Bob claims 100 points: the app's validate refuses it, and nothing is posted.
        var forged = latest
        forged.id = MessageID()
        let bobID = try await bob.participantID(in: "Dice")
        forged.url = URL(string: "https://parlor.example/dice?\(bobID)=100&last=\(bobID)&roll=6")
        do {
            _ = try await bob.sendRawMessage(forged, replacing: latest.id)
            Issue.record("a forged score was posted")
        } catch let error as MessagesError {
            #expect(error.code == .actionRefused && error.message == "That roll does not add up.", "\(error)")
        }
        #expect(try await alice.transcript().filter { $0.kind == .bubble && $0.appName == "Dice" }.last?.posted.id == latest.id)
    }

    @Test("A process that stops costs a sentence, not the conversation")
    func stoppedProcess() async throws {
        let dice = try Self.dice()
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], hosting: [dice.app])
        let alice = simulator.participant("Alice")
        _ = try await alice.openApp(named: "Dice")
        dice.terminate()
        try await alice.tap("Roll a die")
        #expect(await alice.appError()?.code == .appUnavailable)
        let sent = try await alice.send(text: "still talking")
        #expect(try await simulator.participant("Bob").transcript().last?.posted.id == sent.id, "the conversation goes on")
    }
}
