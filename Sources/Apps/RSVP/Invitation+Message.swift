import ParlorKit

extension Invitation {
    /// The party image in the app's Assets folder, drawn by tools/generate_rsvp_image.py.
    public static let imageName = "partyballoons.png"

    /// The seed's bubble: the party image, the title as caption, "Yes Count: n" and "No Count: n".
    public var layout: TemplateLayout {
        TemplateLayout(
            image: .asset(Self.imageName), caption: title,
            subcaption: "Yes Count: \(yesCount)", trailingSubcaption: "No Count: \(noCount)")
    }

    /// What a screen reader says for the bubble; also the plain-text fallback.
    public var accessibilityLabel: String {
        "RSVP: \(title). \(yesCount) yes, \(noCount) no."
    }

    /// The line the session's first message leaves once answered: "$organizer asked: <title>".
    public var creationSummary: String { "\(organizer.mention) asked: \(title)" }

    /// The line an answer leaves once a later one replaces it: "$ann answered Yes", or
    /// "$ann changed to No" when it moved an earlier answer.
    public static func answerSummary(by participant: ParticipantID, answer: Answer, previous: Answer?) -> String {
        previous == nil
            ? "\(participant.mention) answered \(answer.displayName)"
            : "\(participant.mention) changed to \(answer.displayName)"
    }

    /// The message showing this RSVP in `session`, leaving `summary` behind once replaced.
    /// - Throws: `.urlExceedsMaxSize` when the RSVP has no room for more answers.
    public func message(session: Session, summary: String) throws(MessagesError) -> Message {
        Message(
            session: session, url: try url(), layout: .template(layout),
            summaryText: summary, accessibilityLabel: accessibilityLabel)
    }
}
