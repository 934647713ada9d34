import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func append(
        _ message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void, alongside: [StateWrite]
    ) async throws -> (message: StoredMessage, isDuplicate: Bool) {
        try await batcher.submit(AppendRequest(message: message, validate: validate, alongside: alongside))
    }

    public func messages(in conversation: ConversationID, after sequence: Int64, limit: Int) async throws -> [StoredMessage] {
        try await read { db in
            try MessageRow.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM messages WHERE conversation_id = ? AND seq > ? ORDER BY seq LIMIT ?"),
                arguments: [conversation.description, sequence, limit]
            ).map { try $0.stored() }
        }
    }

    public func latestMessages(in conversation: ConversationID, limit: Int) async throws -> [StoredMessage] {
        try await read { db in
            try MessageRow.fetchAll(
                db, sql: "SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?",
                arguments: [conversation.description, limit]
            ).map { try $0.stored() }.reversed()
        }
    }

    public func message(id: MessageID, in conversation: ConversationID) async throws -> StoredMessage? {
        if let recent = recentAppMessages.message(id, in: conversation) { return recent }
        return try await read { db in
            try MessageRow.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM messages WHERE conversation_id = ? AND id = ?"), arguments: [conversation.description, id.description]
            ).map { try $0.stored() }
        }
    }

    public func sessionHead(_ session: SessionID, in conversation: ConversationID) async throws -> StoredMessage? {
        try await read { db in
            try MessageRow.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM messages WHERE conversation_id = ? AND session_id = ? ORDER BY seq DESC LIMIT 1"),
                arguments: [conversation.description, session.description]
            ).map { try $0.stored() }
        }
    }

    public func sessionStarter(_ session: SessionID, in conversation: ConversationID) async throws -> UserID? {
        let sender = try await read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT sender_id FROM messages WHERE conversation_id = ? AND session_id = ? ORDER BY seq LIMIT 1"),
                arguments: [conversation.description, session.description])
        }
        return sender.flatMap { UserID($0) }
    }

    @discardableResult
    public func markRead(user: UserID, conversation: ConversationID, upTo sequence: Int64) async throws -> (previous: Int64, current: Int64) {
        try await write(synced: false) { db in
            let arguments: StatementArguments = [conversation.description, user.description]
            let markSQL = "SELECT last_read_seq FROM members WHERE conversation_id = ? AND user_id = ?"
            let previous = try Int64.fetchOne(db.cachedStatement(sql: markSQL), arguments: arguments) ?? 0
            // Never past the conversation's last message: a mark ahead of it would skip what comes next.
            try db.cachedStatement(sql: """
                UPDATE members SET last_read_seq = MAX(last_read_seq, MIN(?, (SELECT last_seq FROM conversations WHERE id = ?)))
                WHERE conversation_id = ? AND user_id = ?
                """
            ).execute(arguments: [sequence, conversation.description] + arguments)
            let current = try Int64.fetchOne(db.cachedStatement(sql: markSQL), arguments: arguments) ?? previous
            if current > previous {
                try db.cachedStatement(sql: "UPDATE members SET last_read_at = ? WHERE conversation_id = ? AND user_id = ?")
                    .execute(arguments: [Self.time(Date())] + arguments)
            }
            return (previous, current)
        }
    }

    public func readMark(user: UserID, conversation: ConversationID) async throws -> (mark: Int64, last: Int64) {
        try await read { db in
            let row = try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT m.last_read_seq, c.last_seq FROM members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.conversation_id = ? AND m.user_id = ?
                    """),
                arguments: [conversation.description, user.description])
            guard let row else { return (0, 0) }
            return (row[0] as Int64? ?? 0, row[1] as Int64? ?? 0)
        }
    }

    public func recordExpiringRead(user: UserID, message: MessageID, conversation: ConversationID, at: Date) async throws {
        try await write(synced: false) { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO expiring_reads (user_id, conversation_id, message_id, read_at) VALUES (?, ?, ?, ?)",
                arguments: [user.description, conversation.description, message.description, Self.time(at)])
        }
    }

    public func keep(user: UserID, message: MessageID, conversation: ConversationID) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO expiring_reads (user_id, conversation_id, message_id, read_at, kept) VALUES (?, ?, ?, ?, 1)
                    ON CONFLICT (user_id, conversation_id, message_id) DO UPDATE SET kept = 1 WHERE hidden = 0
                    """,
                arguments: [user.description, conversation.description, message.description, Self.time(Date())])
        }
    }

    public func expireReads(readBefore: Date) async throws -> [(user: UserID, conversation: ConversationID, message: MessageID)] {
        try await write { db in
            let rows = try ExpiredReadRow.fetchAll(
                db, sql: "UPDATE expiring_reads SET hidden = 1 WHERE hidden = 0 AND kept = 0 AND read_at < ? RETURNING user_id, conversation_id, message_id",
                arguments: [Self.time(readBefore)])
            return rows.compactMap { row in
                guard let user = UserID(row.userId), let conversation = ConversationID(row.conversationId),
                      let message = MessageID(row.messageId)
                else { return nil }
                return (user, conversation, message)
            }
        }
    }

    public func hiddenMessages(user: UserID, conversation: ConversationID) async throws -> HiddenMessages {
        let member: StatementArguments = [user.description, conversation.description]
        return try await read { db in
            let expired = try String.fetchAll(
                db, sql: "SELECT message_id FROM expiring_reads WHERE user_id = ? AND conversation_id = ? AND hidden = 1", arguments: member)
            let deleted = try Int64.fetchOne(
                db, sql: "SELECT deleted_through FROM members WHERE user_id = ? AND conversation_id = ?", arguments: member)
            return HiddenMessages(expired: Set(expired.compactMap(MessageID.init(_:))), deletedThrough: deleted ?? 0)
        }
    }
}
