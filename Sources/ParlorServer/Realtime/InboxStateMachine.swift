/// The inbound side of one WebSocket connection as a value: the client's messages waiting to be
/// handled, one at a time and in order, by a task that lives only while there are some.
/// `GatewaySession` keeps it in a mutex, tells it what happened and carries out what each event
/// returns (`ConnectionStateMachine` is the outbound side).
///
///     registering ─registered─▶ idle ◀──drained── working
///          │                     └────received─────▶ │
///          ├─refused─▶ refused                        │
///          └─closed─▶ closedWhileRegistering          │
///
/// From `idle`, `working` and `refused`, the channel closing leads to `closed`. What the client
/// sends before its connection is registered waits; what it sends once the connection is refused
/// or closed is dropped. Once `limit` messages wait, the socket is not read
/// (`acceptsMore`); taking one from a full inbox says to read again.
struct InboxStateMachine<Message: Sendable>: Sendable {
    enum State {
        /// The connection is being registered in the hub; messages wait.
        case registering([Message])
        /// Registered, nothing waiting, no task.
        case idle
        /// A task handles these messages, in order.
        case working([Message])
        /// The hub refused the connection (over the cap, or its sign-in ended): nothing is handled.
        case refused
        /// The channel closed before the registration ended: it is undone when it does.
        case closedWhileRegistering
        /// The channel closed.
        case closed
    }

    /// What the session does next.
    enum Action: Equatable {
        case none
        /// Start a task that handles the messages (`next()` until nil).
        case work
        /// Take the connection out of the hub.
        case unregister
    }

    private(set) var state: State = .registering([])
    /// The most messages that wait before the socket is no longer read.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// How many messages wait.
    var waiting: Int {
        switch state {
        case .registering(let messages), .working(let messages): messages.count
        case .idle, .refused, .closedWhileRegistering, .closed: 0
        }
    }

    /// Whether the socket may be read: fewer than `limit` messages wait.
    var acceptsMore: Bool { waiting < limit }

    /// The hub answered the registration.
    /// - Parameter opened: whether it registered the connection.
    mutating func registered(_ opened: Bool) -> Action {
        switch state {
        case .registering(let messages):
            guard opened else {
                state = .refused
                return .none
            }
            if messages.isEmpty {
                state = .idle
                return .none
            }
            state = .working(messages)
            return .work
        case .closedWhileRegistering:
            state = .closed
            return opened ? .unregister : .none
        case .idle, .working, .refused, .closed:
            preconditionFailure("Registered twice: \(state)")
        }
    }

    /// A whole message came.
    mutating func received(_ message: Message) -> Action {
        switch state {
        case .registering(var messages):
            messages.append(message)
            state = .registering(messages)
            return .none
        case .idle:
            state = .working([message])
            return .work
        case .working(var messages):
            messages.append(message)
            state = .working(messages)
            return .none
        case .refused, .closedWhileRegistering, .closed:
            return .none
        }
    }

    /// In the working task: the next message to handle, and whether the socket should be read
    /// again (the inbox was full); nil when there is none, which ends the task.
    mutating func next() -> (message: Message, readAgain: Bool)? {
        guard case .working(var messages) = state else { return nil }
        guard !messages.isEmpty else {
            state = .idle
            return nil
        }
        let readAgain = messages.count >= limit
        let message = messages.removeFirst()
        state = .working(messages)
        return (message, readAgain)
    }

    /// The channel closed: what waits is dropped.
    mutating func closed() -> Action {
        switch state {
        case .registering:
            state = .closedWhileRegistering
            return .none
        case .idle, .working:
            state = .closed
            return .unregister
        case .refused:
            state = .closed
            return .none
        case .closedWhileRegistering, .closed:
            return .none
        }
    }
}
