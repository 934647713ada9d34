import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func readReceipts(in conversation: ConversationID, of user: UserID?) async throws -> [ReadReceiptRecord] {
        let rows = try await query("""
            SELECT m.user_id, m.last_read_seq, m.last_read_at FROM members m JOIN users u ON u.id = m.user_id
            WHERE m.conversation_id = \(conversation.description) AND m.user_id = coalesce(\(user?.description), m.user_id)
            AND u.shares_read_receipts ORDER BY m.joined_at, m.join_order
            """)
        return try rows.compactMap { row in
            let (user, sequence, readAt) = try Self.readable { try row.decode((String, Int64, Timestamp?).self) }
            return UserID(user).map { ReadReceiptRecord(user: $0, sequence: sequence, readAt: readAt?.date) }
        }
    }

    public func sharesReadReceipts(_ user: UserID) async throws -> Bool {
        try await query("SELECT shares_read_receipts FROM users WHERE id = \(user.description)").first?.decode(Bool.self) ?? true
    }

    public func setSharesReadReceipts(_ shares: Bool, user: UserID) async throws {
        _ = try await query("UPDATE users SET shares_read_receipts = \(shares) WHERE id = \(user.description)")
    }

    public func setAvatar(_ hash: String?, user: UserID) async throws {
        _ = try await query("UPDATE users SET avatar = \(hash) WHERE id = \(user.description)")
    }

    public func setAbout(_ about: String?, user: UserID) async throws {
        _ = try await query("UPDATE users SET about = \(about) WHERE id = \(user.description)")
    }

    public func setDisplayName(_ name: String, user: UserID) async throws {
        let updated = try await query("UPDATE users SET display_name = \(name) WHERE id = \(user.description) RETURNING 1")
        guard !updated.isEmpty else { throw StoreError(.notFound, "There is no such user.") }
    }
}
