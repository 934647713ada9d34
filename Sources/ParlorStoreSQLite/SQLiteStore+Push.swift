import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func addPushSubscription(_ subscription: PushSubscriptionRecord, keepingAtMost limit: Int) async throws {
        let s = subscription
        try await write { db in
            try db.execute(sql: "DELETE FROM push_subscriptions WHERE endpoint = ?", arguments: [s.endpoint])
            try db.execute(
                sql: """
                    INSERT INTO push_subscriptions (id, user_id, token_hash, endpoint, public_key, auth_secret, device, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [s.id, s.user.description, s.tokenHash, s.endpoint, s.publicKey, s.authSecret, s.device, Self.time(s.createdAt)])
            try db.execute(
                sql: """
                    DELETE FROM push_subscriptions WHERE user_id = ?1 AND id NOT IN (
                        SELECT id FROM push_subscriptions WHERE user_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT ?2)
                    """,
                arguments: [s.user.description, limit])
        }
    }

    public func pushSubscriptions(of users: [UserID], now: Date) async throws -> [PushSubscriptionRecord] {
        guard !users.isEmpty else { return [] }
        // Asked for every message with someone offline: one statement, prepared once per
        // connection, with the users as a JSON array (a list of `?` made a new statement each
        // time, and preparing it was 12% of the durable bench's profile).
        let ids = "[" + users.map { "\"\($0.description)\"" }.joined(separator: ",") + "]"
        return try await read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT p.id, p.user_id, p.token_hash, p.endpoint, p.public_key, p.auth_secret, p.device, p.created_at, u.push_shows_text
                    FROM push_subscriptions p JOIN users u ON u.id = p.user_id JOIN auth_tokens t ON t.hash = p.token_hash
                    WHERE p.user_id IN (SELECT value FROM json_each(?)) AND t.expires_at > ? ORDER BY p.created_at, p.rowid
                    """),
                arguments: [ids, Self.time(now)])
            return rows.compactMap { row in
                guard let user = UserID(row[1] as String) else { return nil }
                return PushSubscriptionRecord(
                    id: row[0], user: user, tokenHash: row[2], endpoint: row[3], publicKey: row[4], authSecret: row[5], device: row[6],
                    createdAt: Self.date(row[7]), showsText: row[8])
            }
        }
    }

    public func removePushSubscription(id: String, user: UserID) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_subscriptions WHERE id = ? AND user_id = ?", arguments: [id, user.description])
            return db.changesCount > 0
        }
    }

    public func removePushSubscription(endpoint: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM push_subscriptions WHERE endpoint = ?", arguments: [endpoint]) }
    }

    public func pushShowsText(_ user: UserID) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT push_shows_text FROM users WHERE id = ?", arguments: [user.description]) ?? true
        }
    }

    public func setPushShowsText(_ showsText: Bool, user: UserID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE users SET push_shows_text = ? WHERE id = ?", arguments: [showsText, user.description])
        }
    }
}
