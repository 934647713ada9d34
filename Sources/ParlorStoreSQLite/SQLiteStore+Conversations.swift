import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func createConversation(title: String?, isGroup: Bool, members: [UserID]) async throws -> ConversationRecord {
        let id = ConversationID()
        let now = Self.now()
        var seen = Set<UserID>()
        let unique = members.filter { seen.insert($0).inserted }
        try await write { db in
            for member in unique where try Row.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [member.description]) == nil {
                throw StoreError(.notFound, "A member of the new conversation does not exist.")
            }
            try db.execute(
                sql: "INSERT INTO conversations (id, title, is_group, created_at, last_activity) VALUES (?, ?, ?, ?, ?)",
                arguments: [id.description, title, isGroup, Self.time(now), Self.time(now)])
            for (index, member) in unique.enumerated() {
                try db.execute(
                    sql: "INSERT INTO members (conversation_id, user_id, joined_at, is_admin) VALUES (?, ?, ?, ?)",
                    arguments: [id.description, member.description, Self.time(now), isGroup && index == 0])
            }
        }
        return ConversationRecord(
            id: id, title: title, isGroup: isGroup, createdAt: now, members: unique, lastSequence: 0,
            admins: isGroup ? Array(unique.prefix(1)) : [])
    }

    public func conversation(id: ConversationID) async throws -> ConversationRecord? {
        try await read { db in try Self.conversation(db, id: id.description) }
    }

    static func conversation(_ db: Database, id: String) throws -> ConversationRecord? {
        guard let row = try ConversationRow.fetchOne(db.cachedStatement(sql: "SELECT * FROM conversations WHERE id = ?"), arguments: [id])
        else { return nil }
        let members = try MemberRow.fetchAll(
            db.cachedStatement(sql: "SELECT user_id, is_admin FROM members WHERE conversation_id = ? ORDER BY joined_at, rowid"), arguments: [id])
        return row.record(members: members)
    }

    public func conversations(of user: UserID) async throws -> [ConversationSummary] {
        try await summaries(of: user, only: nil)
    }

    public func conversationSummary(_ conversation: ConversationID, for user: UserID) async throws -> ConversationSummary? {
        try await summaries(of: user, only: conversation).first
    }

    /// The user's conversation summaries, most recently active first; only one when `only` names it.
    private func summaries(of user: UserID, only conversation: ConversationID?) async throws -> [ConversationSummary] {
        try await read { db in
            // Cached statements, as for every statement on a hot path: GRDB's authorizer runs at
            // each compilation, a tenth of the CPU of a read before.
            let rows = try SummaryRow.fetchAll(
                db.cachedStatement(sql: """
                    SELECT c.id,
                        (SELECT COUNT(*) FROM messages x WHERE x.conversation_id = c.id AND x.seq > MAX(m.last_read_seq, IFNULL(m.deleted_through, 0)) AND x.sender_id != m.user_id AND x.kind != 'event') AS unread,
                        (SELECT COUNT(*) FROM mentions x WHERE x.conversation_id = c.id AND x.user_id = m.user_id AND x.seq > MAX(m.last_read_seq, IFNULL(m.deleted_through, 0))) AS mentions,
                        m.muted, m.pinned_at AS pinnedAt, m.archived_through AS archivedThrough, m.marked_unread AS markedUnread,
                        m.deleted_through AS deletedThrough
                    FROM members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.user_id = ? AND (? IS NULL OR c.id = ?) ORDER BY c.last_activity DESC
                    """), arguments: [user.description, conversation?.description, conversation?.description])
            return try rows.compactMap { row -> ConversationSummary? in
                guard let record = try Self.conversation(db, id: row.id) else { return nil }
                let last = try MessageRow.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1"), arguments: [row.id]
                ).map { try $0.stored() }
                return ConversationSummary(conversation: record, unreadCount: row.unread, lastMessage: last, place: row.place, unreadMentions: row.mentions)
            }
        }
    }

    public func changeList(_ change: ListChange, user: UserID, conversation: ConversationID, at date: Date) async throws {
        let member: StatementArguments = [conversation.description, user.description]
        try await write { db in
            let (sql, arguments): (String, StatementArguments) = switch change {
            // Muting an archived conversation that a message brought back leaves it in the list:
            // only a mute in place when the message came keeps it archived.
            case .mute(let on):
                (
                    "muted = ?, archived_through = CASE WHEN ? AND archived_through < (SELECT last_message_seq FROM conversations WHERE id = ?) THEN NULL ELSE archived_through END",
                    [on, on, conversation.description]
                )
            // A pin keeps its place in the order when pinned again.
            case .pin(let on): ("pinned_at = CASE WHEN ? THEN COALESCE(pinned_at, ?) END", [on, Self.time(date)])
            case .archive(let on):
                ("archived_through = CASE WHEN ? THEN (SELECT last_seq FROM conversations WHERE id = ?) END", [on, conversation.description])
            case .markUnread(let on): ("marked_unread = ?", [on])
            case .deleteHistory(let through):
                (
                    """
                    deleted_through = MIN(IFNULL(?, 9223372036854775807), (SELECT last_seq FROM conversations WHERE id = ?)),
                        pinned_at = NULL, archived_through = NULL, marked_unread = 0
                    """,
                    [through, conversation.description]
                )
            }
            if case .pin(true) = change {
                let pinned = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM members WHERE user_id = ? AND pinned_at IS NOT NULL AND conversation_id != ?",
                    arguments: [user.description, conversation.description]) ?? 0
                guard pinned < ListPlace.maxPinned else { throw StoreError(.full, "At most \(ListPlace.maxPinned) conversations can be pinned.") }
            }
            try db.execute(sql: "UPDATE members SET \(sql) WHERE conversation_id = ? AND user_id = ?", arguments: arguments + member)
            guard db.changesCount > 0 else { throw StoreError(.notFound, "There is no such conversation.") }
        }
    }

    public func mutedMembers(of conversation: ConversationID) async throws -> Set<UserID> {
        try await read { db in
            Set(try String.fetchAll(db, sql: "SELECT user_id FROM members WHERE conversation_id = ? AND muted", arguments: [conversation.description])
                .compactMap(UserID.init(_:)))
        }
    }

    public func addMember(_ user: UserID, to conversation: ConversationID) async throws {
        try await write { db in
            guard try Row.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [user.description]) != nil else {
                throw StoreError(.notFound, "There is no such user.")
            }
            let seq = try Int64.fetchOne(db, sql: "SELECT last_seq FROM conversations WHERE id = ?", arguments: [conversation.description])
            guard let seq else { throw StoreError(.notFound, "There is no such conversation.") }
            try db.execute(
                sql: "INSERT OR IGNORE INTO members (conversation_id, user_id, joined_at, last_read_seq) VALUES (?, ?, ?, ?)",
                arguments: [conversation.description, user.description, Self.time(Date()), seq])
        }
    }

    public func removeMember(_ user: UserID, from conversation: ConversationID) async throws {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM members WHERE conversation_id = ? AND user_id = ?",
                arguments: [conversation.description, user.description])
            // A group never stays without an admin: the longest-standing member becomes one.
            try db.execute(
                sql: """
                    UPDATE members SET is_admin = 1 WHERE rowid = (
                        SELECT rowid FROM members WHERE conversation_id = ?1 ORDER BY joined_at, rowid LIMIT 1
                    ) AND (SELECT is_group FROM conversations WHERE id = ?1) = 1
                    AND NOT EXISTS (SELECT 1 FROM members WHERE conversation_id = ?1 AND is_admin = 1)
                    """,
                arguments: [conversation.description])
            // A group everyone left keeps no photo (its upload is its owner's again).
            try db.execute(
                sql: "UPDATE conversations SET photo = NULL WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM members WHERE conversation_id = ?1)",
                arguments: [conversation.description])
        }
    }

    public func setAdmin(_ user: UserID, _ isAdmin: Bool, in conversation: ConversationID, by actor: UserID) async throws -> AdminChange {
        try await write { db in
            let id = conversation.description
            let adminSQL = "SELECT 1 FROM members WHERE conversation_id = ? AND user_id = ? AND is_admin = 1"
            guard try Row.fetchOne(db, sql: adminSQL, arguments: [id, actor.description]) != nil else { return .actorNotAdmin }
            if !isAdmin, try Row.fetchOne(db, sql: adminSQL, arguments: [id, user.description]) != nil {
                let admins = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM members WHERE conversation_id = ? AND is_admin = 1", arguments: [id]) ?? 0
                guard admins > 1 else { return .lastAdmin }
            }
            try db.execute(
                sql: "UPDATE members SET is_admin = ? WHERE conversation_id = ? AND user_id = ?", arguments: [isAdmin, id, user.description])
            return .done
        }
    }

    public func setPhoto(_ hash: String?, of conversation: ConversationID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE conversations SET photo = ? WHERE id = ?", arguments: [hash, conversation.description])
        }
    }

    public func setTitle(_ title: String?, of conversation: ConversationID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE conversations SET title = ? WHERE id = ?", arguments: [title, conversation.description])
        }
    }
}
