import Foundation
import Logging
import ParlorStore
import PostgresNIO
import Synchronization

/// This node's `LISTEN`: holds one pooled connection listening on the channel and hands the
/// other nodes' notices to every `events()` stream. When the connection drops it reconnects
/// (backing off up to 5 s) and, once listening again, yields `.listenerRestarted` so the server
/// catches up from the store.
///
/// The listening connection is named `parlor-listener <nodeID>` (`application_name`), so an
/// operator can find it in `pg_stat_activity`.
final class ClusterListener: Sendable {
    private let client: PostgresClient
    private let channel: String
    private let nodeID: String
    private let logger: Logger
    private let subscribers = Mutex<(next: Int, continuations: [Int: AsyncStream<ClusterEnvelope>.Continuation], finished: Bool)>(
        (0, [:], false))
    /// Whether `LISTEN` is in place, and who waits for it.
    private let state = Mutex<(listening: Bool, stopped: Bool, waiters: [UUID: CheckedContinuation<Void, Never>])>((false, false, [:]))

    /// How often the listening connection is checked with a query, to notice a silently dead link.
    static let heartbeat: Duration = .seconds(15)

    init(client: PostgresClient, channel: String, nodeID: String, logger: Logger) {
        self.client = client
        self.channel = channel
        self.nodeID = nodeID
        self.logger = logger
    }

    /// What the name of every node's listening connection starts with: the node id follows.
    static let applicationNamePrefix = "parlor-listener "
    /// The longest node id: PostgreSQL cuts an `application_name` at 63 bytes.
    static let maxNodeIDBytes = 63 - applicationNamePrefix.utf8.count
    /// How the database notices that the machine at the other end of the listening connection is
    /// gone: keepalives after 10 s of silence, every 5 s, 3 unanswered; unacknowledged data given
    /// up after 30 s (`tcp_user_timeout`, milliseconds).
    static let deadPeerSettings = [
        ("tcp_keepalives_idle", "10"), ("tcp_keepalives_interval", "5"), ("tcp_keepalives_count", "3"), ("tcp_user_timeout", "30000"),
    ]
    var applicationName: String { Self.applicationNamePrefix + nodeID }

    /// A new stream of the other nodes' events; it finishes when the listener stops.
    func events() -> AsyncStream<ClusterEnvelope> {
        let (stream, continuation) = AsyncStream.makeStream(of: ClusterEnvelope.self)
        let id: Int? = subscribers.withLock { state in
            guard !state.finished else { return nil }
            let id = state.next
            state.next += 1
            state.continuations[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Returns once `LISTEN` is in place (at once when it is), when the listener has stopped, or
    /// when the calling task is cancelled.
    func waitUntilListening() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.listening || state.stopped || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Whether `LISTEN` is in place now.
    var isListening: Bool { state.withLock { $0.listening } }

    private func setListening(_ listening: Bool, stopped: Bool = false) {
        let waiters = state.withLock { state in
            state.listening = listening
            state.stopped = state.stopped || stopped
            guard listening || state.stopped else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Listens until cancelled, reconnecting after every drop; then finishes the streams.
    func run() async {
        var connectedBefore = false
        var delay: Duration = .milliseconds(100)
        while !Task.isCancelled {
            var established = false
            do {
                try await client.withConnection { connection in
                    try await self.listen(on: connection, restarted: connectedBefore) {
                        connectedBefore = true
                        established = true
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning("The cluster listener lost its connection; reconnecting", metadata: ["error": "\(error)"])
                }
            }
            setListening(false)
            guard !Task.isCancelled else { break }
            delay = established ? .milliseconds(100) : min(delay * 2, .seconds(5))
            try? await Task.sleep(for: delay)
        }
        setListening(false, stopped: true)
        let continuations = subscribers.withLock { state in
            state.finished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    /// Listens on one connection until it fails; `established` runs once `LISTEN` is in place.
    private func listen(on connection: PostgresConnection, restarted: Bool, established: () -> Void) async throws {
        try await connection.rows("SELECT set_config('application_name', \(applicationName), false)", logger: logger)
        // Other nodes count this node's presence while this connection is in pg_stat_activity:
        // PostgreSQL gives the connection of a machine that died up within about 30 s instead of
        // TCP's default of hours.
        for (setting, value) in Self.deadPeerSettings {
            try await connection.rows("SELECT set_config(\(setting), \(value), false)", logger: logger)
        }
        try await connection.listen(on: channel) { notifications in
            established()
            setListening(true)
            if restarted {
                logger.notice("The cluster listener is listening again")
                broadcast(ClusterEnvelope(origin: nodeID, event: .listenerRestarted))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await notification in notifications { self.receive(notification.payload) }
                    throw ListenerClosed()
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: Self.heartbeat)
                        try await connection.rows("SELECT 1", logger: self.logger)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    private func receive(_ payload: String) {
        guard let notice = ClusterNotice.decode(payload), let envelope = notice.envelope else {
            logger.warning("Ignored a notification that is not a cluster notice", metadata: ["bytes": "\(payload.utf8.count)"])
            return
        }
        guard envelope.origin != nodeID else { return }
        broadcast(envelope)
    }

    private func broadcast(_ envelope: ClusterEnvelope) {
        let continuations = subscribers.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(envelope) }
    }
}

/// The listening connection's notifications ended: the connection closed.
struct ListenerClosed: Error {}

extension PostgresStore {
    /// Tells the other nodes about `event` (a `NOTIFY` on the channel). Message commits are
    /// announced by the group commit itself; `publish` is for the other events. Failures are
    /// logged: the other nodes catch up when their listener restarts.
    public func publish(_ event: ClusterEvent) async {
        do {
            let payload = try ClusterNotice(origin: nodeID, event: event).payload()
            _ = try await Self.mapErrors { try await self.client.query("SELECT pg_notify(\(self.channel), \(payload))", logger: self.logger).collect() }
        } catch {
            logger.error("A cluster event could not be sent", metadata: ["error": "\(error)"])
        }
    }

    /// Returns once this node is listening for the other nodes' events (or `run()` has ended).
    /// A server waits for this before it says it is ready, so that it misses nothing.
    public func waitUntilListening() async { await listener.waitUntilListening() }

    /// `ClusterBus`: ready once listening.
    public func ready() async { await waitUntilListening() }

    /// The other nodes' events (never this node's own), and `.listenerRestarted` each time this
    /// node's listener is listening again after losing its connection. Finishes when `run()` ends.
    public func events() -> AsyncStream<ClusterEnvelope> { listener.events() }
}
