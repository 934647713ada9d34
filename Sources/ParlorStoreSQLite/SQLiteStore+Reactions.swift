import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func setReaction(
        _ emoji: String, on: Bool, user: UserID, message: MessageID, conversation: ConversationID, maxKinds: Int
    ) async throws -> (reactions: [ReactionRecord], changed: Bool) {
        let (conversationID, messageID) = (conversation.description, message.description)
        return try await write { db in
            guard try Bool.fetchOne(
                db, sql: "SELECT 1 FROM messages WHERE conversation_id = ? AND id = ? AND unsent_at IS NULL",
                arguments: [conversationID, messageID]) != nil
            else { throw StoreError(.notFound, "There is no such message.") }
            if on {
                let kinds = try String.fetchSet(
                    db, sql: "SELECT DISTINCT emoji FROM reactions WHERE conversation_id = ? AND message_id = ?",
                    arguments: [conversationID, messageID])
                if !kinds.contains(emoji), kinds.count >= maxKinds {
                    throw StoreError(.full, "This message has \(maxKinds) kinds of reaction, the most it can have.")
                }
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO reactions (conversation_id, message_id, user_id, emoji, reacted_at)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [conversationID, messageID, user.description, emoji, Self.time(Date())])
            } else {
                try db.execute(
                    sql: "DELETE FROM reactions WHERE conversation_id = ? AND message_id = ? AND user_id = ? AND emoji = ?",
                    arguments: [conversationID, messageID, user.description, emoji])
            }
            let changed = db.changesCount > 0
            return (try Self.reactions(db, conversation: conversationID, messages: [messageID])[message] ?? [], changed)
        }
    }

    public func reactions(to messages: [MessageID], in conversation: ConversationID) async throws -> [MessageID: [ReactionRecord]] {
        guard !messages.isEmpty else { return [:] }
        let ids = messages.map(\.description)
        return try await read { db in try Self.reactions(db, conversation: conversation.description, messages: ids) }
    }

    private static func reactions(_ db: Database, conversation: String, messages: [String]) throws -> [MessageID: [ReactionRecord]] {
        let placeholders = Array(repeating: "?", count: messages.count).joined(separator: ",")
        let rows = try Row.fetchAll(
            db, sql: """
                SELECT message_id, user_id, emoji FROM reactions WHERE conversation_id = ? AND message_id IN (\(placeholders))
                ORDER BY reacted_at, rowid
                """,
            arguments: StatementArguments([conversation] + messages))
        var result: [MessageID: [ReactionRecord]] = [:]
        for row in rows {
            guard let message = MessageID(row[0] as String), let user = UserID(row[1] as String) else { continue }
            result[message, default: []].append(ReactionRecord(user: user, emoji: row[2]))
        }
        return result
    }
}
