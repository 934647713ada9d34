import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    /// Records who the message numbered `sequence` mentions, replacing what was recorded; an
    /// account deleted meanwhile is left out (a commit never fails for it).
    static func recordMentions(_ users: [UserID], conversation: String, sequence: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM mentions WHERE conversation_id = ? AND seq = ?").execute(arguments: [conversation, sequence])
        for user in users {
            try db.cachedStatement(sql: "INSERT INTO mentions (conversation_id, seq, user_id) SELECT ?, ?, id FROM users WHERE id = ?")
                .execute(arguments: [conversation, sequence, user.description])
        }
    }

    public func editMessage(
        _ id: MessageID, in conversation: ConversationID, sender: UserID, text: String, quieting: [UserID], sentAfter: Date, maxEdits: Int
    ) async throws -> StoredMessage? {
        let arguments: StatementArguments = [conversation.description, id.description]
        let recent = recentAppMessages
        return try await write { db in
            recent.forget(id, in: conversation)  // only a text message can be edited: none is kept
            guard let row = try MessageRow.fetchOne(
                db, sql: "SELECT * FROM messages WHERE conversation_id = ? AND id = ?", arguments: arguments),
                case let stored = try row.stored().content, case .text(let old, _, _) = stored,
                row.senderId == sender.description, row.unsentAt == nil, row.sentAt > Self.time(sentAfter)
            else { return nil }
            let versions = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM message_versions WHERE conversation_id = ? AND message_id = ?", arguments: arguments) ?? 0
            guard versions < maxEdits else { return nil }
            let now = Self.time(Date())
            let content = stored.edited(to: text, quieting: quieting)
            try db.execute(
                sql: "INSERT INTO message_versions (conversation_id, message_id, version, text, replaced_at) VALUES (?, ?, ?, ?, ?)",
                arguments: arguments + [versions + 1, old, now])
            try db.execute(
                sql: "UPDATE messages SET content = ?, search_text = ?, edited_at = ? WHERE conversation_id = ? AND id = ?",
                arguments: [try Self.encode(content), content.searchIndexText, now] + arguments)
            try Self.recordMentions(content.alertedUsers, conversation: row.conversationId, sequence: row.seq, in: db)
            return try MessageRow.fetchOne(db, sql: "SELECT * FROM messages WHERE conversation_id = ? AND id = ?", arguments: arguments)?.stored()
        }
    }

    public func unsendMessage(_ id: MessageID, in conversation: ConversationID, sender: UserID, sentAfter: Date) async throws -> StoredMessage? {
        let arguments: StatementArguments = [conversation.description, id.description]
        let erased = try Self.encode(StoredContent.text(""))
        let recent = recentAppMessages
        return try await write { db in
            recent.forget(id, in: conversation)  // before the change: a read until its commit finds the message as it was
            try db.execute(
                sql: """
                    UPDATE messages SET content = ?, search_text = '', unsent_at = ?
                    WHERE conversation_id = ? AND id = ? AND sender_id = ? AND unsent_at IS NULL AND sent_at > ?
                    """,
                arguments: [erased, Self.time(Date())] + arguments + [sender.description, Self.time(sentAfter)])
            guard db.changesCount > 0 else { return nil }
            try db.execute(sql: "DELETE FROM message_versions WHERE conversation_id = ? AND message_id = ?", arguments: arguments)
            try db.execute(sql: "DELETE FROM reactions WHERE conversation_id = ? AND message_id = ?", arguments: arguments)
            let unsent = try MessageRow.fetchOne(db, sql: "SELECT * FROM messages WHERE conversation_id = ? AND id = ?", arguments: arguments)
            if let unsent {
                try Self.recordMentions([], conversation: unsent.conversationId, sequence: unsent.seq, in: db)
                try db.execute(sql: "DELETE FROM message_blobs WHERE conversation_id = ? AND seq = ?", arguments: [unsent.conversationId, unsent.seq])
            }
            return try unsent?.stored()
        }
    }

    public func versions(of message: MessageID, in conversation: ConversationID) async throws -> [MessageVersion] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT text, replaced_at FROM message_versions WHERE conversation_id = ? AND message_id = ? ORDER BY version",
                arguments: [conversation.description, message.description]
            ).map { MessageVersion(text: $0[0], replacedAt: Self.date($0[1])) }
        }
    }

    public func replies(to message: MessageID, in conversation: ConversationID, limit: Int) async throws -> [StoredMessage] {
        try await read { db in
            try MessageRow.fetchAll(
                db, sql: "SELECT * FROM messages WHERE conversation_id = ? AND reply_to = ? ORDER BY seq LIMIT ?",
                arguments: [conversation.description, message.description, limit]
            ).map { try $0.stored() }
        }
    }
}
