import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

/// Who has a connection to which node, for the node that decides whether to push a message
/// (`ClusterBus.presentElsewhere`). A node is running while its listening connection is open
/// (`pg_stat_activity` names it `parlor-listener <node>`): a node that stops or dies counts for no
/// one as soon as PostgreSQL sees its connection close, with no heartbeat to wait out; its rows
/// are swept by a later report of any node (at most one sweep a minute per node).
extension PostgresStore {
    public func reportPresence(_ report: PresenceReport) async throws {
        let logger = self.logger
        let node = nodeID
        let sweeps = presenceSwept.withLock { swept in
            guard swept.map({ .now - $0 >= Self.presenceSweepInterval }) ?? true else { return false }
            swept = .now
            return true
        }
        let (arrived, left, replacing): ([UserID], [UserID], Bool) =
            switch report {
            case .changed(let arrived, let left): (arrived, left, false)
            case .everyone(let present): (present, [], true)
            }
        try await transaction { connection in
            if replacing {
                try await connection.rows("DELETE FROM cluster_presence WHERE node = \(node)", logger: logger)
            }
            if !left.isEmpty {
                try await connection.rows(
                    "DELETE FROM cluster_presence WHERE node = \(node) AND user_id = ANY(\(left.map(\.description)))", logger: logger)
            }
            if !arrived.isEmpty {
                try await connection.rows("""
                    INSERT INTO cluster_presence (node, user_id) SELECT \(node), unnest(\(arrived.map(\.description)))
                    ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
            // The rows of nodes no longer running.
            guard sweeps else { return }
            let (prefix, from) = Self.listenerName
            try await connection.rows("""
                DELETE FROM cluster_presence WHERE node <> \(node) AND node NOT IN (
                    SELECT substr(application_name, \(from)) FROM pg_stat_activity WHERE starts_with(application_name, \(prefix)))
                """, logger: logger)
        }
    }

    /// How a listening connection's `application_name` starts, and where the node id in it starts
    /// (1-based, as `substr` counts).
    private static var listenerName: (prefix: String, from: Int32) {
        (ClusterListener.applicationNamePrefix, Int32(ClusterListener.applicationNamePrefix.utf8.count + 1))
    }

    /// How often one node sweeps the rows of nodes no longer running.
    static let presenceSweepInterval: Duration = .seconds(60)

    public func presentElsewhere(_ users: [UserID]) async throws -> Set<UserID> {
        guard !users.isEmpty else { return [] }
        let (prefix, from) = Self.listenerName
        let rows = try await query("""
            SELECT DISTINCT user_id FROM cluster_presence WHERE user_id = ANY(\(users.map(\.description))) AND node <> \(nodeID) AND node IN (
                SELECT substr(application_name, \(from)) FROM pg_stat_activity WHERE starts_with(application_name, \(prefix)))
            """)
        return Set(try rows.compactMap { UserID(try $0.decode(String.self)) })
    }
}
