import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func readReceipts(in conversation: ConversationID, of user: UserID?) async throws -> [ReadReceiptRecord] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT m.user_id, m.last_read_seq, m.last_read_at FROM members m JOIN users u ON u.id = m.user_id
                    WHERE m.conversation_id = ? AND m.user_id = coalesce(?, m.user_id) AND u.shares_read_receipts = 1
                    ORDER BY m.joined_at, m.rowid
                    """),
                arguments: [conversation.description, user?.description]
            ).compactMap { row in
                guard let user = UserID(row[0] as String) else { return nil }
                return ReadReceiptRecord(user: user, sequence: row[1], readAt: (row[2] as Double?).map(Self.date))
            }
        }
    }

    public func sharesReadReceipts(_ user: UserID) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT shares_read_receipts FROM users WHERE id = ?"), arguments: [user.description]) ?? true
        }
    }

    public func setSharesReadReceipts(_ shares: Bool, user: UserID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE users SET shares_read_receipts = ? WHERE id = ?", arguments: [shares, user.description])
        }
    }

    public func setAvatar(_ hash: String?, user: UserID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE users SET avatar = ? WHERE id = ?", arguments: [hash, user.description])
        }
    }

    public func setAbout(_ about: String?, user: UserID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE users SET about = ? WHERE id = ?", arguments: [about, user.description])
        }
    }

    public func setDisplayName(_ name: String, user: UserID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE users SET display_name = ? WHERE id = ?", arguments: [name, user.description])
            guard db.changesCount > 0 else { throw StoreError(.notFound, "There is no such user.") }
        }
    }
}
