import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func createConversation(title: String?, isGroup: Bool, members: [UserID]) async throws -> ConversationRecord {
        let id = ConversationID()
        let now = Timestamp.now()
        var seen = Set<UserID>()
        let unique = members.filter { seen.insert($0).inserted }
        let memberIDs = unique.map(\.description)
        try await transaction { connection in
            let found = try await connection.rows("SELECT count(*) FROM users WHERE id = ANY(\(memberIDs))", logger: self.logger)
                .first?.decode(Int64.self) ?? 0
            guard found == Int64(memberIDs.count) else {
                throw StoreError(.notFound, "A member of the new conversation does not exist.")
            }
            try await connection.rows("""
                INSERT INTO conversations (id, title, is_group, created_at, last_activity)
                VALUES (\(id.description), \(title), \(isGroup), \(Timestamp(now)), \(Timestamp(now)))
                """, logger: self.logger)
            // WITH ORDINALITY keeps the order the members were given in.
            try await connection.rows("""
                INSERT INTO members (conversation_id, user_id, joined_at, is_admin)
                SELECT \(id.description), member, \(Timestamp(now)), \(isGroup) AND position = 1
                FROM unnest(\(memberIDs)::text[]) WITH ORDINALITY AS m(member, position)
                ORDER BY position
                """, logger: self.logger)
        }
        return ConversationRecord(
            id: id, title: title, isGroup: isGroup, createdAt: now, members: unique, lastSequence: 0,
            admins: isGroup ? Array(unique.prefix(1)) : [])
    }

    public func conversation(id: ConversationID) async throws -> ConversationRecord? {
        try await transaction(readOnly: true) { connection in
            try await Self.conversations(ids: [id.description], on: connection, logger: self.logger).first
        }
    }

    /// The conversations with these ids, in the order given (missing ones left out).
    static func conversations(ids: [String], on connection: PostgresConnection, logger: Logger) async throws -> [ConversationRecord] {
        let rows = try await connection.rows("""
            SELECT id, title, is_group, created_at, last_seq, last_message_seq, photo FROM conversations WHERE id = ANY(\(ids))
            """, logger: logger)
        let memberRows = try await connection.rows("""
            SELECT conversation_id, user_id, is_admin FROM members WHERE conversation_id = ANY(\(ids)) ORDER BY joined_at, join_order
            """, logger: logger)
        var members: [String: [UserID]] = [:]
        var admins: [String: [UserID]] = [:]
        for row in memberRows {
            let (conversation, user, isAdmin) = try row.decode((String, String, Bool).self)
            guard let user = UserID(user) else { continue }
            members[conversation, default: []].append(user)
            if isAdmin { admins[conversation, default: []].append(user) }
        }
        var records: [String: ConversationRecord] = [:]
        for row in rows {
            let (id, title, isGroup, createdAt, lastSequence, lastMessageSequence, photo) = try row.decode(
                (String, String?, Bool, Timestamp, Int64, Int64, String?).self)
            guard let conversationID = ConversationID(id) else { continue }
            records[id] = ConversationRecord(
                id: conversationID, title: title, isGroup: isGroup, createdAt: createdAt.date, members: members[id] ?? [],
                lastSequence: lastSequence, lastMessageSequence: lastMessageSequence, admins: admins[id] ?? [], photo: photo)
        }
        return ids.compactMap { records[$0] }
    }

    public func conversations(of user: UserID) async throws -> [ConversationSummary] {
        try await summaries(of: user, only: nil)
    }

    public func conversationSummary(_ conversation: ConversationID, for user: UserID) async throws -> ConversationSummary? {
        try await summaries(of: user, only: conversation).first
    }

    /// The user's conversation summaries, most recently active first; only one when `only` names it.
    private func summaries(of user: UserID, only conversation: ConversationID?) async throws -> [ConversationSummary] {
        try await transaction(readOnly: true) { connection in
            // No conversation named: every id matches the empty-string test below.
            let only = conversation?.description ?? ""
            let rows = try await connection.rows("""
                SELECT c.id,
                    (SELECT count(*) FROM messages x WHERE x.conversation_id = c.id
                        AND x.seq > GREATEST(m.last_read_seq, COALESCE(m.deleted_through, 0)) AND x.sender_id <> m.user_id AND x.kind <> 'event'),
                    (SELECT count(*) FROM mentions x WHERE x.conversation_id = c.id AND x.user_id = m.user_id
                        AND x.seq > GREATEST(m.last_read_seq, COALESCE(m.deleted_through, 0))),
                    m.muted, m.pinned_at, m.archived_through, m.marked_unread, m.deleted_through
                FROM members m JOIN conversations c ON c.id = m.conversation_id
                WHERE m.user_id = \(user.description) AND (\(only) = '' OR c.id = \(only)) ORDER BY c.last_activity DESC, c.id
                """, logger: self.logger)
            let unread = try rows.map { row in
                let (id, unread, mentions, muted, pinnedAt, archivedThrough, markedUnread, deletedThrough) =
                    try row.decode((String, Int64, Int64, Bool, Timestamp?, Int64?, Bool, Int64?).self)
                let place = ListPlace(
                    isMuted: muted, pinnedAt: pinnedAt?.date, archivedThrough: archivedThrough, isMarkedUnread: markedUnread,
                    deletedThrough: deletedThrough)
                return (id, unread, mentions, place)
            }
            let ids = unread.map(\.0)
            let records = try await Self.conversations(ids: ids, on: connection, logger: self.logger)
            let lastRows = try await connection.rows("""
                SELECT DISTINCT ON (conversation_id) \(unescaped: Self.messageColumns) FROM messages
                WHERE conversation_id = ANY(\(ids)) ORDER BY conversation_id, seq DESC
                """, logger: self.logger)
            var last: [ConversationID: StoredMessage] = [:]
            for row in lastRows {
                let message = try Self.decodeMessage(row)
                last[message.conversationID] = message
            }
            let members = Dictionary(
                unread.map { ($0.0, (unread: $0.1, mentions: $0.2, place: $0.3)) }, uniquingKeysWith: { first, _ in first })
            return records.map { record in
                let member = members[record.id.description]
                return ConversationSummary(
                    conversation: record, unreadCount: Int(member?.unread ?? 0), lastMessage: last[record.id], place: member?.place ?? ListPlace(),
                    unreadMentions: Int(member?.mentions ?? 0))
            }
        }
    }

    public func changeList(_ change: ListChange, user: UserID, conversation: ConversationID, at date: Date) async throws {
        let (id, member) = (conversation.description, user.description)
        try await transaction { connection in
            if case .pin(true) = change {
                // The person's account row locked first: two pins at once from two devices wait for
                // each other, so they cannot both pass the count.
                try await connection.rows("SELECT 1 FROM users WHERE id = \(member) FOR UPDATE", logger: self.logger)
                let pinned = try await connection.rows(
                    "SELECT conversation_id FROM members WHERE user_id = \(member) AND pinned_at IS NOT NULL FOR UPDATE", logger: self.logger
                ).map { try $0.decode(String.self) }
                guard pinned.filter({ $0 != id }).count < ListPlace.maxPinned else {
                    throw StoreError(.full, "At most \(ListPlace.maxPinned) conversations can be pinned.")
                }
            }
            let query: PostgresQuery = switch change {
            // Muting an archived conversation that a message brought back leaves it in the list:
            // only a mute in place when the message came keeps it archived.
            case .mute(let on):
                """
                UPDATE members SET muted = \(on), archived_through = CASE WHEN \(on) AND archived_through < (SELECT last_message_seq FROM conversations WHERE id = \(id))
                    THEN NULL ELSE archived_through END
                WHERE conversation_id = \(id) AND user_id = \(member) RETURNING 1
                """
            // A pin keeps its place in the order when pinned again.
            case .pin(let on):
                "UPDATE members SET pinned_at = CASE WHEN \(on) THEN COALESCE(pinned_at, \(Timestamp(date))) END WHERE conversation_id = \(id) AND user_id = \(member) RETURNING 1"
            case .archive(let on):
                """
                UPDATE members SET archived_through = CASE WHEN \(on) THEN (SELECT last_seq FROM conversations WHERE id = \(id)) END
                WHERE conversation_id = \(id) AND user_id = \(member) RETURNING 1
                """
            case .markUnread(let on): "UPDATE members SET marked_unread = \(on) WHERE conversation_id = \(id) AND user_id = \(member) RETURNING 1"
            case .deleteHistory(let through):
                """
                UPDATE members SET deleted_through = LEAST(\(through), (SELECT last_seq FROM conversations WHERE id = \(id))),
                    pinned_at = NULL, archived_through = NULL, marked_unread = false
                WHERE conversation_id = \(id) AND user_id = \(member) RETURNING 1
                """
            }
            guard try await !connection.rows(query, logger: self.logger).isEmpty else {
                throw StoreError(.notFound, "There is no such conversation.")
            }
        }
    }

    public func mutedMembers(of conversation: ConversationID) async throws -> Set<UserID> {
        Set(try await query("SELECT user_id FROM members WHERE conversation_id = \(conversation.description) AND muted")
            .compactMap { UserID(try $0.decode(String.self)) })
    }

    public func addMember(_ user: UserID, to conversation: ConversationID) async throws {
        try await transaction { connection in
            guard try await !connection.rows("SELECT 1 FROM users WHERE id = \(user.description)", logger: self.logger).isEmpty else {
                throw StoreError(.notFound, "There is no such user.")
            }
            let inserted = try await connection.rows("""
                INSERT INTO members (conversation_id, user_id, joined_at, last_read_seq)
                SELECT id, \(user.description), \(Timestamp(Timestamp.now())), last_seq FROM conversations WHERE id = \(conversation.description)
                ON CONFLICT (conversation_id, user_id) DO NOTHING
                RETURNING 1
                """, logger: self.logger)
            if inserted.isEmpty,
               try await connection.rows("SELECT 1 FROM conversations WHERE id = \(conversation.description)", logger: self.logger).isEmpty
            {
                throw StoreError(.notFound, "There is no such conversation.")
            }
        }
    }

    public func removeMember(_ user: UserID, from conversation: ConversationID) async throws {
        let id = conversation.description
        try await transaction { connection in
            // Serializes removals in this conversation, so two admins leaving at once leave one behind.
            try await connection.rows("SELECT 1 FROM conversations WHERE id = \(id) FOR UPDATE", logger: self.logger)
            try await connection.rows(
                "DELETE FROM members WHERE conversation_id = \(id) AND user_id = \(user.description)", logger: self.logger)
            // A group never stays without an admin: the longest-standing member becomes one.
            try await connection.rows("""
                UPDATE members SET is_admin = true WHERE conversation_id = \(id) AND join_order = (
                    SELECT join_order FROM members WHERE conversation_id = \(id) ORDER BY joined_at, join_order LIMIT 1
                ) AND (SELECT is_group FROM conversations WHERE id = \(id))
                AND NOT EXISTS (SELECT 1 FROM members WHERE conversation_id = \(id) AND is_admin)
                """, logger: self.logger)
            // A group everyone left keeps no photo (its upload is its owner's again).
            try await connection.rows(
                "UPDATE conversations SET photo = NULL WHERE id = \(id) AND NOT EXISTS (SELECT 1 FROM members WHERE conversation_id = \(id))",
                logger: self.logger)
        }
    }

    public func setAdmin(_ user: UserID, _ isAdmin: Bool, in conversation: ConversationID, by actor: UserID) async throws -> AdminChange {
        let id = conversation.description
        return try await transaction { connection in
            // Serializes admin changes and removals in this conversation: two admins demoting each
            // other at once cannot both pass the last-admin check.
            try await connection.rows("SELECT 1 FROM conversations WHERE id = \(id) FOR UPDATE", logger: self.logger)
            func holdsAdmin(_ member: UserID) async throws -> Bool {
                try await !connection.rows(
                    "SELECT 1 FROM members WHERE conversation_id = \(id) AND user_id = \(member.description) AND is_admin", logger: self.logger
                ).isEmpty
            }
            guard try await holdsAdmin(actor) else { return .actorNotAdmin }
            if !isAdmin, try await holdsAdmin(user) {
                let admins = try await connection.rows(
                    "SELECT count(*) FROM members WHERE conversation_id = \(id) AND is_admin", logger: self.logger
                ).first?.decode(Int64.self) ?? 0
                guard admins > 1 else { return .lastAdmin }
            }
            try await connection.rows(
                "UPDATE members SET is_admin = \(isAdmin) WHERE conversation_id = \(id) AND user_id = \(user.description)", logger: self.logger)
            return .done
        }
    }

    public func setPhoto(_ hash: String?, of conversation: ConversationID) async throws {
        _ = try await query("UPDATE conversations SET photo = \(hash) WHERE id = \(conversation.description)")
    }

    public func setTitle(_ title: String?, of conversation: ConversationID) async throws {
        _ = try await query("UPDATE conversations SET title = \(title) WHERE id = \(conversation.description)")
    }
}
