/// A participant's answer to an RSVP.
public enum Answer: String, Sendable, Hashable, Codable, CaseIterable {
    case yes, maybe, no

    /// What a summary line says of someone who gave this answer: "is going", "might go", "can't go"
    /// (the words of the answer control, never a bare Yes or No).
    public var statement: String {
        switch self {
        case .yes: "is going"
        case .maybe: "might go"
        case .no: "can't go"
        }
    }

    /// The choice as the answer control, the "Who answered" lines and a changed answer's line say it:
    /// "Going", "Maybe", "Can't go".
    public var choiceTitle: String {
        switch self {
        case .yes: "Going"
        case .maybe: "Maybe"
        case .no: "Can't go"
        }
    }
}
