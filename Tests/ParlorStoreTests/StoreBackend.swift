import Foundation
import Logging
import ParlorStore
import ParlorStoreSQLite
import ParlorStorePostgres
import PostgresNIO
import Testing

/// A store implementation the suite runs against. Every test takes one as its argument, so a new
/// implementation joins the suite by adding one line to `all`.
struct StoreBackend: Sendable, CustomTestStringConvertible {
    let name: String
    /// Creates a fresh, empty database that only the calling test uses.
    let makeDatabase: @Sendable () async throws -> TestDatabase

    var testDescription: String { name }

    /// Every backend the suite runs against.
    static let all: [StoreBackend] = [.sqlite, .postgres]

    /// `SQLiteStore` in a temporary directory, with the durability it ships with.
    static let sqlite = StoreBackend(name: "SQLite") {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ParlorStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("parlor.sqlite").path
        return TestDatabase(
            open: { try SQLiteStore(path: path, logger: .quiet) },
            destroy: { try FileManager.default.removeItem(at: directory) },
            sqlitePath: path)
    }
}

extension StoreBackend {
    /// `PostgresStore` on a database created for the test on the server at
    /// `PARLOR_TEST_POSTGRES_URL` (start one with `scripts/pg-cluster start DIR`) and dropped after
    /// it. Every store opened on it is a node of its own, with its client running until the
    /// database is destroyed. Without the variable, every PostgreSQL case fails.
    static let postgres = StoreBackend(name: "PostgreSQL") {
        let admin = try PostgresTestServer.shared()
        let name = "parlor_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await admin.execute("CREATE DATABASE \(name)")
        let url = try admin.url(database: name)
        let runs = Locked<[Task<Void, Never>]>([])
        return TestDatabase(
            open: {
                let store = try PostgresStore(url: url, logger: .quiet)
                runs.update { $0.append(Task { try? await store.run() }) }
                try await store.migrate()
                return store
            },
            destroy: {
                let tasks = runs.update { tasks in
                    defer { tasks = [] }
                    return tasks
                }
                for task in tasks { task.cancel() }
                // A node that does not stop within 30 s is reported and left behind: the database
                // is dropped anyway (which ends its connections), and the test run goes on.
                let (outcome, decided) = AsyncStream.makeStream(of: Bool.self)
                Task {
                    for task in tasks { await task.value }
                    decided.yield(true)
                }
                Task {
                    try? await Task.sleep(for: .seconds(30))
                    decided.yield(false)
                }
                var stopped = false
                for await ended in outcome {
                    stopped = ended
                    break
                }
                if !stopped { print("⚠️ A PostgreSQL node of database \(name) did not stop within 30 s of being cancelled; dropping it anyway.") }
                try await admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            },
            postgresURL: url)
    }
}

/// One test's database: `open` gives a store on it (again and again, as a restarted server would),
/// `destroy` removes it.
struct TestDatabase: Sendable {
    let open: @Sendable () async throws -> any ParlorStore
    let destroy: @Sendable () async throws -> Void
    /// For PostgreSQL, the database's URL.
    var postgresURL: String?
    /// For SQLite, the database file's path.
    var sqlitePath: String?
}

extension StoreBackend {
    /// Runs `body` with a store on a fresh database, then removes the database.
    func withStore<T>(_ body: (any ParlorStore) async throws -> T) async throws -> T {
        try await withDatabase { database in try await body(try await database.open()) }
    }

    /// Runs `body` with a fresh database, then removes it, also when `body` throws.
    func withDatabase<T>(_ body: (TestDatabase) async throws -> T) async throws -> T {
        let database = try await makeDatabase()
        let result: T
        do {
            result = try await body(database)
        } catch {
            try await database.destroy()
            throw error
        }
        try await database.destroy()
        return result
    }
}

extension Logger {
    /// A logger that drops everything: the group commit logs failures, which some tests provoke.
    static var quiet: Logger { Logger(label: "ParlorStoreTests") { _ in SwiftLogNoOpLogHandler() } }
}
