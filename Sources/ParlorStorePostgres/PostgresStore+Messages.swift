import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func append(
        _ message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void, alongside: [StateWrite]
    ) async throws -> (message: StoredMessage, isDuplicate: Bool) {
        try await migrate()
        return try await appendQueue.submit(AppendRequest(message: message, validate: validate, alongside: alongside))
    }

    public func messages(in conversation: ConversationID, after sequence: Int64, limit: Int) async throws -> [StoredMessage] {
        try await query("""
            SELECT \(unescaped: Self.messageColumns) FROM messages
            WHERE conversation_id = \(conversation.description) AND seq > \(sequence) ORDER BY seq LIMIT \(Int64(max(limit, 0)))
            """).map(Self.decodeMessage)
    }

    public func latestMessages(in conversation: ConversationID, limit: Int) async throws -> [StoredMessage] {
        try await query("""
            SELECT \(unescaped: Self.messageColumns) FROM messages
            WHERE conversation_id = \(conversation.description) ORDER BY seq DESC LIMIT \(Int64(max(limit, 0)))
            """).map(Self.decodeMessage).reversed()
    }

    public func message(id: MessageID, in conversation: ConversationID) async throws -> StoredMessage? {
        try await query("""
            SELECT \(unescaped: Self.messageColumns) FROM messages WHERE conversation_id = \(conversation.description) AND id = \(id.description)
            """).first.map(Self.decodeMessage)
    }

    public func sessionHead(_ session: SessionID, in conversation: ConversationID) async throws -> StoredMessage? {
        try await query("""
            SELECT \(unescaped: Self.messageColumns) FROM messages
            WHERE conversation_id = \(conversation.description) AND session_id = \(session.description) ORDER BY seq DESC LIMIT 1
            """).first.map(Self.decodeMessage)
    }

    public func sessionStarter(_ session: SessionID, in conversation: ConversationID) async throws -> UserID? {
        try await query("""
            SELECT sender_id FROM messages
            WHERE conversation_id = \(conversation.description) AND session_id = \(session.description) ORDER BY seq LIMIT 1
            """).first.flatMap { UserID(try $0.decode(String.self)) }
    }

    @discardableResult
    public func markRead(user: UserID, conversation: ConversationID, upTo sequence: Int64) async throws -> (previous: Int64, current: Int64) {
        try await unsynced { connection in
            // The mark is read with its row locked: of two reads of one mark at once, one moves it and
            // the other, waiting on the lock, finds it moved.
            let locked = try await connection.rows("""
                SELECT last_read_seq FROM members
                WHERE conversation_id = \(conversation.description) AND user_id = \(user.description) FOR UPDATE
                """, logger: self.logger)
            guard let previous = try locked.first?.decode(Int64.self) else { return (0, 0) }
            let rows = try await connection.rows("""
                UPDATE members SET last_read_seq = GREATEST(last_read_seq,
                    LEAST(\(sequence), (SELECT last_seq FROM conversations WHERE id = \(conversation.description)))),
                    last_read_at = CASE WHEN LEAST(\(sequence), (SELECT last_seq FROM conversations WHERE id = \(conversation.description))) > last_read_seq
                        THEN \(Timestamp(Date())) ELSE last_read_at END
                WHERE conversation_id = \(conversation.description) AND user_id = \(user.description)
                RETURNING last_read_seq
                """, logger: self.logger)
            return (previous, try rows.first?.decode(Int64.self) ?? previous)
        }
    }

    public func readMark(user: UserID, conversation: ConversationID) async throws -> (mark: Int64, last: Int64) {
        let rows = try await query("""
            SELECT m.last_read_seq, c.last_seq FROM members m JOIN conversations c ON c.id = m.conversation_id
            WHERE m.conversation_id = \(conversation.description) AND m.user_id = \(user.description)
            """)
        guard let row = rows.first else { return (0, 0) }
        let (mark, last) = try row.decode((Int64, Int64).self)
        return (mark, last)
    }

    public func recordExpiringRead(user: UserID, message: MessageID, conversation: ConversationID, at: Date) async throws {
        try await unsyncedQuery("""
            INSERT INTO expiring_reads (user_id, conversation_id, message_id, read_at)
            VALUES (\(user.description), \(conversation.description), \(message.description), \(Timestamp(at)))
            ON CONFLICT DO NOTHING
            """)
    }

    public func keep(user: UserID, message: MessageID, conversation: ConversationID) async throws {
        _ = try await query("""
            INSERT INTO expiring_reads AS r (user_id, conversation_id, message_id, read_at, kept)
            VALUES (\(user.description), \(conversation.description), \(message.description), \(Timestamp(Timestamp.now())), TRUE)
            ON CONFLICT (user_id, conversation_id, message_id) DO UPDATE SET kept = TRUE WHERE NOT r.hidden
            """)
    }

    public func expireReads(readBefore: Date) async throws -> [(user: UserID, conversation: ConversationID, message: MessageID)] {
        let rows = try await query("""
            UPDATE expiring_reads SET hidden = TRUE WHERE NOT hidden AND NOT kept AND read_at < \(Timestamp(readBefore))
            RETURNING user_id, conversation_id, message_id
            """)
        return try rows.compactMap { row in
            let (user, conversation, message) = try row.decode((String, String, String).self)
            guard let user = UserID(user), let conversation = ConversationID(conversation), let message = MessageID(message) else { return nil }
            return (user, conversation, message)
        }
    }

    public func hiddenMessages(user: UserID, conversation: ConversationID) async throws -> HiddenMessages {
        let (user, conversation) = (user.description, conversation.description)
        // One statement: the member's deleted history on every row, and each expired message
        // (a row with no message id when there is none).
        let rows = try await query("""
            SELECT m.deleted_through, e.message_id FROM members m
            LEFT JOIN expiring_reads e ON e.user_id = m.user_id AND e.conversation_id = m.conversation_id AND e.hidden
            WHERE m.user_id = \(user) AND m.conversation_id = \(conversation)
            """)
        var hidden = HiddenMessages()
        for row in rows {
            let (deleted, message) = try row.decode((Int64?, String?).self)
            hidden.deletedThrough = deleted ?? 0
            if let id = message.flatMap(MessageID.init(_:)) { hidden.expired.insert(id) }
        }
        return hidden
    }
}
