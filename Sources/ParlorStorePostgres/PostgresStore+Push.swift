import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func addPushSubscription(_ subscription: PushSubscriptionRecord, keepingAtMost limit: Int) async throws {
        let s = subscription
        let logger = self.logger
        try await transaction { connection in
            // The person's row locked first: two devices subscribing at once both count the other.
            // One row per endpoint: a browser subscribing again (for any account) takes its row over.
            try await connection.rows("SELECT 1 FROM users WHERE id = \(s.user.description) FOR UPDATE", logger: logger)
            try await connection.rows("""
                INSERT INTO push_subscriptions (id, user_id, token_hash, endpoint, public_key, auth_secret, device, created_at)
                VALUES (\(s.id), \(s.user.description), \(s.tokenHash), \(s.endpoint), \(s.publicKey), \(s.authSecret), \(s.device), \(Timestamp(s.createdAt)))
                ON CONFLICT (endpoint) DO UPDATE SET id = EXCLUDED.id, user_id = EXCLUDED.user_id, token_hash = EXCLUDED.token_hash,
                    public_key = EXCLUDED.public_key, auth_secret = EXCLUDED.auth_secret, device = EXCLUDED.device, created_at = EXCLUDED.created_at
                """, logger: logger)
            try await connection.rows("""
                DELETE FROM push_subscriptions WHERE user_id = \(s.user.description) AND id NOT IN (
                    SELECT id FROM push_subscriptions WHERE user_id = \(s.user.description) ORDER BY created_at DESC, id LIMIT \(limit))
                """, logger: logger)
        }
    }

    public func pushSubscriptions(of users: [UserID], now: Date) async throws -> [PushSubscriptionRecord] {
        guard !users.isEmpty else { return [] }
        let rows = try await query("""
            SELECT p.id, p.user_id, p.token_hash, p.endpoint, p.public_key, p.auth_secret, p.device, p.created_at, u.push_shows_text
            FROM push_subscriptions p JOIN users u ON u.id = p.user_id JOIN auth_tokens t ON t.hash = p.token_hash
            WHERE p.user_id = ANY(\(users.map(\.description))) AND t.expires_at > \(Timestamp(now)) ORDER BY p.created_at, p.id
            """)
        return try rows.compactMap { row in
            let (id, user, token, endpoint, key, auth, device, created, showsText) =
                try row.decode((String, String, String, String, String, String, String, Timestamp, Bool).self)
            return UserID(user).map {
                PushSubscriptionRecord(
                    id: id, user: $0, tokenHash: token, endpoint: endpoint, publicKey: key, authSecret: auth, device: device,
                    createdAt: created.date, showsText: showsText)
            }
        }
    }

    public func removePushSubscription(id: String, user: UserID) async throws -> Bool {
        try await !query("DELETE FROM push_subscriptions WHERE id = \(id) AND user_id = \(user.description) RETURNING 1").isEmpty
    }

    public func removePushSubscription(endpoint: String) async throws {
        _ = try await query("DELETE FROM push_subscriptions WHERE endpoint = \(endpoint)")
    }

    public func pushShowsText(_ user: UserID) async throws -> Bool {
        try await query("SELECT push_shows_text FROM users WHERE id = \(user.description)").first?.decode(Bool.self) ?? true
    }

    public func setPushShowsText(_ showsText: Bool, user: UserID) async throws {
        _ = try await query("UPDATE users SET push_shows_text = \(showsText) WHERE id = \(user.description)")
    }
}
