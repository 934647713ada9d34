import Foundation

/// What an operator watches: whether the store can serve, and how its commits go.
public protocol OperationsStore: Sendable {
    /// Why the store cannot serve requests now, in one line (unreachable, not migrated, and for a
    /// shared database, this node not hearing the others); nil when it can. Answers within a few
    /// seconds whatever the database does.
    func unreadiness() async -> String?
    /// Calls `observer` after each group commit with the batch's size and the commit's duration.
    func observeCommits(_ observer: @escaping CommitObserver)
}
