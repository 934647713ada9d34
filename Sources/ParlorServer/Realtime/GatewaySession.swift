import Logging
import NIOCore
import ParlorStore
import Synchronization

/// One browser tab's connection, shared by its channel handler and the short tasks that handle
/// its messages. The client's messages are handled one at a time, in order, in a task that lives
/// only while there are some (its `InboxStateMachine` says when); while `inboxLimit` wait, the
/// socket is not read.
final class GatewaySession: Sendable {
    let gateway: Gateway
    let user: User
    let logger: Logger
    let connection: ClientConnection
    /// The client's app frames, in their order per conversation (or home surface), beside its
    /// other frames: an app outside the server that is slow to answer holds up that app only.
    let apps = AppLanes(limit: GatewaySession.inboxLimit)
    private let channel: any Channel
    private let inbox = Mutex(InboxStateMachine<SocketMessage>(limit: GatewaySession.inboxLimit))
    /// The most client messages that wait to be handled before reading pauses.
    static let inboxLimit = 8

    init(gateway: Gateway, user: User, tokenHash: String, channel: any Channel, logger: Logger) {
        self.gateway = gateway
        self.user = user
        self.logger = logger
        self.channel = channel
        connection = ClientConnection(
            user: user.id, tokenHash: tokenHash, channel: channel, limit: gateway.services.configuration.sendQueueLimit,
            source: gateway.deliverySource)
    }

    /// Registers the connection, then handles what came meanwhile.
    func start() {
        Task {
            let opened = await gateway.open(self)
            await run(inbox.withLock { $0.registered(opened) })
        }
    }

    /// A whole message came (on the event loop).
    func received(_ message: SocketMessage) {
        let action = inbox.withLock { $0.received(message) }
        if action != .none { Task { await run(action) } }
    }

    /// Whether the socket may be read: fewer than `inboxLimit` messages wait.
    var acceptsMore: Bool { inbox.withLock { $0.acceptsMore } }

    /// The channel closed (on the event loop).
    func closed() {
        connection.closed()
        apps.cancelAll()
        let action = inbox.withLock { $0.closed() }
        if action != .none { Task { await run(action) } }
    }

    private func run(_ action: InboxStateMachine<SocketMessage>.Action) async {
        switch action {
        case .none: return
        case .work: await work()
        case .unregister: await gateway.closed(self)
        }
    }

    private func work() async {
        while let (message, readAgain) = inbox.withLock({ $0.next() }) {
            // A connection closed meanwhile (its sign-in ended, the server stops) handles nothing
            // more of what its client sent before the close.
            guard !connection.isClosed else { continue }
            // Reading paused at the limit: one has room again.
            if readAgain { channel.read() }
            await gateway.receive(message, on: self)
        }
    }
}
