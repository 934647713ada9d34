import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func createUser(username: String, displayName: String, passwordHash: String) async throws -> User {
        let user = User(id: UserID(), username: username, displayName: displayName, createdAt: Self.now())
        do {
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO users (id, username, username_key, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [user.id.description, username, UsernameKey.of(username), displayName, passwordHash, Self.time(user.createdAt)])
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreError(.conflict, "The username '\(username)' is taken, or looks like one that is.")
        } catch {
            throw StoreError(.unavailable, "The account could not be created: \(Self.describe(error))")
        }
        return user
    }

    public func credentials(username: String) async throws -> (user: User, passwordHash: String)? {
        try await read { db in
            guard let row = try UserRow.fetchOne(db, sql: "SELECT * FROM users WHERE username = ?", arguments: [username]) else { return nil }
            return (try row.user(), row.passwordHash)
        }
    }

    public func user(id: UserID) async throws -> User? {
        try await read { db in
            try UserRow.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id.description]).map { try $0.user() }
        }
    }

    public func users(ids: [UserID]) async throws -> [User] {
        guard !ids.isEmpty else { return [] }
        return try await read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
            return try UserRow.fetchAll(db, sql: "SELECT * FROM users WHERE id IN (\(marks))", arguments: StatementArguments(ids.map(\.description)))
                .map { try $0.user() }
        }
    }

    public func allUsers() async throws -> [User] {
        try await read { db in try UserRow.fetchAll(db, sql: "SELECT * FROM users ORDER BY username").map { try $0.user() } }
    }

    public func deleteUser(id: UserID) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id.description])
            guard db.changesCount > 0 else { throw StoreError(.notFound, "There is no such user.") }
            // What only that user had goes with the account; messages they sent stay.
            for table in ["staged", "app_instances", "app_participants", "app_containers", "drawers", "expiring_reads"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [id.description])
            }
        }
        participantIDs.forget(user: id)
        composeFields.forget { $0.user == id }
    }

    public func createToken(hash: String, user: UserID, expiresAt: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO auth_tokens (hash, user_id, expires_at) VALUES (?, ?, ?)",
                arguments: [hash, user.description, Self.time(expiresAt)])
        }
    }

    public func user(tokenHash: String, now: Date) async throws -> User? {
        try await read { db in
            try UserRow.fetchOne(
                db, sql: "SELECT users.* FROM auth_tokens JOIN users ON users.id = auth_tokens.user_id WHERE hash = ? AND expires_at > ?",
                arguments: [tokenHash, Self.time(now)]
            ).map { try $0.user() }
        }
    }

    public func deleteToken(hash: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM auth_tokens WHERE hash = ?", arguments: [hash]) }
    }

    public func deleteTokens(of user: UserID, keeping: String?) async throws -> [String] {
        try await write { db in try Self.deleteTokens(of: user, keeping: keeping, in: db) }
    }

    public func changePassword(hash: String, of user: UserID, keeping: String?) async throws -> [String] {
        try await write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [hash, user.description])
            guard db.changesCount > 0 else { throw StoreError(.notFound, "There is no such user.") }
            return try Self.deleteTokens(of: user, keeping: keeping, in: db)
        }
    }

    private static func deleteTokens(of user: UserID, keeping: String?, in db: Database) throws -> [String] {
        try String.fetchAll(
            db, sql: "DELETE FROM auth_tokens WHERE user_id = ? AND hash IS NOT ? RETURNING hash", arguments: [user.description, keeping])
    }

    public func liveTokens(among hashes: [String], now: Date) async throws -> Set<String> {
        guard !hashes.isEmpty else { return [] }
        return try await read { db in
            var live: Set<String> = []
            // SQLite takes at most 32,766 arguments; a few hundred at a time keeps each statement small.
            for start in stride(from: 0, to: hashes.count, by: 500) {
                let chunk = Array(hashes[start..<min(start + 500, hashes.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                live.formUnion(try String.fetchAll(
                    db, sql: "SELECT hash FROM auth_tokens WHERE expires_at > ? AND hash IN (\(marks))",
                    arguments: StatementArguments([Self.time(now)] + chunk)))
            }
            return live
        }
    }

    public func secret(named name: String, candidate: [UInt8]) async throws -> [UInt8] {
        try await write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO server_secrets (name, value) VALUES (?, ?)", arguments: [name, Data(candidate)])
            guard let stored = try Data.fetchOne(db, sql: "SELECT value FROM server_secrets WHERE name = ?", arguments: [name]) else {
                throw StoreError(.unavailable, "The secret \(name) could not be stored.")
            }
            return [UInt8](stored)
        }
    }
}
