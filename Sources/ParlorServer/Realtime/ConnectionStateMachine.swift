import ParlorKit
import ParlorStore

/// The outbound side of one WebSocket connection as a value: what waits to be written, what was
/// delivered, and what the connection does next. It holds no channel, store or lock:
/// `ClientConnection` keeps it in a mutex, tells it what happened, and carries out the action each
/// event returns on the channel's event loop (postgres-nio's `ConnectionStateMachine` is the model).
///
/// Messages go out exactly once per conversation, in sequence order: a duplicate is dropped, and a
/// message after a gap (or one drawn for each viewer) waits for a store job that fills the gap and
/// writes it. Until the client's hello its messages wait and follow the replay; while a store job
/// runs, whatever comes waits behind it, in order. More than `limit` items waiting, or messages
/// before hello, cut the connection off with 1013: its client reconnects and replays what it
/// missed, so a slow client holds up nobody.
///
///     awaitingHello ─hello─▶ replaying ─done─▶ streaming ─gap─▶ waitingForStore
///                                ▲                 │  ▲               │
///                                └──── hello ──────┘  └───── done ────┘
///
/// From any of these, `close` leads to `closing`, falling behind or a failed store job to `cutOff`,
/// and the channel going away to `closed`; none of the three writes anything more.
struct ConnectionStateMachine: Sendable {
    /// The last sequence number delivered, per conversation.
    typealias Delivered = [ConversationID: Int64]

    /// A message that came before the client's hello: it follows the replay.
    struct EarlyMessage: Sendable, Equatable {
        var message: StoredMessage
        /// Its `message` frame when it reads the same for every viewer (`Outgoing.message`).
        var frame: String?
    }

    /// A close frame's code and the sentence its client is shown.
    struct CloseFrame: Sendable, Equatable {
        var code: UInt16
        var reason: String

        /// Too far behind: the client reconnects and replays what it missed.
        static let fellBehind = CloseFrame(code: 1013, reason: "Too far behind; reconnect to catch up.")
        /// A store job failed (the store, or the socket): what the connection was sent is no
        /// longer known to be whole, so its client reconnects and replays.
        static let storeFailed = CloseFrame(code: 1011, reason: "The server could not send what you missed; reconnect to catch up.")
    }

    /// Work that needs the store, run in a task (`CatchUp`); its frames go through
    /// `storeJobWrites` and its end through `storeJobDone`.
    enum StoreJob: Sendable, Equatable {
        /// The client's hello: what it missed since `since` (sequence numbers by conversation id,
        /// as the client wrote them), `ready`, the tab's session frames, then the early messages.
        case replay(since: [String: Int64], delivered: Delivered, early: [EarlyMessage])
        /// A message after a gap, which is filled from the store first, or one drawn for this viewer.
        case deliver(StoredMessage, frame: String?, delivered: Delivered)
    }

    /// How a store job ended.
    enum StoreJobResult: Sendable, Equatable {
        /// It wrote all it had to: what is delivered now.
        case delivered(Delivered)
        /// The store failed, or the socket took no more.
        case failed
    }

    /// What the connection does next, on its event loop.
    enum Action: Sendable, Equatable {
        case none
        /// Write these frames; when draining, drain again (more may have come meanwhile) and
        /// flush once at the end.
        case write([String])
        /// Write these frames and flush, then start this store job: what comes meanwhile waits
        /// for its end.
        case writeAndStart([String], StoreJob)
        /// Write these frames, then the close frame, and flush: nothing is written after it.
        case writeAndClose([String], CloseFrame)
    }

    /// What the connection does after `enqueue`.
    enum EnqueueAction: Sendable, Equatable {
        /// Queued: a drain is due already, or a store job or the socket holds the queue.
        case queued
        /// Queued: drain on the event loop.
        case drain
        /// Not queued: the connection is closing or closed.
        case refused
        /// Not queued, too far behind: write this close frame; nothing is written after it.
        case close(CloseFrame)
    }

    /// Who writes what waits, in the states where the connection writes it itself.
    enum Writer: Sendable, Equatable {
        /// Nobody: the next item asks for a drain.
        case idle
        /// A drain is due on the event loop, or running.
        case draining
        /// The socket took no more: `writable()` drains.
        case paused
    }

    enum State: Sendable, Equatable {
        /// Before the client's hello: frames go out, messages wait here (at most `limit`).
        case awaitingHello(early: [EarlyMessage], Writer)
        /// A store job replays what the client missed; what comes waits.
        case replaying
        /// Delivering live: the last sequence delivered per conversation.
        case streaming(Delivered, Writer)
        /// A store job fills a gap or draws a message for this viewer; what comes waits.
        case waitingForStore
        /// The close frame was written (the server stops, the sign-in ended): nothing more is.
        case closing
        /// Too far behind, or a store job failed: the close frame was written, nothing more is.
        case cutOff
        /// The channel is gone.
        case closed
        /// Only inside an event that changes a state's values in place, so they are not copied.
        case modifying
    }

    private(set) var state: State = .awaitingHello(early: [], .idle)
    /// What waits to be written, in order.
    private(set) var queue: [Outgoing] = []
    /// The most items that may wait, and the most messages before hello; past it the connection
    /// is cut off.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the connection is closing or closed: its client's messages are not handled.
    var isClosed: Bool {
        switch state {
        case .closing, .cutOff, .closed: true
        case .awaitingHello, .replaying, .streaming, .waitingForStore, .modifying: false
        }
    }

    /// Whether it was cut off: too far behind, or a store job failed.
    var hasFallenBehind: Bool {
        if case .cutOff = state { true } else { false }
    }

    /// How many items wait to be written.
    var waiting: Int { queue.count }

    // MARK: Events

    /// Something to write came (on any thread).
    mutating func enqueue(_ item: Outgoing) -> EnqueueAction {
        switch state {
        case .closing, .cutOff, .closed:
            return .refused
        case .awaitingHello, .replaying, .streaming, .waitingForStore:
            break
        case .modifying:
            preconditionFailure("Invalid state: \(state)")
        }
        guard queue.count < limit else {
            cutOff()
            return .close(.fellBehind)
        }
        queue.append(item)
        switch state {
        case .awaitingHello(let early, .idle):
            state = .awaitingHello(early: early, .draining)
            return .drain
        case .streaming(let delivered, .idle):
            state = .streaming(delivered, .draining)
            return .drain
        default:
            return .queued
        }
    }

    /// On the event loop, when a drain is due: writes what waits, as far as it can go now.
    /// - Parameter writable: whether the socket takes writes.
    mutating func drain(writable: Bool) -> Action {
        switch state {
        case .awaitingHello(var early, _):
            guard writable, !queue.isEmpty else {
                state = .awaitingHello(early: early, writable ? .idle : .paused)
                return .none
            }
            state = .modifying
            let limit = limit
            let taken = takeQueue { item in
                switch item {
                case .frame(let text):
                    return .write(text)
                case .message(let message, let frame):
                    // A client that never says hello must not pile them up.
                    guard early.count < limit else { return .cutOff(.fellBehind) }
                    early.append(EarlyMessage(message: message, frame: frame))
                    return .skip
                case .start(let since):
                    return .start(.replay(since: since, delivered: [:], early: early), then: .replaying)
                }
            }
            switch taken {
            case .stopped(let action):
                return action
            case .all(let frames):
                state = .awaitingHello(early: early, .draining)
                return .write(frames)
            }

        case .streaming(var delivered, _):
            guard writable, !queue.isEmpty else {
                state = .streaming(delivered, writable ? .idle : .paused)
                return .none
            }
            state = .modifying
            let taken = takeQueue { item in
                switch item {
                case .frame(let text):
                    return .write(text)
                case .start(let since):
                    // Another hello: replayed again from what the client now says it has.
                    return .start(.replay(since: since, delivered: delivered, early: []), then: .replaying)
                case .message(let message, let frame):
                    let conversation = message.conversationID
                    let last = delivered[conversation]
                    if let last, message.sequence <= last { return .skip }
                    if let frame, last.map({ message.sequence == $0 + 1 }) ?? true {
                        delivered[conversation] = message.sequence
                        return .write(frame)
                    }
                    // A gap to fill first, or a message to draw for this viewer.
                    return .start(.deliver(message, frame: frame, delivered: delivered), then: .waitingForStore)
                }
            }
            switch taken {
            case .stopped(let action):
                return action
            case .all(let frames):
                state = .streaming(delivered, .draining)
                return .write(frames)
            }

        case .replaying, .waitingForStore, .closing, .cutOff, .closed:
            return .none
        case .modifying:
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// On the event loop, when the socket takes writes again.
    mutating func writable() -> Action {
        switch state {
        case .awaitingHello(let early, .paused):
            state = .awaitingHello(early: early, .draining)
            return drain(writable: true)
        case .streaming(let delivered, .paused):
            state = .streaming(delivered, .draining)
            return drain(writable: true)
        default:
            return .none
        }
    }

    /// On the event loop: a store job has frames to write, in its order.
    /// - Returns: `.write(frames)`, or `.none` once the connection is closing or closed: the job
    ///   then stops.
    mutating func storeJobWrites(_ frames: [String]) -> Action {
        switch state {
        case .replaying, .waitingForStore: .write(frames)
        case .awaitingHello, .streaming, .closing, .cutOff, .closed, .modifying: .none
        }
    }

    /// On the event loop: a store job ended. What waited behind it goes on.
    /// - Parameter writable: whether the socket takes writes.
    mutating func storeJobDone(_ result: StoreJobResult, writable: Bool) -> Action {
        switch state {
        case .replaying, .waitingForStore:
            switch result {
            case .delivered(let delivered):
                state = .streaming(delivered, .draining)
                return drain(writable: writable)
            case .failed:
                return cutOff(after: [], .storeFailed)
            }
        case .closing, .cutOff, .closed:
            return .none
        case .awaitingHello, .streaming, .modifying:
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// Starts the closing handshake (the server is shutting down, the sign-in ended): what waits
    /// is dropped and nothing more is written after the close frame.
    mutating func close(_ frame: CloseFrame) -> Action {
        switch state {
        case .closing, .cutOff, .closed:
            return .none
        case .awaitingHello, .replaying, .streaming, .waitingForStore:
            state = .closing
            queue = []
            return .writeAndClose([], frame)
        case .modifying:
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// Cuts the connection off because its client is too far behind: what waits is dropped, the
    /// client is told why (it reconnects and replays what it missed), and nothing more is written.
    @discardableResult
    mutating func cutOff() -> Action {
        switch state {
        case .closing, .cutOff, .closed:
            return .none
        case .awaitingHello, .replaying, .streaming, .waitingForStore:
            return cutOff(after: [], .fellBehind)
        case .modifying:
            preconditionFailure("Invalid state: \(state)")
        }
    }

    /// The channel closed: nothing more is written. A connection cut off stays so, to be counted
    /// as a slow consumer when it is unregistered.
    mutating func channelClosed() {
        queue = []
        if case .cutOff = state { return }
        state = .closed
    }

    /// What a drain does with one item that waited.
    private enum Take {
        /// Write this frame, and go on.
        case write(String)
        /// Nothing to write for it, go on.
        case skip
        /// Stop here: write what was taken, then start this store job in this state; what comes
        /// after the item waits for the job's end.
        case start(StoreJob, then: State)
        /// Stop here: write what was taken, then this close frame; what waits is dropped.
        case cutOff(CloseFrame)
    }

    /// How a walk through the queue ended.
    private enum Taken {
        /// The whole queue was taken: these frames are to be written.
        case all([String])
        /// It stopped at an item, with this action.
        case stopped(Action)
    }

    /// Takes what waits from the front of the queue, each item as `take` says, until the queue is
    /// empty or `take` stops at an item (the items after it stay queued).
    private mutating func takeQueue(_ take: (Outgoing) -> Take) -> Taken {
        var frames: [String] = []
        var index = 0
        while index < queue.count {
            let item = queue[index]
            index += 1
            switch take(item) {
            case .write(let text):
                frames.append(text)
            case .skip:
                continue
            case .start(let job, let next):
                queue.removeFirst(index)
                state = next
                return .stopped(.writeAndStart(frames, job))
            case .cutOff(let close):
                return .stopped(cutOff(after: frames, close))
            }
        }
        queue = []
        return .all(frames)
    }

    private mutating func cutOff(after frames: [String], _ close: CloseFrame) -> Action {
        state = .cutOff
        queue = []
        return .writeAndClose(frames, close)
    }
}
