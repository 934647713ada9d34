import Foundation
import ParlorKit
import ParlorTesting
import Testing

@Suite("What each participant sees")
struct ConversationStateTests {
    @Test("An expiring message vanishes for its reader 120 s after reading, unless kept, and never for the sender")
    func expiry() async throws {
        let fixture = Fixture(["Alice", "Bob", "Carol", "Dave"])
        let alice = fixture["Alice"], bob = fixture["Bob"], carol = fixture["Carol"], dave = fixture["Dave"]
        try await alice.openApp(named: "Counter")
        try await alice.tap("Expiring")
        try await alice.sendStaged()

        #expect(try await bob.transcript().count == 1)
        let daveLine = try #require(try await dave.transcript().first)
        await dave.keep(daveLine)
        await fixture.simulator.advanceClock(by: .seconds(119))
        #expect(try await bob.transcript().count == 1, "still there just before 120 s")
        #expect(try await carol.transcript().count == 1, "Carol reads it only now")

        await fixture.simulator.advanceClock(by: .seconds(2))
        #expect(try await bob.transcript().isEmpty)
        #expect(try await carol.transcript().count == 1, "Carol read it 2 s ago")
        #expect(try await dave.transcript().count == 1)

        await fixture.simulator.advanceClock(by: .seconds(600))
        #expect(try await carol.transcript().isEmpty)
        #expect(try await dave.transcript().count == 1)
        #expect(try await alice.transcript().count == 1)
        #expect(await fixture.simulator.messages.count == 1, "expiry hides it from readers; the conversation keeps it")
    }

    @Test("A viewer without the app is offered it and cannot open the message until installing")
    func offersInstall() async throws {
        let fixture = Fixture()
        let bob = fixture["Bob"]
        try await bob.uninstall("Counter")
        try await fixture.startCounter(by: fixture["Alice"])

        let line = try #require(try await bob.transcript().first)
        #expect(line.offersInstall)
        #expect(line.appName == "Counter")
        #expect(line.text == "Count 1")
        await #expect(throws: SimulatorError.self) { try await bob.tapMessage(line) }
        await #expect(throws: SimulatorError.self) { try await bob.openApp(named: "Counter") }
        #expect(try await fixture["Carol"].transcript().first?.offersInstall == false)

        try await bob.install("Counter")
        #expect(try await bob.transcript().first?.offersInstall == false)
        let view = try await bob.tapMessage(containing: "Count 1")
        #expect(view.visibleTexts.contains("count 1"))
    }

    @Test("A live bubble is drawn by the app for viewers who have it; others see the alternate layout")
    func liveLayout() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"], bob = fixture["Bob"], carol = fixture["Carol"]
        try await bob.uninstall("Live")
        try await alice.openApp(named: "Live")
        try await alice.tap("Post")
        let posted = try #require(try await alice.sendStaged())
        let version = try #require(posted.message?.url.flatMap { try? QueryItems(url: $0)["v"] }?.prefix(8))

        for viewer in [alice, carol] {
            let line = try #require(try await viewer.transcript().first)
            let live = try #require(line.liveView, "\(viewer.name) has the app")
            #expect(live.visibleTexts.first == "live \(version) in transcript")
            #expect(!line.offersInstall)
        }
        let bobLine = try #require(try await bob.transcript().first)
        #expect(bobLine.liveView == nil)
        #expect(bobLine.offersInstall)
        #expect(bobLine.template?.caption == "Live update")
        #expect(bobLine.text == "Live update")

        try await carol.tapMessage(containing: "Live update")
        try await carol.tap("Post")
        try await carol.sendStaged()
        let lines = try await alice.transcript()
        #expect(lines.map(\.kind) == [.summary, .bubble])
        #expect(lines.first?.liveView == nil, "a summary line is not drawn live")
        #expect(lines.last?.liveView != nil)
    }

    @Test("tap flips a toggle and picks a picker option by its title")
    func tapToggleAndPicker() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"]
        try await alice.openApp(named: "Counter")
        try await alice.tap("Loud")
        #expect(await alice.view().visibleTexts.contains("loud true, size S"))
        try await alice.tap("loud")
        #expect(await alice.view().visibleTexts.contains("loud false, size S"))
        try await alice.tap("Large")
        #expect(await alice.view().visibleTexts.contains("loud false, size L"))
        try await alice.setToggle("Loud", to: true)
        try await alice.choose("Small", in: "Size")
        #expect(await alice.view().visibleTexts.contains("loud true, size S"))
        await #expect(throws: SimulatorError.self) { try await alice.tap("Medium") }
    }

    @Test("Opening a second app dismisses the first")
    func secondAppDismissesFirst() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"]
        try await alice.openApp(named: "Counter")
        try await alice.openApp(named: "Hello")
        let aliceID = try await alice.participantID(in: "Counter")
        #expect(fixture.log.hooks(of: aliceID) == ["willBecomeActive", "didBecomeActive", "willResignActive", "didResignActive"])
        #expect(await alice.openAppID() == "org.parlor.hello")
        #expect(await alice.view().visibleTexts.contains("Hi!"))
    }

    @Test("A removed participant can no longer act and no longer counts as a remote participant")
    func removedParticipant() async throws {
        let fixture = Fixture()
        let alice = fixture["Alice"], bob = fixture["Bob"]
        try await fixture.startCounter(by: alice)
        try await bob.tapMessage(containing: "Count 1")
        try await bob.tap("Add")
        let bobID = try await bob.participantID(in: "Counter")

        try await fixture.simulator.removeParticipant("Bob")
        #expect(fixture.log.hooks(of: bobID).suffix(2) == ["willResignActive", "didResignActive"])
        #expect(await bob.view() == .empty)
        #expect(await bob.openAppID() == nil)
        #expect(await bob.staged() == nil)
        await #expect(throws: (any Error).self) { try await bob.tap("Add") }
        await #expect(throws: (any Error).self) { try await bob.sendStaged() }
        await #expect(throws: (any Error).self) { try await bob.send(text: "still here?") }
        await #expect(throws: (any Error).self) { try await bob.openApp(named: "Counter") }
        await #expect(throws: (any Error).self) { try await bob.transcript() }
        #expect(await fixture.simulator.messages.count == 1)

        fixture.log.clear()
        try await alice.tapMessage(containing: "Count 1")
        let remotes = try #require(fixture.log.all.first?.remotes)
        #expect(!remotes.contains(bobID))
        #expect(remotes.count == 1)
    }
}
