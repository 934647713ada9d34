import Foundation
import ParlorKit

/// How server nodes sharing one store hear about each other's changes. With one node
/// (`SingleNodeBus`) there is nothing to hear. With PostgreSQL, LISTEN/NOTIFY.
public protocol ClusterBus: Sendable {
    /// This node's id, unique among the nodes.
    var nodeID: String { get }
    /// Tells the other nodes. Message commits are announced by the store itself.
    func publish(_ event: ClusterEvent) async
    /// Events from the other nodes (never this node's own), plus `.listenerRestarted`.
    func events() -> AsyncStream<ClusterEnvelope>
    /// Returns once this node hears the other nodes (at once when there are none, or once the
    /// bus has stopped).
    func ready() async
    /// Tells the other nodes who has a connection to this node (what decides whether a message
    /// for them is pushed: `presentElsewhere`).
    func reportPresence(_ report: PresenceReport) async throws
    /// Which of `users` have a connection to another node that is running. A node that stops,
    /// or dies, counts for no one from then on.
    func presentElsewhere(_ users: [UserID]) async throws -> Set<UserID>
}

extension ClusterBus {
    public func ready() async {}
}

/// The bus of a server that is alone on its store.
public struct SingleNodeBus: ClusterBus {
    public let nodeID = UUID().uuidString
    public init() {}
    public func publish(_ event: ClusterEvent) async {}
    public func events() -> AsyncStream<ClusterEnvelope> { AsyncStream { $0.finish() } }
    public func reportPresence(_ report: PresenceReport) async throws {}
    public func presentElsewhere(_ users: [UserID]) async throws -> Set<UserID> { [] }
}

/// What a node tells the others about who is connected to it.
public enum PresenceReport: Sendable, Equatable {
    /// Since the last report, `arrived` opened their first connection and `left` closed their last.
    case changed(arrived: [UserID], left: [UserID])
    /// Exactly these have a connection now: whatever the node said before is forgotten (after
    /// its listener reconnected, or now and then, in case a sweep took its rows meanwhile).
    case everyone([UserID])
}
