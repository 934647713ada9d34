import ParlorKit

/// How urgent a note is; each priority has its own image, shown in the list and in the bubble.
public enum Priority: String, Sendable, Hashable, Codable, CaseIterable {
    case low, medium, high

    /// The picker's title: "Low", "Medium", "High".
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Read by screen readers and shown in a note's details: "High priority".
    public var label: String { "\(title) priority" }

    /// The priority's image in the app's assets (`priority-high.png`).
    public var image: ImageSource { .asset("priority-\(rawValue).png") }

    /// Reads a priority written by hand or by an older version: case and surrounding spaces
    /// do not matter; nil for anything else.
    public init?(loosely text: String) {
        self.init(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
