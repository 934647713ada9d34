import Foundation
import GRDB
import ParlorKit
import ParlorStore

// The rows SQLiteStore reads, as GRDB records decoded by column name (snake case); each turns
// itself into the store's record through `RowCodec`, which PostgresStore shares.

/// A `messages` row.
struct MessageRow: Decodable, FetchableRecord {
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    let conversationId: String
    let seq: Int64
    let id: String
    let senderId: String
    let content: String
    let sentAt: Double
    let replyTo: String?
    let editedAt: Double?
    let unsentAt: Double?

    func stored() throws -> StoredMessage {
        try RowCodec.message(
            id: id, conversation: conversationId, sequence: seq, sender: senderId, content: content, sentAt: SQLiteStore.date(sentAt),
            replyTo: replyTo, editedAt: editedAt.map(SQLiteStore.date), unsentAt: unsentAt.map(SQLiteStore.date))
    }
}

/// A `users` row.
struct UserRow: Decodable, FetchableRecord {
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    let id: String
    let username: String
    let displayName: String
    let createdAt: Double
    let passwordHash: String
    let avatar: String?
    let about: String?

    func user() throws -> User {
        try RowCodec.user(id: id, username: username, displayName: displayName, createdAt: SQLiteStore.date(createdAt), avatar: avatar, about: about)
    }
}

/// A `conversations` row (members are read from `members`).
struct ConversationRow: Decodable, FetchableRecord {
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    let id: String
    let title: String?
    let isGroup: Bool
    let createdAt: Double
    let lastSeq: Int64
    let lastMessageSeq: Int64
    let photo: String?

    func record(members: [MemberRow]) -> ConversationRecord? {
        guard let id = ConversationID(id) else { return nil }
        return ConversationRecord(
            id: id, title: title, isGroup: isGroup, createdAt: SQLiteStore.date(createdAt), members: members.compactMap { UserID($0.userId) },
            lastSequence: lastSeq, lastMessageSequence: lastMessageSeq, admins: members.filter(\.isAdmin).compactMap { UserID($0.userId) },
            photo: photo)
    }
}

/// A `members` row as a conversation lists it.
struct MemberRow: Decodable, FetchableRecord {
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    let userId: String
    let isAdmin: Bool
}

/// One of a user's conversations with its unread count.
struct SummaryRow: Decodable, FetchableRecord {
    let id: String
    let unread: Int
    let mentions: Int
    let muted: Bool
    let pinnedAt: Double?
    let archivedThrough: Int64?
    let markedUnread: Bool
    let deletedThrough: Int64?

    var place: ListPlace {
        ListPlace(
            isMuted: muted, pinnedAt: pinnedAt.map(SQLiteStore.date), archivedThrough: archivedThrough, isMarkedUnread: markedUnread,
            deletedThrough: deletedThrough)
    }
}

/// An `expiring_reads` row that was just hidden.
struct ExpiredReadRow: Decodable, FetchableRecord {
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    let userId: String
    let conversationId: String
    let messageId: String
}

/// A `blobs` row.
struct BlobRow: Decodable, FetchableRecord {
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    let hash: String
    let contentType: String
    let data: Data

    var blob: Blob { Blob(hash: hash, contentType: contentType, data: data) }
}
