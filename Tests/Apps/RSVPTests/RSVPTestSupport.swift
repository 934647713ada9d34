import Foundation
import ParlorKit
import ParlorTesting
import RSVP
import Testing

/// The RSVP app's id, as its messages carry it.
let rsvpAppID: AppID = "org.parlor.rsvp"

extension SimulatedParticipant {
    /// Creates an RSVP through the app, as the seed does: Create RSVP, type the title, Create, send.
    func createRSVP(titled title: String) async throws {
        try await openApp(named: "RSVP")
        try await tap("Create RSVP")
        try await type(title, into: "Title")
        try await tap("Create")
        try await sendStaged()
    }

    /// Taps the newest bubble of the RSVP titled `title` and chooses `choice` ("Going", "Maybe" or "Can't go").
    func answerRSVP(_ title: String, _ choice: String) async throws {
        try await tapMessage(containing: title)
        try await answer(choice)
    }

    /// Chooses `choice` ("Going", "Maybe" or "Can't go") in the open RSVP's answer control.
    func answer(_ choice: String) async throws {
        try await choose(choice, in: "answer")
    }

    /// This participant's id inside RSVP.
    func rsvpID() async throws -> ParticipantID { try await participantID(in: "RSVP") }
}

extension ConversationSimulator {
    /// The RSVP messages committed so far, oldest first.
    func rsvpMessages() -> [Message] { messages.compactMap(\.message).filter { $0.appID == rsvpAppID } }

    /// The newest RSVP message and the RSVP its URL carries.
    func latestRSVP() throws -> (invitation: Invitation, message: Message) {
        let message = try #require(rsvpMessages().last)
        return (try Invitation(url: message.url), message)
    }
}

extension ViewNode {
    /// The people in the "Who answered" line of `answer` ("yes", "maybe", "no"): their mention
    /// tokens, [] for "nobody yet", nil when the view has no such line.
    func answered(_ answer: String) -> [String]? {
        guard let line = text(withID: "\(answer)-names"), let colon = line.range(of: ": ") else { return nil }
        let names = line[colon.upperBound...]
        return names == "nobody yet" ? [] : names.components(separatedBy: RSVP.nameSeparator)
    }

    /// The option shown selected in the answer control ("Going"…); "" when none is, nil when
    /// there is no answer control.
    var selectedAnswer: String? {
        for case .picker(let picker) in allNodes where picker.id == "answer" {
            return picker.options.first(where: \.selected)?.title ?? ""
        }
        return nil
    }

    /// Whether the button labelled `label` is shown disabled; nil when there is no such button.
    func isButtonDisabled(_ label: String) -> Bool? {
        for case .button(let button) in allNodes where button.label == label { return button.disabled }
        return nil
    }

    /// The text of the element whose id is `id`.
    func text(withID id: String) -> String? {
        for case .text(let text) in allNodes where text.id == id { return text.text }
        return nil
    }
}
