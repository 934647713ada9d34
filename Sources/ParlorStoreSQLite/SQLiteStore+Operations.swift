import Foundation
import GRDB
import ParlorStore

extension SQLiteStore {
    public func unreadiness() async -> String? {
        do {
            let migrated = try await withDeadline(.seconds(3)) {
                try await self.pool.read { db in try SQLiteSchema.migrator.hasCompletedMigrations(db) }
            }
            return migrated ? nil : "The database's schema is not up to date; restart the server to migrate it."
        } catch {
            return "The database cannot be read: \(Self.describe(error))."
        }
    }

    public func observeCommits(_ observer: @escaping CommitObserver) {
        batcher.observe(observer)
    }

    /// Writes a consistent snapshot of the database at `path` (which a running server may be
    /// writing) to a new database at `destination`, with SQLite's online backup: every
    /// transaction committed before it began is in the copy (its WAL included), none half. The
    /// copy is readable by its owner only: it holds private messages and password hashes.
    /// - Throws: `StoreError(.notFound)` when there is no database at `path`;
    ///   `StoreError(.unavailable)` when it cannot be read or the copy written.
    public static func backup(databaseAt path: String, to destination: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.notFound, "There is no database at \(path).")
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.readonly = true
            let source = try DatabaseQueue(path: path, configuration: configuration)
            guard FileManager.default.createFile(atPath: destination, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw StoreError(.unavailable, "\(destination) cannot be created.")
            }
            let copy = try DatabaseQueue(path: destination)
            try source.backup(to: copy)
            try copy.close()
            try source.close()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "The backup could not be made: \(describe(error)).")
        }
    }

    /// Checks that the database at `path` is a whole Parlor database (a restore's source).
    /// - Throws: `StoreError(.invalid)` when it is not.
    public static func verify(databaseAt path: String) throws {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let (check, migrations, newer) = try queue.read { db in
                (try String.fetchOne(db, sql: "PRAGMA quick_check"), try SQLiteSchema.migrator.completedMigrations(db),
                 try SQLiteSchema.migrator.hasBeenSuperseded(db))
            }
            try queue.close()
            guard check == "ok" else { throw StoreError(.invalid, "\(path) is damaged (\(check ?? "no answer")).") }
            guard !migrations.isEmpty else { throw StoreError(.invalid, "\(path) is not a Parlor database.") }
            guard !newer else { throw StoreError(.invalid, "\(path) comes from a newer Parlor; restore it with that version.") }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.invalid, "\(path) is not a Parlor database: \(describe(error)).")
        }
    }
}
