/// A player's mark. X always moves first.
public enum Mark: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case x = "X"
    case o = "O"

    /// The other mark.
    public var opponent: Mark { self == .x ? .o : .x }

    public var description: String { rawValue }
}
