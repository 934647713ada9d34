import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func createUser(username: String, displayName: String, passwordHash: String) async throws -> User {
        let user = User(id: UserID(), username: username, displayName: displayName, createdAt: Timestamp.now())
        do {
            _ = try await query("""
                INSERT INTO users (id, username, username_key, display_name, password_hash, created_at)
                VALUES (\(user.id.description), \(username), \(UsernameKey.of(username)), \(displayName), \(passwordHash), \(Timestamp(user.createdAt)))
                """)
        } catch let error as StoreError where error.code == .conflict {
            throw StoreError(.conflict, "The username '\(username)' is taken, or looks like one that is.")
        }
        return user
    }

    public func credentials(username: String) async throws -> (user: User, passwordHash: String)? {
        let rows = try await query("""
            SELECT \(unescaped: Self.userColumns), password_hash FROM users WHERE lower(username COLLATE "C") = lower(\(username) COLLATE "C")
            """)
        guard let row = rows.first else { return nil }
        return (try Self.decodeUser(row), try row.makeRandomAccess()[Self.userColumnCount].decode(String.self))
    }

    public func user(id: UserID) async throws -> User? {
        try await query("SELECT \(unescaped: Self.userColumns) FROM users WHERE id = \(id.description)").first.map(Self.decodeUser)
    }

    public func users(ids: [UserID]) async throws -> [User] {
        guard !ids.isEmpty else { return [] }
        return try await query("SELECT \(unescaped: Self.userColumns) FROM users WHERE id = ANY(\(ids.map(\.description)))")
            .map(Self.decodeUser)
    }

    public func allUsers() async throws -> [User] {
        try await query(#"SELECT \#(unescaped: Self.userColumns) FROM users ORDER BY lower(username COLLATE "C"), username COLLATE "C""#)
            .map(Self.decodeUser)
    }

    public func deleteUser(id: UserID) async throws {
        let user = id.description
        let logger = self.logger
        try await transaction { connection in
            let deleted = try await connection.rows("DELETE FROM users WHERE id = \(user) RETURNING id", logger: logger)
            guard !deleted.isEmpty else { throw StoreError(.notFound, "There is no such user.") }
            // What only that user had goes with the account; messages they sent stay.
            try await connection.rows("DELETE FROM staged WHERE user_id = \(user)", logger: logger)
            try await connection.rows("DELETE FROM app_instances WHERE user_id = \(user)", logger: logger)
            try await connection.rows("DELETE FROM app_participants WHERE user_id = \(user)", logger: logger)
            try await connection.rows("DELETE FROM app_containers WHERE user_id = \(user)", logger: logger)
            try await connection.rows("DELETE FROM drawers WHERE user_id = \(user)", logger: logger)
            try await connection.rows("DELETE FROM expiring_reads WHERE user_id = \(user)", logger: logger)
        }
        participantIDs.forget(user: id)
    }

    public func createToken(hash: String, user: UserID, expiresAt: Date) async throws {
        _ = try await query("INSERT INTO auth_tokens (hash, user_id, expires_at) VALUES (\(hash), \(user.description), \(Timestamp(expiresAt)))")
    }

    public func user(tokenHash: String, now: Date) async throws -> User? {
        try await query("""
            SELECT \(unescaped: Self.joinedUserColumns)
            FROM auth_tokens JOIN users ON users.id = auth_tokens.user_id
            WHERE auth_tokens.hash = \(tokenHash) AND auth_tokens.expires_at > \(Timestamp(now))
            """).first.map(Self.decodeUser)
    }

    public func deleteToken(hash: String) async throws {
        _ = try await query("DELETE FROM auth_tokens WHERE hash = \(hash)")
    }

    public func deleteTokens(of user: UserID, keeping: String?) async throws -> [String] {
        try await query("DELETE FROM auth_tokens WHERE user_id = \(user.description) AND hash IS DISTINCT FROM \(keeping) RETURNING hash")
            .map { try $0.decode(String.self) }
    }

    public func changePassword(hash: String, of user: UserID, keeping: String?) async throws -> [String] {
        let logger = self.logger
        return try await transaction { connection in
            let changed = try await connection.rows(
                "UPDATE users SET password_hash = \(hash) WHERE id = \(user.description) RETURNING id", logger: logger)
            guard !changed.isEmpty else { throw StoreError(.notFound, "There is no such user.") }
            return try await connection.rows(
                "DELETE FROM auth_tokens WHERE user_id = \(user.description) AND hash IS DISTINCT FROM \(keeping) RETURNING hash", logger: logger
            ).map { try $0.decode(String.self) }
        }
    }

    public func liveTokens(among hashes: [String], now: Date) async throws -> Set<String> {
        guard !hashes.isEmpty else { return [] }
        return Set(try await query("SELECT hash FROM auth_tokens WHERE hash = ANY(\(hashes)) AND expires_at > \(Timestamp(now))")
            .map { try $0.decode(String.self) })
    }

    public func secret(named name: String, candidate: [UInt8]) async throws -> [UInt8] {
        let logger = self.logger
        return try await transaction { connection in
            try await connection.rows(
                "INSERT INTO server_secrets (name, value) VALUES (\(name), \(ByteBuffer(bytes: candidate))) ON CONFLICT (name) DO NOTHING", logger: logger)
            guard let row = try await connection.rows("SELECT value FROM server_secrets WHERE name = \(name)", logger: logger).first else {
                throw StoreError(.unavailable, "The secret \(name) could not be stored.")
            }
            return Array(try row.decode(ByteBuffer.self).readableBytesView)
        }
    }
}
