import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Testing
import Todo

@Suite("Todo: the shared container")
struct TodoContainerTests {
    @Test("An unreadable stored list is reported on the home surface, and adding a note starts a new list")
    func unreadableListIsReportedAndReplaced() async throws {
        let container = InMemoryContainer()
        try await container.setData(Data("not a list".utf8), forKey: "notes")
        let home = AppInstance(app: Todo(), configuration: InstanceConfiguration(
            localParticipant: ParticipantID(), remoteParticipants: [], surface: .home,
            conversationHost: NoConversationHost(), container: container))
        let opened = await home.openHome()
        #expect(opened.error == nil)
        #expect(opened.view.visibleTexts.contains(
            "Your to-do list could not be read, so it is shown empty; adding a note starts a new list."))

        for (label, value) in [("Title", "Buy milk"), ("Date", "2026-11-21")] {
            let field = try #require(opened.view.allNodes.compactMap { node -> TextFieldNode? in
                if case .textField(let field) = node, field.label == label { return field }
                return nil
            }.first)
            _ = await home.perform(.action(try #require(field.onChange), value: value))
        }
        let added = await home.perform(.action(ActionPayload(Todo.Action.add)))
        #expect(added.error == nil)
        #expect(added.view.rowLabels == ["Complete Buy milk"])
        let stored = try #require(try await container.value([TodoNote].self, forKey: "notes"))
        #expect(stored.map(\.title) == ["Buy milk"])
    }
}
