/// A participant's answer to an RSVP.
public enum Answer: String, Sendable, Hashable, Codable, CaseIterable {
    case yes, no

    /// "Yes" or "No", as the view and the summary lines say it.
    public var displayName: String {
        switch self {
        case .yes: "Yes"
        case .no: "No"
        }
    }
}
