import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func setReaction(
        _ emoji: String, on: Bool, user: UserID, message: MessageID, conversation: ConversationID, maxKinds: Int
    ) async throws -> (reactions: [ReactionRecord], changed: Bool) {
        let (conversationID, messageID, userID) = (conversation.description, message.description, user.description)
        return try await transaction { connection in
            // Locks the message's row: reactions to one message are set one at a time, so two new
            // kinds at once cannot both pass the limit.
            guard try await !connection.rows(
                "SELECT 1 FROM messages WHERE conversation_id = \(conversationID) AND id = \(messageID) AND unsent_at IS NULL FOR UPDATE",
                logger: self.logger
            ).isEmpty else { throw StoreError(.notFound, "There is no such message.") }
            let changed: Bool
            if on {
                let kinds = try await connection.rows("""
                    SELECT DISTINCT emoji FROM reactions WHERE conversation_id = \(conversationID) AND message_id = \(messageID)
                    """, logger: self.logger).map { try $0.decode(String.self) }
                if !kinds.contains(emoji), kinds.count >= maxKinds {
                    throw StoreError(.full, "This message has \(maxKinds) kinds of reaction, the most it can have.")
                }
                changed = try await !connection.rows("""
                    INSERT INTO reactions (conversation_id, message_id, user_id, emoji, reacted_at)
                    VALUES (\(conversationID), \(messageID), \(userID), \(emoji), \(Timestamp(Timestamp.now())))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: self.logger).isEmpty
            } else {
                changed = try await !connection.rows("""
                    DELETE FROM reactions WHERE conversation_id = \(conversationID) AND message_id = \(messageID)
                    AND user_id = \(userID) AND emoji = \(emoji) RETURNING 1
                    """, logger: self.logger).isEmpty
            }
            let reactions = try await Self.reactions(connection, conversation: conversationID, messages: [messageID], logger: self.logger)
            return (reactions[message] ?? [], changed)
        }
    }

    public func reactions(to messages: [MessageID], in conversation: ConversationID) async throws -> [MessageID: [ReactionRecord]] {
        guard !messages.isEmpty else { return [:] }
        let ids = messages.map(\.description)
        return try await transaction(readOnly: true) { connection in
            try await Self.reactions(connection, conversation: conversation.description, messages: ids, logger: self.logger)
        }
    }

    private static func reactions(
        _ connection: PostgresConnection, conversation: String, messages: [String], logger: Logger
    ) async throws -> [MessageID: [ReactionRecord]] {
        let rows = try await connection.rows("""
            SELECT message_id, user_id, emoji FROM reactions WHERE conversation_id = \(conversation) AND message_id = ANY(\(messages))
            ORDER BY reacted_at, reaction_order
            """, logger: logger)
        var result: [MessageID: [ReactionRecord]] = [:]
        for row in rows {
            let (message, user, emoji) = try row.decode((String, String, String).self)
            guard let message = MessageID(message), let user = UserID(user) else { continue }
            result[message, default: []].append(ReactionRecord(user: user, emoji: emoji))
        }
        return result
    }
}
