import Foundation
import Logging
import ParlorKit
import ParlorStore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The store on PostgreSQL, for several `parlor serve` nodes sharing one database.
///
/// Behaves as `SQLiteStore` does (the same suite runs against both): gapless per-conversation
/// sequence numbers however many nodes append at once, idempotent appends, session-head conflicts,
/// `validate` inside the commit, and an append is durable (`synchronous_commit = on`) before it
/// returns. Appends arriving together are committed in one transaction (group commit).
///
/// It is also the nodes' `ClusterBus`: after each group commit it sends one `NOTIFY` naming the
/// committed messages (chunked only when the pointers exceed PostgreSQL's payload limit), and
/// `events()` yields what the other nodes announced.
///
/// Nothing reaches the database until `run()` is running (the store is a `Service`); migrations
/// run on first use, or up front with `migrate()`.
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://parlor@127.0.0.1:5432/parlor", logger: logger)
/// let group = ServiceGroup(services: [store, server], logger: logger)
/// ```
public final class PostgresStore: ParlorStore, ClusterBus, Service {
    /// This node's id, unique among the nodes sharing the database.
    public let nodeID: String
    /// The channel the nodes LISTEN and NOTIFY on.
    public let channel: String

    let client: PostgresClient
    let logger: Logger
    let batcher: PostgresCommitBatcher
    let appendQueue: GroupCommitQueue<AppendRequest, PostgresCommitBatcher.Appended>
    let listener: ClusterListener
    let participantIDs = ParticipantIDCache()
    /// When this node last swept the presence of nodes no longer running (`reportPresence`).
    let presenceSwept = Mutex<ContinuousClock.Instant?>(nil)
    private let gate: MigrationGate

    /// Connects to the database at `url` (`postgres://user:password@host:port/database`, see
    /// `PostgresStore.configuration(url:)` for the options).
    ///
    /// - Throws: `StoreError(.invalid)` when the URL cannot be understood.
    public convenience init(url: String, nodeID: String = UUID().uuidString, channel: String = "parlor_cluster", logger: Logger) throws {
        try self.init(configuration: Self.configuration(url: url), nodeID: nodeID, channel: channel, logger: logger)
    }

    /// Connects with a PostgresNIO client configuration. `synchronous_commit` is forced on.
    ///
    /// - Throws: `StoreError(.invalid)` when `channel` is not a plain identifier.
    public init(
        configuration: PostgresClient.Configuration, nodeID: String = UUID().uuidString, channel: String = "parlor_cluster",
        logger: Logger
    ) throws {
        guard !nodeID.isEmpty, nodeID.utf8.count <= ClusterListener.maxNodeIDBytes else {
            throw StoreError(.invalid, "A node id must be 1 to \(ClusterListener.maxNodeIDBytes) bytes.")
        }
        guard !channel.isEmpty, channel.count <= 63, channel.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw StoreError(.invalid, "The notification channel must be up to 63 letters, digits and underscores.")
        }
        var configuration = configuration
        configuration.options.additionalStartupParameters.removeAll { $0.0 == "synchronous_commit" }
        configuration.options.additionalStartupParameters.append(("synchronous_commit", "on"))
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.nodeID = nodeID
        self.channel = channel
        self.logger = logger
        self.gate = MigrationGate()
        self.batcher = PostgresCommitBatcher(client: client, channel: channel, nodeID: nodeID, logger: logger)
        self.appendQueue = batcher.queue()
        self.listener = ClusterListener(client: client, channel: channel, nodeID: nodeID, logger: logger)
    }

    /// Runs the connection pool and this node's listener until the task is cancelled or a
    /// graceful shutdown starts; then closes the connections and finishes `events()` streams.
    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.client.run() }
            group.addTask { await cancelWhenGracefulShutdown { await self.listener.run() } }
            await group.waitForAll()
        }
    }

    /// Brings the schema up to date (once per store; safe with other nodes doing the same).
    /// Every other call does this first when it has not been done.
    public func migrate() async throws {
        try await gate.pass { try await PostgresSchema.migrate(client: self.client, logger: self.logger) }
    }

    /// How many group commits and notifications this node has made.
    public func commitStatistics() async -> CommitStatistics { await batcher.statistics }
}

/// What one node's group commit has done so far.
public struct CommitStatistics: Sendable, Hashable {
    /// Transactions that committed at least one append.
    public var transactions = 0
    /// Messages committed (duplicates not counted).
    public var messages = 0
    /// `NOTIFY`s sent from those transactions.
    public var notifications = 0
}

// MARK: Running statements

extension PostgresStore {
    /// Runs one statement on a pooled connection and returns its rows.
    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await migrate()
        return try await Self.mapErrors { try await self.client.query(query, logger: self.logger).collect() }
    }

    /// Runs one statement whose commit does not wait for the WAL flush (`ParlorStore`'s writes that
    /// do not wait for the disk): the next synchronous commit flushes it, and every node sees it
    /// at once all the same.
    @discardableResult
    func unsyncedQuery(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await unsynced { connection in try await connection.rows(query, logger: self.logger) }
    }

    /// `body` in one transaction whose commit does not wait for the WAL flush, as `unsyncedQuery`.
    func unsynced<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction { connection in
            try await connection.rows("SET LOCAL synchronous_commit = off", logger: self.logger)
            return try await body(connection)
        }
    }

    /// Runs `body` in one transaction on one connection; rolls back when it throws. A read-only
    /// transaction reads one snapshot throughout (repeatable read).
    func transaction<T: Sendable>(readOnly: Bool = false, _ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await migrate()
        return try await Self.mapErrors {
            try await self.client.withConnection { connection in
                try await Self.inTransaction(connection, readOnly: readOnly, logger: self.logger, body)
            }
        }
    }

    static func inTransaction<T>(
        _ connection: PostgresConnection, readOnly: Bool = false, logger: Logger, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await connection.rows(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", logger: logger)
        let value: T
        do {
            value = try await body(connection)
        } catch {
            _ = try? await connection.rows("ROLLBACK", logger: logger)
            throw error
        }
        try await connection.rows("COMMIT", logger: logger)
        return value
    }

    /// Turns database errors into `StoreError`s: SQL and its arguments never appear in them.
    static func mapErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            throw error
        } catch let error as SessionConflict {
            throw error
        } catch let error as PSQLError {
            throw storeError(error)
        } catch let error as PostgresDecodingError {
            throw StoreError(.unavailable, "A stored value could not be read (column \(error.columnName)).")
        } catch {
            throw StoreError(.unavailable, "The database failed: \(error)")
        }
    }

    static func storeError(_ error: PSQLError) -> StoreError {
        let state = sqlState(error) ?? ""
        switch state {
        case _ where state.hasPrefix("23"): return StoreError(.conflict, "That already exists.")
        case "22021", "22P05": return StoreError(.invalid, "The text holds a character the database cannot store.")
        default:
            if let message = error.serverInfo?[.message] { return StoreError(.unavailable, "The database failed: \(message)") }
            return StoreError(.unavailable, "The database could not be reached (\(error.code)).")
        }
    }

    static func sqlState(_ error: PSQLError) -> String? { error.serverInfo?[.sqlState] }
}

/// Runs the migrations once; a failed run is tried again by the next caller.
final class MigrationGate: Sendable {
    private enum State {
        case idle
        case running(Task<Void, any Error>)
        case done
    }

    private let state = Mutex<State>(.idle)

    func pass(_ work: @escaping @Sendable () async throws -> Void) async throws {
        let task: Task<Void, any Error>? = state.withLock { state in
            switch state {
            case .done: return nil
            case .running(let task): return task
            case .idle:
                let task = Task { try await work() }
                state = .running(task)
                return task
            }
        }
        guard let task else { return }
        do {
            try await task.value
            state.withLock { $0 = .done }
        } catch {
            state.withLock { if case .running = $0 { $0 = .idle } }
            throw error
        }
    }
}

extension PostgresConnection {
    /// Runs one statement and returns all its rows (drained, so the connection is free again).
    @discardableResult
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}

extension PostgresStore {
    /// The value of a server setting on this store's connections (for tests and diagnostics).
    func currentSetting(_ name: String) async throws -> String? {
        try await query("SELECT current_setting(\(name))").first?.decode(String.self)
    }
}
