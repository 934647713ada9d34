import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func setBlocked(_ isBlocked: Bool, _ blocked: UserID, by blocker: UserID, at date: Date) async throws {
        let pair: StatementArguments = [blocker.description, blocked.description]
        try await write { db in
            guard isBlocked else {
                try db.execute(sql: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", arguments: pair)
                return
            }
            let people = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE id IN (?, ?)", arguments: pair) ?? 0
            guard people == Set([blocker, blocked]).count else { throw StoreError(.notFound, "There is no such user.") }
            let count = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM blocks WHERE blocker_id = ? AND blocked_id != ?", arguments: pair) ?? 0
            guard count < BlockList.maxBlocked else { throw StoreError(.full, "At most \(BlockList.maxBlocked) people can be blocked.") }
            try db.execute(
                sql: "INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, blocked_at) VALUES (?, ?, ?)",
                arguments: pair + [Self.time(date)])
        }
    }

    public func blocks(of user: UserID) async throws -> BlockList {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT blocker_id, blocked_id FROM blocks WHERE blocker_id = ?1 OR blocked_id = ?1 ORDER BY blocked_at DESC, rowid DESC",
                arguments: [user.description])
            var list = BlockList()
            for row in rows {
                guard let blocker = UserID(row[0] as String), let blocked = UserID(row[1] as String) else { continue }
                if blocker == user { list.blocked.append(blocked) } else { list.blockedBy.insert(blocker) }
            }
            return list
        }
    }
}
