import Hello
import ParlorKit
import ParlorTesting
import Testing

@Suite("Hello, the example app")
struct HelloTests {
    @Test("A greeting staged by Alice reaches Bob and Carol, who see it and its sender when they tap it")
    func greetingRoundTrip() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], apps: [Hello()])
        let alice = simulator.participant("Alice")
        try await alice.openApp(named: "Hello")
        #expect(await alice.presentationStyle() == .compact)
        try await alice.tap("Party time 🎉")
        let staged = try #require(await alice.staged()?.message)
        #expect(staged.template?.caption == "Party time 🎉")
        try await alice.sendStaged()

        let aliceID = try await alice.participantID(in: "Hello")
        for name in ["Bob", "Carol"] {
            let viewer = simulator.participant(name)
            let view = try await viewer.tapMessage(containing: "Party time")
            #expect(await viewer.presentationStyle() == .expanded)
            #expect(view.visibleTexts.contains("Party time 🎉"))
            #expect(view.visibleTexts.contains("from \(aliceID.mention)"))
        }
    }
}
