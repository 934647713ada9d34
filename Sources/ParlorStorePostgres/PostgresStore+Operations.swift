import Foundation
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func unreadiness() async -> String? {
        do {
            try await withDeadline(.seconds(3)) { _ = try await self.query("SELECT 1") }
        } catch {
            return "PostgreSQL cannot be reached: \(error)."
        }
        guard listener.isListening else {
            return "This node does not hear the other nodes: its PostgreSQL listener is reconnecting."
        }
        return nil
    }

    public func observeCommits(_ observer: @escaping CommitObserver) {
        appendQueue.observe(observer)
    }
}
