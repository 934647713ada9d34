import Foundation
import ParlorKit
import ParlorStore
import Synchronization

/// What waits to be written to one connection.
enum Outgoing: Sendable {
    /// A frame already encoded.
    case frame(String)
    /// A committed message. `frame` is its `message` frame when it looks the same to every
    /// viewer (text, stickers), encoded once for all; otherwise it is rendered for the
    /// connection's user when written.
    case message(StoredMessage, frame: String?)
    /// The client's `hello`: replay what it missed since these sequence numbers, then stream.
    case start(since: [String: Int64])
}

/// The outbound side of one WebSocket connection: a bounded queue. A connection that falls
/// `limit` items behind is cut off (its client reconnects and replays what it missed), so a slow
/// client never holds up the others.
final class ClientConnection: Sendable {
    let id = UUID()
    let user: UserID
    let stream: AsyncStream<Outgoing>
    private let continuation: AsyncStream<Outgoing>.Continuation
    /// How many items wait, and whether the connection was cut off.
    private let state = Mutex((pending: 0, overflowed: false))
    /// Called once, when the connection is cut off for falling behind.
    private let onCutOff: @Sendable () -> Void
    /// The most items that may wait; past it the connection is cut off.
    let limit: Int

    init(user: UserID, limit: Int, onCutOff: @escaping @Sendable () -> Void) {
        self.user = user
        self.limit = limit
        self.onCutOff = onCutOff
        (stream, continuation) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .unbounded)
    }

    /// Queues `item`; false (and the connection is closed) when the client is too far behind.
    @discardableResult
    func enqueue(_ item: Outgoing) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.pending < limit else { return false }
            state.pending += 1
            return true
        }
        if accepted {
            continuation.yield(item)
        } else {
            fellBehind()
        }
        return accepted
    }

    /// Whether the client fell too far behind: what is still queued is not worth writing.
    var hasFallenBehind: Bool { state.withLock { $0.overflowed } }

    /// Ends the queue because the client is too far behind.
    func fellBehind() {
        let first = state.withLock { state in
            defer { state.overflowed = true }
            return !state.overflowed
        }
        continuation.finish()
        if first { onCutOff() }
    }

    /// How many items wait to be written.
    var waiting: Int { state.withLock { $0.pending } }

    /// Called by the writer after each item.
    func didWrite() { state.withLock { $0.pending -= 1 } }

    /// Ends the stream; the writer stops.
    func close() { continuation.finish() }
}

/// Every open connection, by user.
actor Hub {
    private var connections: [UserID: [UUID: ClientConnection]] = [:]
    let metrics: ServerMetrics

    init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    /// Registers a connection unless its user already has `limit` open.
    /// - Returns: false (and nothing registered) when the user is at the limit.
    func register(_ connection: ClientConnection, limit: Int) -> Bool {
        guard (connections[connection.user]?.count ?? 0) < limit else { return false }
        connections[connection.user, default: [:]][connection.id] = connection
        return true
    }

    func unregister(_ connection: ClientConnection) {
        connections[connection.user]?[connection.id] = nil
        if connections[connection.user]?.isEmpty == true { connections[connection.user] = nil }
    }

    /// Queues `item` for every connection of every user in `users`.
    func send(_ item: Outgoing, to users: some Sequence<UserID>) {
        var queued = 0
        for user in users {
            for connection in connections[user]?.values ?? [:].values where connection.enqueue(item) { queued += 1 }
        }
        if case .message = item { metrics.deliveries.increment(by: queued) }
    }

    func send(_ frame: Wire.ServerFrame, to user: UserID) {
        send(.frame(frame.json()), to: [user])
    }

    /// Whether `user` has an open connection.
    func isOnline(_ user: UserID) -> Bool { connections[user]?.isEmpty == false }

    /// The users with an open connection.
    var onlineUsers: [UserID] { connections.filter { !$0.value.isEmpty }.map(\.key) }

    var connectionCount: Int { connections.values.reduce(0) { $0 + $1.count } }

    /// Open connections, the items waiting in all their queues, and the longest queue.
    var queues: (connections: Int, items: Int, longest: Int) {
        var result = (connections: 0, items: 0, longest: 0)
        for connection in connections.values.lazy.flatMap(\.values) {
            let waiting = connection.waiting
            result = (result.connections + 1, result.items + waiting, max(result.longest, waiting))
        }
        return result
    }
}
