import Foundation

/// Where a conversation sits in one member's list: what the member set on it for themselves, kept
/// by the server so every device of theirs shows the same list, and seen by no one else.
public struct ListPlace: Sendable, Hashable, Codable {
    /// Muted: their devices do not alert them of its messages (a mention still does).
    public var isMuted: Bool
    /// When they pinned it, for the pinned ones' order at the top of the list; nil when not pinned.
    public var pinnedAt: Date?
    /// The conversation's last sequence when they archived it; nil when not archived. An archived
    /// conversation comes back into the list with the next message someone sends (an event line
    /// does not bring it back), unless it is muted.
    public var archivedThrough: Int64?
    /// They marked it unread: the list shows it unread until they open it.
    public var isMarkedUnread: Bool
    /// The conversation's last sequence when they deleted it for themselves; nil when they never
    /// did. Its messages up to there are hidden from them (`HiddenMessages`); it is out of their
    /// list until a new message someone sends (not an event line) brings it back with only what
    /// came after.
    public var deletedThrough: Int64?

    public init(
        isMuted: Bool = false, pinnedAt: Date? = nil, archivedThrough: Int64? = nil, isMarkedUnread: Bool = false, deletedThrough: Int64? = nil
    ) {
        self.isMuted = isMuted
        self.pinnedAt = pinnedAt
        self.archivedThrough = archivedThrough
        self.isMarkedUnread = isMarkedUnread
        self.deletedThrough = deletedThrough
    }

    /// Whether the conversation is out of the list because they deleted it and nothing came since;
    /// `lastSequence` is its newest message someone sent.
    public func isDeleted(lastSequence: Int64) -> Bool {
        deletedThrough.map { lastSequence <= $0 } ?? false
    }

    /// Whether the conversation is out of the list, in Archived, when the newest message someone
    /// sent is `lastSequence`.
    public func isArchived(lastSequence: Int64) -> Bool {
        guard let archivedThrough else { return false }
        return isMuted || lastSequence <= archivedThrough
    }

    /// The most conversations one person may pin.
    public static let maxPinned = 5
}

/// One change a member makes to where a conversation sits in their list (`ListPlace`).
public enum ListChange: Sendable, Hashable {
    case mute(Bool)
    case pin(Bool)
    case archive(Bool)
    case markUnread(Bool)
    /// Deleted for this member up to `through` (the last message they saw; nil: the last one):
    /// its history hidden from them, unpinned, unarchived, not marked unread (muted stays as it
    /// was). A message after `through` brings it back at once. Others see no change.
    case deleteHistory(through: Int64?)
}
