import Foundation
import ParlorKit
import RSVP
import Testing

/// Ways a dishonest client could try to change an RSVP, each made from the real session head.
enum Forgery: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The sender answers Yes but claims five Yes answers.
    case inflatedCount
    /// The sender moves someone else's Yes to No.
    case changesSomeoneElsesAnswer
    /// The sender answers, and answers for a participant who did not.
    case answersForSomeoneElse
    /// The sender answers and renames the party.
    case changesTitle
    /// An answer that also moves the party elsewhere.
    case changesPlace
    /// The URL is honest but the bubble shows 99 Yes answers.
    case captionDisagrees
    /// The sender's answer leaves a summary line naming someone else.
    case summaryImpersonates
    /// An honest answer with an extra item smuggled into the URL.
    case strayURLItem
    /// The head sent again, answering nothing.
    case changesNothing
    /// A new session that already counts an answer (its organizer's own: SessionState refuses anyone else's).
    case newRSVPWithAnswers
    /// A new session naming someone else as its organizer.
    case newRSVPForSomeoneElse

    var description: String { rawValue }

    /// The reason the app gives for refusing it.
    var reason: String {
        switch self {
        case .inflatedCount: "The RSVP's counts do not match the answers it lists."
        case .changesSomeoneElsesAnswer, .answersForSomeoneElse: "A message may change only its sender's own entry, not someone else's."
        case .changesTitle, .changesPlace: "What the first message set cannot change afterwards."
        case .captionDisagrees, .summaryImpersonates: "The message does not show what its RSVP says."
        case .strayURLItem: "The RSVP's URL carries something besides the RSVP."
        case .changesNothing: "This message does not answer the RSVP."
        case .newRSVPWithAnswers: "A new RSVP starts with no answers."
        case .newRSVPForSomeoneElse: "Only its sender can be the organizer of a new RSVP."
        }
    }

    /// Whether the forgery starts a session rather than replying to a head.
    var startsSession: Bool { self == .newRSVPWithAnswers || self == .newRSVPForSomeoneElse }

    /// The forged message `sender` sends on `head` (nil for a new session).
    func message(head: Message?, sender: ParticipantID) throws -> Message {
        let stranger = ParticipantID()
        guard let head else {
            let invitation = try Invitation(title: "Free pizza", organizer: self == .newRSVPForSomeoneElse ? stranger : sender)
            let forged = self == .newRSVPWithAnswers ? invitation.answering(.yes, for: sender) : invitation
            return try forged.message(session: Session(), summary: forged.creationSummary)
        }
        let session = try #require(head.session)
        let current = try Invitation(url: head.url)
        let honest = current.answering(.yes, for: sender)
        let honestSummary = Invitation.answerSummary(by: sender, answer: .yes, previous: current[sender])
        var message = try honest.message(session: session, summary: honestSummary)
        switch self {
        case .inflatedCount:
            message.url = try tampered(honest) { $0["yesCount"] = "5" }
        case .changesSomeoneElsesAnswer:
            let victim = try #require(current.yes.first)
            let forged = current.answering(.no, for: victim)
            message = try forged.message(session: session, summary: Invitation.answerSummary(by: sender, answer: .no, previous: nil))
        case .answersForSomeoneElse:
            message = try honest.answering(.yes, for: stranger).message(session: session, summary: honestSummary)
        case .changesTitle:
            let renamed = try tampered(honest) { $0["title"] = "Free pizza" }
            message = try Invitation(url: renamed).message(session: session, summary: honestSummary)
        case .changesPlace:
            let moved = try tampered(honest) { $0["place"] = "The forger's house" }
            message = try Invitation(url: moved).message(session: session, summary: honestSummary)
        case .captionDisagrees:
            message.layout = .template(TemplateLayout(image: .asset(Invitation.imageName), caption: current.title, subcaption: "Yes Count: 99"))
        case .summaryImpersonates:
            message.summaryText = "\(try #require(current.yes.first).mention) is going"
        case .strayURLItem:
            message.url = try tampered(honest) { $0.append("note", "hello") }
        case .changesNothing:
            message = try current.message(session: session, summary: honestSummary)
        case .newRSVPWithAnswers, .newRSVPForSomeoneElse:
            break
        }
        return message
    }

    private func tampered(_ invitation: Invitation, _ change: (inout QueryItems) -> Void) throws -> URL {
        var items = try QueryItems(url: invitation.url())
        change(&items)
        return try items.url(base: "https://parlor.example/rsvp")
    }
}
