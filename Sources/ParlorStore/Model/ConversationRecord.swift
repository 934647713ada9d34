import Foundation
import ParlorKit

/// A conversation and who is in it.
public struct ConversationRecord: Sendable, Hashable, Codable {
    public var id: ConversationID
    public var title: String?
    public var isGroup: Bool
    public var createdAt: Date
    /// In the order they joined; the first members in the order the conversation was created with.
    public var members: [UserID]
    /// The sequence number of the newest message (0 when empty).
    public var lastSequence: Int64
    /// The sequence number of the newest message someone sent, event lines ("Alice renamed the
    /// group") left out (0 when none): what brings an archived or deleted conversation back.
    public var lastMessageSequence: Int64
    /// A group's admins, in the order they joined: the creator first, and never none while the
    /// group has members. Empty for 1:1 conversations.
    public var admins: [UserID]
    /// A group's photo: the hash of the image a member set, which every member may fetch.
    public var photo: String?

    /// A conversation as a store read it (public so that stores in other modules can build one).
    public init(
        id: ConversationID, title: String?, isGroup: Bool, createdAt: Date, members: [UserID], lastSequence: Int64,
        lastMessageSequence: Int64? = nil, admins: [UserID] = [], photo: String? = nil
    ) {
        self.photo = photo
        self.lastMessageSequence = lastMessageSequence ?? lastSequence
        self.id = id
        self.title = title
        self.isGroup = isGroup
        self.createdAt = createdAt
        self.members = members
        self.lastSequence = lastSequence
        self.admins = admins
    }
}

/// How a change of a group's admins ended (`ParlorStore.setAdmin`).
public enum AdminChange: Sendable, Hashable {
    case done
    /// Whoever asked is not (or no longer) an admin.
    case actorNotAdmin
    /// It would have left the group with no admin.
    case lastAdmin
}

/// A conversation as one member's list shows it.
public struct ConversationSummary: Sendable, Hashable, Codable {
    public var conversation: ConversationRecord
    /// Messages after the member's read mark, not counting their own.
    public var unreadCount: Int
    public var lastMessage: StoredMessage?
    /// Where the member keeps it in their list: muted, pinned, archived, marked unread.
    public var place: ListPlace
    /// Unread messages (after the member's read mark) that mention the member.
    public var unreadMentions: Int

    /// Whether the member muted it: their devices do not alert them of its messages.
    public var isMuted: Bool { place.isMuted }
    /// Whether it is out of the member's list, in Archived.
    public var isArchived: Bool { place.isArchived(lastSequence: conversation.lastMessageSequence) }
    /// Whether the member deleted it for themselves and nothing came since: out of their list.
    public var isDeleted: Bool { place.isDeleted(lastSequence: conversation.lastMessageSequence) }

    /// A member's summary as a store read it.
    public init(conversation: ConversationRecord, unreadCount: Int, lastMessage: StoredMessage?, place: ListPlace = ListPlace(), unreadMentions: Int = 0) {
        self.conversation = conversation
        self.unreadCount = unreadCount
        self.lastMessage = lastMessage
        self.place = place
        self.unreadMentions = unreadMentions
    }
}
