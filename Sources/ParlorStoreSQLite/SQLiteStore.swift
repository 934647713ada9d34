import Foundation
import GRDB
import Logging
import ParlorKit
import ParlorStore

/// The embedded store: one SQLite database in WAL mode.
///
/// Appends arriving together are committed in one transaction (group commit), so with
/// `synchronous = FULL` many messages share one fsync while each is still durable before
/// `append` returns.
///
/// ```swift
/// let store = try SQLiteStore(path: dataDirectory.appendingPathComponent("parlor.sqlite").path, logger: logger)
/// ```
public final class SQLiteStore: ParlorStore {
    /// How SQLite syncs commits to disk.
    public enum Durability: String, Sendable, CaseIterable {
        /// fsync on every commit: an acknowledged message survives power loss.
        case full
        /// fsync at checkpoints: survives a killed process, may lose the last commits on power loss.
        case normal

        var pragma: String { "PRAGMA synchronous = \(self == .full ? "FULL" : "NORMAL")" }
    }

    let pool: DatabasePool
    let durability: Durability
    let batcher: GroupCommitQueue<AppendRequest, CommitBatcher.Appended>
    let logger: Logger
    let participantIDs = ParticipantIDCache()
    let recentAppMessages = RecentAppMessages()
    let composeFields = ComposeFields()

    /// Opens (creating and migrating when needed) the database at `path`; `":memory:"` is not
    /// supported (WAL needs a file).
    public init(path: String, durability: Durability = .full, logger: Logger) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: durability.pragma)
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // GRDB sets `synchronous = NORMAL` on the writer when it turns on WAL, after
            // `prepareDatabase` ran: set the durability again on the one writer connection.
            try pool.writeWithoutTransaction { db in try db.execute(sql: durability.pragma) }
            try SQLiteSchema.migrator.migrate(pool)
        } catch {
            throw StoreError(.unavailable, "The database at \(path) could not be opened: \(Self.describe(error))")
        }
        self.logger = logger
        self.durability = durability
        self.batcher = CommitBatcher.queue(pool: pool, recent: recentAppMessages, fields: composeFields, logger: logger)
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode)" }
        return "\(error)"
    }

    /// Runs a read, mapping database errors to `StoreError`.
    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "The database could not be read: \(Self.describe(error))")
        }
    }

    /// Runs a write transaction, mapping database errors to `StoreError`. A transaction that need
    /// not wait for the disk (`synced: false`) commits with `synchronous = NORMAL`: in WAL mode it
    /// is on disk once the next synced commit is, since that sync covers the whole log.
    func write<T: Sendable>(synced: Bool = true, _ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            if synced || durability == .normal { return try await pool.write(body) }
            return try await pool.writeWithoutTransaction { db in
                try db.cachedStatement(sql: Durability.normal.pragma).execute()
                defer {
                    // Left at NORMAL, the next commits would not be synced: a failure here is the database failing.
                    do {
                        try db.cachedStatement(sql: self.durability.pragma).execute()
                    } catch {
                        self.logger.critical("Could not restore synchronous = FULL: \(error)")
                    }
                }
                var value: T?
                try db.inTransaction {
                    value = try body(db)
                    return .commit
                }
                guard let value else { throw StoreError(.unavailable, "The database could not be written.") }
                return value
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreError(.conflict, "That already exists.")
        } catch {
            throw StoreError(.unavailable, "The database could not be written: \(Self.describe(error))")
        }
    }
}

// MARK: Columns

extension SQLiteStore {
    static func time(_ date: Date) -> Double { date.timeIntervalSince1970 }
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    /// The current time as it reads back from a column: converting to seconds since 1970 rounds
    /// away the last bit about half the time, so a value returned from a write would otherwise
    /// differ from the same value read later.
    static func now() -> Date { date(time(Date())) }

    static func encode<T: Encodable>(_ value: T) throws -> String { try RowCodec.json(value) }
}
