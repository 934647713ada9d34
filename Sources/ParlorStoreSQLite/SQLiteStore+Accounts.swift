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
}
