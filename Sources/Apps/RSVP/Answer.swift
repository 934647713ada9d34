/// A participant's answer to an RSVP.
public enum Answer: String, Sendable, Hashable, Codable, CaseIterable {
    case yes, maybe, no

    /// "Yes", "Maybe" or "No", as the organizer's lists and the summary lines say it.
    public var displayName: String {
        switch self {
        case .yes: "Yes"
        case .maybe: "Maybe"
        case .no: "No"
        }
    }

    /// The choice as the answer control offers it: "Going", "Maybe", "Can't go".
    public var choiceTitle: String {
        switch self {
        case .yes: "Going"
        case .maybe: "Maybe"
        case .no: "Can't go"
        }
    }
}
