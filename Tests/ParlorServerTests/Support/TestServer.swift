import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ParlorHost
import ParlorSeedApps
import ParlorServer
import ParlorStore
import ParlorStoreSQLite

/// A Parlor server on a fresh database in a temporary folder, built exactly as `parlor serve`
/// builds it (`ParlorServer.makeApplication`), with a cheap bcrypt cost.
///
/// ```swift
/// try await TestServer().run { api in
///     let alice = try await api.signUp("alice")
/// }
/// ```
struct TestServer: Sendable {
    // Tests sign many people up from 127.0.0.1 and add them often; SecurityTests turn the limits on.
    var configuration = ServerConfiguration(port: 0, passwordCost: 4, additionsPerMinute: 0, signUpsPerHour: 0, passwordAttemptsPerMinute: 0)
    var directory: AppDirectory
    /// What the server hears from other nodes (none by default).
    var bus: any ClusterBus = SingleNodeBus()

    init(directory: AppDirectory? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        self.directory = try directory ?? Self.builtIn()
        // Tests send many messages at once; AbuseLimitTests turn the limit on.
        configuration.messagesPerMinute = 0
        configure(&configuration)
    }

    /// The seed apps and bundled sticker packs, loaded once.
    static func builtIn() throws -> AppDirectory {
        // A directory of its own per server: apps outside the server are added to it as it runs.
        guard let directory = sharedBuiltIn else { return try seedDirectory() }
        return AppDirectory(apps: directory.apps, packs: directory.packs)
    }

    private static let sharedBuiltIn = try? seedDirectory()

    private static func seedDirectory() throws -> AppDirectory {
        try AppDirectory(apps: SeedApps.all(), stickerDirectory: nil)
    }

    /// The built-in directory plus `extra` apps (test apps).
    static func builtIn(adding extra: [AnyMessagesApp]) throws -> AppDirectory {
        let base = try builtIn()
        return AppDirectory(apps: base.apps + extra, packs: base.packs)
    }

    /// Runs `body` against the server: `.router` calls the router directly, `.live` runs it on a
    /// port (needed for WebSockets).
    func run<Value: Sendable>(_ setup: TestingSetup = .router, _ body: @Sendable (API) async throws -> Value) async throws -> Value {
        try await run(setup) { api, _ in try await body(api) }
    }

    /// `run`, with the server's store, to write to it as another node sharing it would.
    func run<Value: Sendable>(
        _ setup: TestingSetup = .router, _ body: @Sendable (API, SQLiteStore) async throws -> Value
    ) async throws -> Value {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await run(setup, database: folder.appendingPathComponent("parlor.sqlite"), body)
    }

    /// `run` on the database at `database`, which it keeps: a second run on it is a restart.
    func run<Value: Sendable>(
        _ setup: TestingSetup = .router, database: URL, _ body: @Sendable (API, SQLiteStore) async throws -> Value
    ) async throws -> Value {
        var logger = Logger(label: "parlor-tests")
        logger.logLevel = .critical
        let store = try SQLiteStore(path: database.path, logger: logger)
        let app = ParlorServer.makeApplication(configuration: configuration, store: store, directory: directory, logger: logger, bus: bus)
        return try await app.test(setup) { client in try await body(API(http: client), store) }
    }
}
