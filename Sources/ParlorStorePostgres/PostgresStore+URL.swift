import Foundation
import ParlorStore
import PostgresNIO

extension PostgresStore {
    /// A client configuration from a connection URL, as libpq reads one:
    /// `postgres://user:password@host:port/database?sslmode=…&application_name=…&pool_max=…`.
    ///
    /// - `host` may be omitted with `?host=/path/to/socket/directory` to use a Unix socket.
    /// - `sslmode`: `disable`; `prefer` (the default) and `require` encrypt without checking the
    ///   certificate, as libpq does; `verify-ca` and `verify-full` check it.
    /// - `pool_max`: the most connections this node opens (10 unless given).
    ///
    /// - Throws: `StoreError(.invalid)` naming what is wrong (never the password).
    public static func configuration(url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw StoreError(.invalid, "A PostgreSQL URL starts with postgres:// (got \(url.prefix(12))…).")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }

        let username = components.user?.removingPercentEncoding ?? query["user"] ?? "postgres"
        let password = components.password?.removingPercentEncoding ?? query["password"]
        var database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = database.removingPercentEncoding ?? database
        if database.isEmpty { database = query["dbname"] ?? username }

        var configuration: PostgresClient.Configuration
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? query["host"]
        if let host, host.hasPrefix("/") {
            let port = components.port ?? 5432
            configuration = .init(unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else {
            configuration = .init(
                host: host ?? "localhost", port: components.port ?? 5432, username: username, password: password, database: database,
                tls: try tls(mode: query["sslmode"] ?? "prefer"))
        }
        configuration.options.maximumConnections = 10
        if let value = query["pool_max"] {
            guard let count = Int(value), count >= 2 else { throw StoreError(.invalid, "pool_max must be a number of at least 2.") }
            configuration.options.maximumConnections = count
        }
        if let name = query["application_name"] {
            configuration.options.additionalStartupParameters.append(("application_name", name))
        } else {
            configuration.options.additionalStartupParameters.append(("application_name", "parlor"))
        }
        return configuration
    }

    private static func tls(mode: String) throws -> PostgresClient.Configuration.TLS {
        var unchecked = TLSConfiguration.makeClientConfiguration()
        unchecked.certificateVerification = .none
        switch mode {
        case "disable": return .disable
        case "allow", "prefer": return .prefer(unchecked)
        case "require": return .require(unchecked)
        case "verify-ca":
            var checked = TLSConfiguration.makeClientConfiguration()
            checked.certificateVerification = .noHostnameVerification
            return .require(checked)
        case "verify-full": return .require(.makeClientConfiguration())
        default: throw StoreError(.invalid, "Unknown sslmode '\(mode)'.")
        }
    }
}
