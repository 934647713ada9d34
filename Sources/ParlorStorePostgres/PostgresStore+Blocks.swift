import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func setBlocked(_ isBlocked: Bool, _ blocked: UserID, by blocker: UserID, at date: Date) async throws {
        let (blocker, blocked) = (blocker.description, blocked.description)
        guard isBlocked else {
            _ = try await query("DELETE FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked)")
            return
        }
        let logger = self.logger
        try await transaction { connection in
            // Both people's rows locked (in id order, so two blocks between the same two people
            // cannot deadlock): two blocks at once from one person's devices wait for each other,
            // so they cannot both pass the count, and neither account goes meanwhile.
            let people = try await connection.rows(
                "SELECT id FROM users WHERE id = ANY(\([blocker, blocked])) ORDER BY id FOR UPDATE", logger: logger)
            let found = Set(try people.map { try $0.decode(String.self) })
            guard found.contains(blocker), found.contains(blocked) else { throw StoreError(.notFound, "There is no such user.") }
            let count = try await connection.rows(
                "SELECT COUNT(*) FROM blocks WHERE blocker_id = \(blocker) AND blocked_id <> \(blocked)", logger: logger
            ).first?.decode(Int.self) ?? 0
            guard count < BlockList.maxBlocked else { throw StoreError(.full, "At most \(BlockList.maxBlocked) people can be blocked.") }
            try await connection.rows("""
                INSERT INTO blocks (blocker_id, blocked_id, blocked_at) VALUES (\(blocker), \(blocked), \(Timestamp(date)))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    public func blocks(of user: UserID) async throws -> BlockList {
        let rows = try await query("""
            SELECT blocker_id, blocked_id FROM blocks WHERE blocker_id = \(user.description) OR blocked_id = \(user.description)
            ORDER BY blocked_at DESC, blocked_id
            """)
        var list = BlockList()
        for row in rows {
            let (blocker, blocked) = try row.decode((String, String).self)
            guard let blocker = UserID(blocker), let blocked = UserID(blocked) else { continue }
            if blocker == user { list.blocked.append(blocked) } else { list.blockedBy.insert(blocker) }
        }
        return list
    }
}
