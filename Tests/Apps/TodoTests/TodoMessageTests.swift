import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Testing
import Todo

@Suite("Todo: to-do messages are checked when sent and read leniently when tapped")
struct TodoMessageTests {
    private func message(_ query: String, caption: String? = "Buy milk", subcaption: String? = "Nov 21, 2026", image: ImageSource? = .asset("priority-high.png")) throws -> Message {
        let url = try #require(URL(string: "https://parlor.example/todo?\(query)"))
        return Message(url: url, layout: .template(TemplateLayout(image: image, caption: caption, subcaption: subcaption)))
    }

    /// Opens Todo in a conversation by tapping `message`, and returns what the user sees.
    private func tap(_ messages: Message...) async -> InstanceUpdate {
        let instance = AppInstance(app: Todo(), configuration: InstanceConfiguration(
            localParticipant: ParticipantID(), remoteParticipants: [ParticipantID()],
            conversationHost: NoConversationHost(), container: InMemoryContainer()))
        var update = await instance.current()
        for message in messages { update = await instance.tap(message) }
        return update
    }

    @Test("The host accepts a well-formed to-do message")
    func acceptsValidMessage() throws {
        try Todo().validate(message("title=Buy%20milk&priority=high&date=2026-11-21"), replacing: nil)
    }

    @Test(
        "The host refuses a forged to-do message",
        arguments: [
            ("priority=high&date=2026-11-21", "Buy milk"),
            ("title=Buy%20milk&priority=urgent&date=2026-11-21", "Buy milk"),
            ("title=Buy%20milk&priority=high&date=tomorrow", "Buy milk"),
            ("title=Buy%20milk&priority=high", "Buy milk"),
            ("title=Buy%20milk&priority=high&date=2026-11-21", "Free money"),
        ])
    func refusesForgedMessage(query: String, caption: String) throws {
        let forged = try message(query, caption: caption)
        #expect { try Todo().validate(forged, replacing: nil) } throws: { error in
            (error as? MessagesError)?.code == .actionRefused
        }
    }

    @Test("The host refuses a bubble whose image is not the note's priority")
    func refusesWrongImage() throws {
        let forged = try message("title=Buy%20milk&priority=low&date=2026-11-21")
        #expect(throws: MessagesError.self) { try Todo().validate(forged, replacing: nil) }
    }

    @Test("Tapping a message with an odd priority and a bad date still shows its title, and says what could not be read")
    func readsLeniently() async throws {
        let update = await tap(try message("title=%20Buy%20milk%20&priority=%20HIGH&date=21.11.2026&extra=1"))
        #expect(update.error == nil)
        #expect(update.presentationStyle == .expanded)
        let texts = update.view.visibleTexts
        for text in ["Buy milk", "High priority", "Due date unknown", "'21.11.2026' is not a whole date: pick its day, month and year in the date field (an app sends it as 2026-11-21)."] {
            #expect(texts.contains(text))
        }
        #expect(update.view.rowLabels.isEmpty)
    }

    @Test(
        "Tapping a to-do message with no note shows why, without failing",
        arguments: [
            ("priority=high&date=2026-11-21", "This to-do message has no title, so there is nothing to show."),
            ("title=%20%20&priority=low&date=2026-11-21", "This to-do message has no title, so there is nothing to show."),
            (nil, "This to-do message carries no note."),
        ])
    func showsUnreadableMessage(query: String?, reason: String) async throws {
        var tapped = try message(query ?? "")
        if query == nil { tapped.url = nil }
        let update = await tap(tapped)
        #expect(update.error == nil)
        #expect(update.view.visibleTexts.contains("This to-do could not be read"))
        #expect(update.view.visibleTexts.contains(reason))
    }

    @Test("Tapping another to-do message while one is open shows the new one")
    func selectingAnotherMessageShowsIt() async throws {
        let update = await tap(
            try message("title=Buy%20milk&priority=high&date=2026-11-21"),
            try message("title=Call%20mum&priority=low&date=2026-11-25", caption: "Call mum", subcaption: "Nov 25, 2026", image: .asset("priority-low.png")))
        #expect(update.view.visibleTexts.contains("Call mum"))
        #expect(update.view.visibleTexts.contains("Due Nov 25, 2026"))
        #expect(!update.view.visibleTexts.contains("Buy milk"))
    }
}
