import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    /// Records who the message numbered `sequence` mentions, replacing what was recorded; an
    /// account deleted meanwhile is left out (a commit never fails for it).
    static func recordMentions(
        _ users: [UserID], conversation: String, sequence: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.rows("DELETE FROM mentions WHERE conversation_id = \(conversation) AND seq = \(sequence)", logger: logger)
        guard !users.isEmpty else { return }
        try await connection.rows("""
            INSERT INTO mentions (conversation_id, seq, user_id)
            SELECT \(conversation), \(sequence), id FROM users WHERE id = ANY(\(users.map(\.description)))
            """, logger: logger)
    }

    public func editMessage(
        _ id: MessageID, in conversation: ConversationID, sender: UserID, text: String, quieting: [UserID], sentAfter: Date, maxEdits: Int
    ) async throws -> StoredMessage? {
        let (conversationID, messageID) = (conversation.description, id.description)
        return try await transaction { connection in
            guard let row = try await connection.rows("""
                SELECT \(unescaped: Self.messageColumns) FROM messages WHERE conversation_id = \(conversationID) AND id = \(messageID) FOR UPDATE
                """, logger: self.logger).first
            else { return nil }
            let message = try Self.decodeMessage(row)
            guard case .text(let old, _, _) = message.content, message.sender == sender, message.unsentAt == nil, message.sentAt > sentAfter
            else { return nil }
            let versions = try await connection.rows("""
                SELECT count(*) FROM message_versions WHERE conversation_id = \(conversationID) AND message_id = \(messageID)
                """, logger: self.logger).first?.decode(Int64.self) ?? 0
            guard versions < maxEdits else { return nil }
            let now = Timestamp(Date())
            let content = message.content.edited(to: text, quieting: quieting)
            try await connection.rows("""
                INSERT INTO message_versions (conversation_id, message_id, version, text, replaced_at)
                VALUES (\(conversationID), \(messageID), \(Int32(versions + 1)), \(old), \(now))
                """, logger: self.logger)
            let updated = try await connection.rows("""
                UPDATE messages SET content = \(try Self.encode(content)), search_text = \(content.searchIndexText), edited_at = \(now) WHERE conversation_id = \(conversationID) AND id = \(messageID)
                RETURNING \(unescaped: Self.messageColumns)
                """, logger: self.logger).first
            try await Self.recordMentions(
                content.alertedUsers, conversation: conversationID, sequence: message.sequence, on: connection, logger: self.logger)
            return try updated.map(Self.decodeMessage)
        }
    }

    public func unsendMessage(_ id: MessageID, in conversation: ConversationID, sender: UserID, sentAfter: Date) async throws -> StoredMessage? {
        let (conversationID, messageID) = (conversation.description, id.description)
        let erased = try Self.encode(StoredContent.text(""))
        return try await transaction { connection in
            guard let row = try await connection.rows("""
                UPDATE messages SET content = \(erased), search_text = '', unsent_at = \(Timestamp(Date()))
                WHERE conversation_id = \(conversationID) AND id = \(messageID) AND sender_id = \(sender.description)
                AND unsent_at IS NULL AND sent_at > \(Timestamp(sentAfter))
                RETURNING \(unescaped: Self.messageColumns)
                """, logger: self.logger).first
            else { return nil }
            try await connection.rows(
                "DELETE FROM message_versions WHERE conversation_id = \(conversationID) AND message_id = \(messageID)", logger: self.logger)
            try await connection.rows(
                "DELETE FROM reactions WHERE conversation_id = \(conversationID) AND message_id = \(messageID)", logger: self.logger)
            let unsent = try Self.decodeMessage(row)
            try await Self.recordMentions([], conversation: conversationID, sequence: unsent.sequence, on: connection, logger: self.logger)
            try await connection.rows(
                "DELETE FROM message_blobs WHERE conversation_id = \(conversationID) AND seq = \(unsent.sequence)", logger: self.logger)
            return unsent
        }
    }

    public func versions(of message: MessageID, in conversation: ConversationID) async throws -> [MessageVersion] {
        let rows = try await query("""
            SELECT text, replaced_at FROM message_versions
            WHERE conversation_id = \(conversation.description) AND message_id = \(message.description) ORDER BY version
            """)
        return try rows.map { row in
            let (text, replacedAt) = try Self.readable { try row.decode((String, Timestamp).self) }
            return MessageVersion(text: text, replacedAt: replacedAt.date)
        }
    }

    public func replies(to message: MessageID, in conversation: ConversationID, limit: Int) async throws -> [StoredMessage] {
        let rows = try await query("""
            SELECT \(unescaped: Self.messageColumns) FROM messages
            WHERE conversation_id = \(conversation.description) AND reply_to = \(message.description) ORDER BY seq LIMIT \(limit)
            """)
        return try rows.map(Self.decodeMessage)
    }
}
