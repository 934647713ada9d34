import Foundation
import ParlorKit
import ParlorTesting
import Testing
import Todo

@Suite("Todo: one list on the home surface and in conversations")
struct TodoFlowTests {
    @Test("Alice adds notes at home, sends one from the extension, and Bob sees its caption, date and priority image")
    func seedFlowSendsANoteToBob() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [Todo()])
        let alice = simulator.participant("Alice")
        try await alice.openHome(named: "Todo")
        try await addNote(alice, title: "Call mum", priority: "Low", date: "2026-11-25")
        try await addNote(alice, title: "Buy milk", priority: "High", date: "2026-11-21")
        #expect(await alice.homeError() == nil)
        #expect(await alice.homeView().rowLabels == ["Complete Buy milk", "Complete Call mum"])

        let extensionView = try await alice.openApp(named: "Todo")
        #expect(extensionView.rowLabels == ["Send Buy milk", "Send Call mum"])
        #expect(extensionView.visibleTexts.contains("Nov 21, 2026"))
        try await alice.tap("Send Buy milk")
        let staged = try #require(await alice.staged()?.message)
        #expect(staged.template?.caption == "Buy milk")
        #expect(staged.template?.subcaption == "Nov 21, 2026")
        #expect(staged.template?.image == .asset("priority-high.png"))
        #expect(staged.summaryText == "To-do: Buy milk")
        #expect(staged.accessibilityLabel == "To-do: Buy milk. High priority, due Nov 21, 2026.")
        try await alice.sendStaged()

        let bob = simulator.participant("Bob")
        let line = try #require(try await bob.transcript().last)
        #expect(line.appName == "Todo")
        #expect(line.template?.caption == "Buy milk")
        #expect(line.template?.subcaption == "Nov 21, 2026")
        #expect(line.template?.image == .asset("priority-high.png"))
        let imageFile = try #require(Todo().assetsDirectory?.appendingPathComponent("priority-high.png"))
        #expect(FileManager.default.fileExists(atPath: imageFile.path))

        let detail = try await bob.tapMessage(containing: "Buy milk")
        let aliceID = try await alice.participantID(in: "Todo")
        for text in ["Buy milk", "High priority", "Due Nov 21, 2026", "Shared by \(aliceID.mention)"] {
            #expect(detail.visibleTexts.contains(text))
        }
        #expect(detail.rowLabels.isEmpty, "the detail is read-only")
        #expect(await bob.appError() == nil)
    }

    @Test("Each priority has its own image in the app's assets")
    func everyPriorityHasAnImage() throws {
        let assets = try #require(Todo().assetsDirectory)
        var seen = Set<Data>()
        for priority in Priority.allCases {
            guard case .asset(let name) = priority.image else {
                Issue.record("\(priority) is not drawn from the app's assets")
                continue
            }
            let data = try Data(contentsOf: assets.appendingPathComponent(name))
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is a PNG")
            seen.insert(data)
        }
        #expect(seen.count == Priority.allCases.count)
    }

    @Test("A completed note leaves the home list and, once reopened, the extension's list")
    func completingRemovesFromBothSurfaces() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [Todo()])
        let alice = simulator.participant("Alice")
        try await alice.openHome(named: "Todo")
        try await addNote(alice, title: "Buy milk", priority: "High", date: "2026-11-21")
        try await addNote(alice, title: "Call mum", priority: "Low", date: "2026-11-25")
        #expect(try await alice.openApp(named: "Todo").rowLabels == ["Send Buy milk", "Send Call mum"])
        try await alice.dismissApp()

        try await alice.tapHome("Complete Buy milk", in: "Todo")
        let home = await alice.homeView()
        #expect(home.rowLabels == ["Complete Call mum"])
        #expect(home.visibleTexts.contains("Completed “Buy milk”."))
        #expect(!home.visibleTexts.contains("Buy milk"))

        #expect(try await alice.openApp(named: "Todo").rowLabels == ["Send Call mum"])
    }

    @Test("A note completed at home while the extension is open is not sent; the extension's list catches up")
    func completedNoteIsNotSentFromAStaleList() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [Todo()])
        let alice = simulator.participant("Alice")
        try await alice.openHome(named: "Todo")
        try await addNote(alice, title: "Buy milk", date: "2026-11-21")
        try await addNote(alice, title: "Call mum", date: "2026-11-25")
        try await alice.openApp(named: "Todo")
        try await alice.tapHome("Complete Buy milk", in: "Todo")

        try await alice.tap("Send Buy milk")
        #expect(await alice.staged() == nil)
        let view = await alice.view()
        #expect(view.visibleTexts.contains("That note was completed in the meantime; it is no longer on your list."))
        #expect(view.rowLabels == ["Send Call mum"])
    }

    @Test("The container is per user: Bob's list is his own, on both of his surfaces")
    func containerIsPerUser() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [Todo()])
        let alice = simulator.participant("Alice")
        let bob = simulator.participant("Bob")
        try await alice.openHome(named: "Todo")
        try await addNote(alice, title: "Buy milk", date: "2026-11-21")

        let bobHome = try await bob.openHome(named: "Todo")
        #expect(bobHome.rowLabels.isEmpty)
        #expect(bobHome.visibleTexts.contains("Nothing to do. Add a note below."))
        let bobExtension = try await bob.openApp(named: "Todo")
        #expect(bobExtension.rowLabels.isEmpty)
        #expect(bobExtension.visibleTexts.contains("No to-dos yet. Add some in the Todo app."))

        try await addNote(bob, title: "Fix bike", date: "2026-12-01")
        try await bob.dismissApp()
        #expect(try await bob.openApp(named: "Todo").rowLabels == ["Send Fix bike"])
        #expect(try await alice.openApp(named: "Todo").rowLabels == ["Send Buy milk"])
    }

    @Test("The extension shows the list without the add form, and refuses an add sent anyway")
    func addControlHiddenInExtension() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [Todo()])
        let alice = simulator.participant("Alice")
        let home = try await alice.openHome(named: "Todo")
        for control in ["Title", "Priority", "Date", "Add"] {
            #expect(home.hasControl(control), "home has \(control)")
        }
        try await addNote(alice, title: "Buy milk", date: "2026-11-21")

        let extensionView = try await alice.openApp(named: "Todo")
        #expect(extensionView.rowLabels == ["Send Buy milk"])
        for control in ["Title", "Priority", "Date", "Add"] {
            #expect(!extensionView.hasControl(control), "the extension hides \(control)")
        }
        try await alice.sendRawEvent(.action(ActionPayload(Todo.Action.add)))
        #expect(await alice.appError()?.code == .actionRefused)
        try await alice.dismissApp()
        #expect(try await alice.openApp(named: "Todo").rowLabels == ["Send Buy milk"])
    }
}
