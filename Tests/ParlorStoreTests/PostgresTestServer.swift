import Foundation
import Logging
import ParlorStore
import ParlorStorePostgres
import PostgresNIO
import Synchronization

/// The PostgreSQL server the tests use, from `PARLOR_TEST_POSTGRES_URL`: creates and drops the
/// tests' databases and runs statements as its superuser (to end a backend, count connections).
final class PostgresTestServer: Sendable {
    /// Thrown by every PostgreSQL case when there is no server to run on.
    struct MissingServer: Error, CustomStringConvertible {
        var description: String {
            "PARLOR_TEST_POSTGRES_URL is not set: the PostgreSQL cases need a server. Start a throwaway one with "
                + "`export PARLOR_TEST_POSTGRES_URL=$(scripts/pg-cluster start /tmp/parlor-pg)` (stop it with `scripts/pg-cluster stop /tmp/parlor-pg`)."
        }
    }

    private static let instance = Mutex<PostgresTestServer?>(nil)

    let baseURL: String
    private let client: PostgresClient

    /// The one server of the test run; its client runs until the process ends.
    static func shared() throws -> PostgresTestServer {
        guard let url = ProcessInfo.processInfo.environment["PARLOR_TEST_POSTGRES_URL"], !url.isEmpty else { throw MissingServer() }
        return try instance.withLock { instance in
            if let instance { return instance }
            let server = try PostgresTestServer(url: url)
            instance = server
            return server
        }
    }

    private init(url: String) throws {
        baseURL = url
        var configuration = try PostgresStore.configuration(url: url)
        configuration.options.maximumConnections = 4
        client = PostgresClient(configuration: configuration)
        let client = client
        Task.detached { await client.run() }
    }

    /// The URL of `database` on this server.
    func url(database: String) throws -> String {
        guard var components = URLComponents(string: baseURL) else { throw StoreError(.invalid, "PARLOR_TEST_POSTGRES_URL is not a URL.") }
        components.path = "/\(database)"
        guard let url = components.string else { throw StoreError(.invalid, "PARLOR_TEST_POSTGRES_URL is not a URL.") }
        return url
    }

    /// Runs `body` with a client of its own on the database at `url`.
    static func withClient<T: Sendable>(url: String, _ body: (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(configuration: try PostgresStore.configuration(url: url))
        let run = Task { await client.run() }
        defer { run.cancel() }
        return try await body(client)
    }

    /// Runs a statement on the server's own database.
    func execute(_ sql: String) async throws {
        _ = try await client.query(PostgresQuery(unsafeSQL: sql)).collect()
    }

    /// Runs a query and returns its rows.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await client.query(query).collect()
    }
}
