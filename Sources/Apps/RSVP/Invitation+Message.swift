import ParlorKit

extension Invitation {
    /// The party image in the app's Assets folder, drawn by tools/generate_rsvp_image.py.
    public static let imageName = "partyballoons.png"

    /// The bubble: the party image with when and where over it, the title as caption, and the
    /// counts as invitations say them ("2 going · 1 maybe · 1 can't go"; the seed wrote
    /// "Yes Count: 2" and "No Count: 1", which reads as a form).
    public var layout: TemplateLayout {
        TemplateLayout(
            image: .asset(Self.imageName), imageTitle: when, imageSubtitle: place, caption: title,
            subcaption: countsText)
    }

    /// "2 going · 1 can't go", with "1 maybe" between them when someone answered Maybe.
    public var countsText: String { ([goingText] + (maybeCount > 0 ? [maybeText] : []) + [notGoingText]).joined(separator: " · ") }
    /// "2 going".
    public var goingText: String { "\(yesCount) going" }
    /// "1 maybe".
    public var maybeText: String { "\(maybeCount) maybe" }
    /// "1 can't go".
    public var notGoingText: String { "\(noCount) can't go" }
    /// "Friday at 8 PM · Ann's place", or nil when neither is said.
    public var detailsText: String? {
        let details = [when, place].compactMap { $0 }
        return details.isEmpty ? nil : details.joined(separator: " · ")
    }

    /// What a screen reader says for the bubble; also the plain-text fallback.
    public var accessibilityLabel: String {
        "RSVP: \(title). " + (detailsText.map { "\($0). " } ?? "") + countsText.replacingOccurrences(of: " · ", with: ", ") + "."
    }

    /// The line the session's first message leaves once answered: "$organizer asked: <title>".
    public var creationSummary: String { "\(organizer.mention) asked: \(title)" }

    /// The line an answer leaves once a later one replaces it: "$ann is going", or
    /// "$ann changed to Can't go" when it moved an earlier answer.
    public static func answerSummary(by participant: ParticipantID, answer: Answer, previous: Answer?) -> String {
        previous == nil
            ? "\(participant.mention) \(answer.statement)"
            : "\(participant.mention) changed to \(answer.choiceTitle)"
    }

    /// The message showing this RSVP in `session`, leaving `summary` behind once replaced. Once
    /// someone has answered, it answers the session: the RSVP stays in its organizer's name.
    /// - Throws: `.urlExceedsMaxSize` when the RSVP has no room for more answers.
    public func message(session: Session, summary: String) throws(MessagesError) -> Message {
        Message(
            session: session, url: try url(), layout: .template(layout),
            summaryText: summary, accessibilityLabel: accessibilityLabel, answersSession: !participants.isEmpty)
    }
}
