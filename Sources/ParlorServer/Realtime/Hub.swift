import Foundation
import NIOWebSocket
import ParlorInput
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

/// Every open connection, by user.
actor Hub {
    private var connections: [UserID: [UUID: ClientConnection]] = [:]
    /// The tokens whose sockets were closed lately because their sign-in ended, oldest first: a
    /// socket upgraded with one just before it ended registers after the closing ran, and is
    /// refused then instead of living until the next sweep.
    private var endedTokens: [(hash: String, at: ContinuousClock.Instant)] = []
    private var endedTokenSet: Set<String> = []
    /// How long an ended token is remembered (longer than an upgrade takes), and how many at most.
    static let endedTokenMemory: Duration = .seconds(60)
    static let maxEndedTokens = 10_000
    let metrics: ServerMetrics
    /// Rings when someone's first connection opens or their last one closes.
    nonisolated let presence = PresenceSignal()

    init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    enum Registration: Equatable {
        case registered
        /// The user already has the most connections allowed.
        case overCap
        /// The connection's sign-in has just ended.
        case signedOut
    }

    /// Registers a connection unless its user already has `limit` open or its sign-in just ended.
    func register(_ connection: ClientConnection, limit: Int) -> Registration {
        forgetEndedTokens()
        guard !endedTokenSet.contains(connection.tokenHash) else { return .signedOut }
        let open = connections[connection.user]?.count ?? 0
        guard open < limit else { return .overCap }
        connections[connection.user, default: [:]][connection.id] = connection
        if open == 0 { presence.ring() }
        return .registered
    }

    private func remember(ended tokens: Set<String>) {
        let now = ContinuousClock.now
        for hash in tokens where endedTokenSet.insert(hash).inserted { endedTokens.append((hash, now)) }
        forgetEndedTokens(now: now)
    }

    private func forgetEndedTokens(now: ContinuousClock.Instant = .now) {
        let stale = endedTokens.prefix { now - $0.at > Self.endedTokenMemory || endedTokens.count > Self.maxEndedTokens }.count
        guard stale > 0 else { return }
        for entry in endedTokens.prefix(stale) { endedTokenSet.remove(entry.hash) }
        endedTokens.removeFirst(stale)
    }

    func unregister(_ connection: ClientConnection) {
        connections[connection.user]?[connection.id] = nil
        if connections[connection.user]?.isEmpty == true {
            connections[connection.user] = nil
            presence.ring()
        }
    }

    /// Queues `item` for every connection of every user in `users`.
    func send(_ item: Outgoing, to users: some Sequence<UserID>) {
        var queued = 0
        for user in users {
            for connection in connections[user]?.values ?? [:].values where connection.enqueue(item) { queued += 1 }
        }
        if case .message = item { metrics.deliveries.increment(by: queued) }
    }

    /// Queues `frame` for every connection of `user`.
    /// - Returns: the connections it was queued for (`ClientConnection.written()`).
    @discardableResult
    func send(_ frame: Wire.ServerFrame, to user: UserID) -> [ClientConnection] {
        let item = Outgoing.frame(frame.json())
        return connections[user]?.values.filter { $0.enqueue(item) } ?? []
    }

    /// Starts the closing handshake of `user`'s connections opened with one of `tokens`, ended
    /// sign-ins, and refuses those tokens' connections that register next.
    func close(user: UserID, signedInWith tokens: Set<String>, code: WebSocketErrorCode, reason: String) {
        remember(ended: tokens)
        for connection in connections[user]?.values ?? [:].values where tokens.contains(connection.tokenHash) {
            connection.close(code, reason: reason)
        }
    }

    /// Starts the closing handshake of every connection opened with one of `tokens`, ended
    /// sign-ins, and refuses those tokens' connections that register next.
    func close(signedInWith tokens: Set<String>, code: WebSocketErrorCode, reason: String) {
        remember(ended: tokens)
        for connection in connections.values.lazy.flatMap(\.values) where tokens.contains(connection.tokenHash) {
            connection.close(code, reason: reason)
        }
    }

    /// The tokens (hashes) the open connections were opened with.
    var tokenHashes: Set<String> { Set(connections.values.lazy.flatMap(\.values).map(\.tokenHash)) }

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
