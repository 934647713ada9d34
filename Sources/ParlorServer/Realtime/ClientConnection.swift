import Foundation
import NIOCore
import NIOWebSocket
import ParlorInput
import ParlorKit
import ParlorStore
import Synchronization

/// The outbound side of one WebSocket connection: a bounded queue, written in order by the
/// connection's event loop, all that waited with one flush. Messages are delivered exactly once
/// per conversation in sequence order: duplicates are dropped and gaps are filled from the store.
///
/// It holds no task: frames ready to go are written on the event loop as they come; a task runs
/// only for what needs the store (a replay, a gap to fill, a message drawn per viewer) and ends
/// with it. A connection that falls `limit` items behind is cut off (its client reconnects and
/// replays what it missed), so a slow client never holds up the others.
final class ClientConnection: Sendable {
    let id = UUID()
    let user: UserID
    /// The SHA-256 hash of the token the connection was opened with: it is closed when that
    /// sign-in ends (`Sessions`).
    let tokenHash: String
    /// The most items that may wait; past it the connection is cut off.
    let limit: Int
    /// The most messages replayed for one conversation; beyond it the client is told to reload.
    static let maxReplay = 1000

    private let channel: any Channel
    private let store: any ParlorStore
    private let renderer: Renderer
    /// Where a reconnecting tab's compose fields and open apps come from.
    private let apps: AppHost
    private let state = Mutex(Queue())
    /// What was delivered: used by one drain at a time (`Queue.draining`).
    private let delivery = Mutex(DeliveryState())

    private struct Queue {
        var items: [Outgoing] = []
        /// A drain is scheduled or running, or waits for the socket or for the store.
        var draining = false
        /// The drain stopped because the socket took no more; `writable()` resumes it.
        var paused = false
        var overflowed = false
        var closed = false
    }

    init(user: UserID, tokenHash: String, channel: any Channel, services: ParlorServices) {
        self.user = user
        self.tokenHash = tokenHash
        self.channel = channel
        limit = services.configuration.sendQueueLimit
        store = services.store
        renderer = services.renderer
        apps = services.apps
    }

    /// Queues `item`; false when the connection is closed, or too far behind (it is then cut off).
    @discardableResult
    func enqueue(_ item: Outgoing) -> Bool {
        enum Outcome { case queued, scheduled, full, closed }
        let outcome = state.withLock { queue -> Outcome in
            guard !queue.overflowed, !queue.closed else { return .closed }
            guard queue.items.count < limit else { return .full }
            queue.items.append(item)
            guard !queue.draining else { return .queued }
            queue.draining = true
            return .scheduled
        }
        switch outcome {
        case .queued: return true
        case .scheduled:
            channel.eventLoop.execute { self.drain() }
            return true
        case .full:
            fellBehind()
            return false
        case .closed: return false
        }
    }

    /// Returns once the connection's event loop has run what was queued for it before the call:
    /// a frame queued then has been written, or waits for the socket to take more (a slow client
    /// holds nobody up here).
    func written() async {
        try? await channel.eventLoop.submit {}.get()
    }

    /// Whether the connection is closing or closed: what its client still sends is not handled.
    var isClosed: Bool { state.withLock { $0.closed || $0.overflowed } }

    /// Whether the client fell too far behind.
    var hasFallenBehind: Bool { state.withLock { $0.overflowed } }

    /// How many items wait to be written.
    var waiting: Int { state.withLock { $0.items.count } }

    /// Cuts the connection off because the client is too far behind (`cutOff`).
    func fellBehind() {
        cutOff(.unknown(1013), reason: "Too far behind; reconnect to catch up.")
    }

    /// Cuts the connection off: what waits is dropped, the client is told why (it reconnects and
    /// replays what it missed), and dropped if it does not take the close frame in time
    /// (`WebSocketMessageHandler`'s close timeout).
    private func cutOff(_ code: WebSocketErrorCode, reason: String) {
        let first = state.withLock { queue in
            defer {
                queue.overflowed = true
                queue.items = []
            }
            return !queue.overflowed
        }
        guard first else { return }
        channel.writeAndFlush(SocketOutbound.close(code, reason: reason), promise: nil)
    }

    /// Starts the closing handshake (the server is shutting down, the sign-in ended); nothing
    /// more is written before the close frame.
    func close(_ code: WebSocketErrorCode, reason: String) {
        state.withLock { queue in
            queue.closed = true
            queue.items = []
        }
        channel.writeAndFlush(SocketOutbound.close(code, reason: reason), promise: nil)
    }

    /// The channel closed: nothing more is written.
    func closed() {
        state.withLock { queue in
            queue.closed = true
            queue.items = []
        }
    }

    /// On the event loop, when the socket takes writes again.
    func writable() {
        let paused = state.withLock { queue in
            defer { queue.paused = false }
            return queue.paused
        }
        if paused { drain() }
    }

    /// On the event loop: writes what waits and flushes once; hands what needs the store to a
    /// task, and goes on when it is done. Stops while the socket takes no more (`writable()`
    /// resumes).
    private func drain() {
        var wrote = false
        defer { if wrote { channel.flush() } }
        while true {
            guard channel.isWritable else {
                state.withLock { $0.paused = true }
                return
            }
            let batch = state.withLock { queue -> [Outgoing] in
                guard !queue.overflowed, !queue.closed, !queue.items.isEmpty else {
                    queue.draining = false
                    return []
                }
                defer { queue.items = [] }
                return queue.items
            }
            guard !batch.isEmpty else { return }
            for (index, item) in batch.enumerated() {
                switch delivery.withLock({ $0.step(for: item, limit: limit) }) {
                case .write(let text):
                    channel.write(SocketOutbound.text(text), promise: nil)
                    wrote = true
                case .skip:
                    continue
                case .overflow:
                    fellBehind()
                    return
                case .needsStore:
                    let rest = batch[(index + 1)...]
                    state.withLock { $0.items.insert(contentsOf: rest, at: 0) }
                    let eventLoop = channel.eventLoop
                    Task {
                        await self.write(item)
                        eventLoop.execute { self.drain() }
                    }
                    return
                }
            }
        }
    }

    /// What a drain does with one item.
    enum Step {
        case write(String)
        case skip
        /// Too many messages before `hello`.
        case overflow
        /// A replay, a gap to fill first, or a message to draw for this viewer.
        case needsStore
    }

    struct DeliveryState {
        var started = false
        var delivered: [ConversationID: Int64] = [:]
        var early: [(message: StoredMessage, frame: String?)] = []

        /// The step that needs no store, when there is one.
        mutating func step(for item: Outgoing, limit: Int) -> Step {
            switch item {
            case .frame(let json):
                return .write(json)
            case .start:
                return .needsStore
            case .message(let message, let frame):
                guard started else {
                    // Until hello, messages wait here; a client that never says hello must not pile them up.
                    guard early.count < limit else { return .overflow }
                    early.append((message, frame))
                    return .skip
                }
                let conversation = message.conversationID
                if let delivered = delivered[conversation] {
                    guard message.sequence > delivered else { return .skip }
                    guard message.sequence == delivered + 1 else { return .needsStore }
                }
                guard let frame else { return .needsStore }
                delivered[conversation] = message.sequence
                return .write(frame)
            }
        }
    }

    /// In a task: an item that needs the store.
    private func write(_ item: Outgoing) async {
        var state = delivery.withLock { state in
            defer { state = DeliveryState() }
            return state
        }
        do {
            switch item {
            case .start(let since):
                try await replay(since: since, state: &state)
                for (message, frame) in state.early { try await deliver(message, frame: frame, state: &state) }
                state.early = []
            case .message(let message, let frame):
                try await deliver(message, frame: frame, state: &state)
            case .frame(let text):
                try await send(text)
            }
        } catch {
            // The connection closed, or the store failed: either way what this connection was
            // sent is no longer known to be whole, so it ends, and its client replays on reconnecting.
            cutOff(.unexpectedServerError, reason: "The server could not send what you missed; reconnect to catch up.")
        }
        delivery.withLock { [state] in $0 = state }
    }

    private func send(_ text: String) async throws {
        try await channel.writeAndFlush(SocketOutbound.text(text))
    }

    private func replay(since: [String: Int64], state: inout DeliveryState) async throws {
        state.started = true
        // Keys are conversation ids in any letter case.
        let since = Dictionary(since.compactMap { key, value in ConversationID(key).map { ($0, value) } }, uniquingKeysWith: max)
        let summaries = try await store.conversations(of: user)
        for summary in summaries {
            let conversation = summary.conversation.id
            guard let last = since[conversation] else {
                // Not replayed, but nothing committed from now on is skipped: a later message
                // that arrives first (another node's notification can be overtaken by this
                // node's own send) fills the gap. Messages that came before hello still go out.
                let firstEarly = state.early.lazy.filter { $0.message.conversationID == conversation }.map(\.message.sequence).min()
                state.delivered[conversation] = min(summary.conversation.lastSequence, (firstEarly ?? .max) - 1)
                continue
            }
            // What the client says it has, within what exists: a value from elsewhere (another
            // server, a hand-written client) can neither overflow the arithmetic nor skip messages.
            state.delivered[conversation] = min(max(0, last), summary.conversation.lastSequence)
            try await fill(conversation, upTo: summary.conversation.lastSequence, state: &state)
        }
        try await send(Wire.ServerFrame.ready.json())
        // A tab that reconnects sees its compose fields and open apps as they are now.
        for frame in await apps.sessionFrames(for: user, in: summaries.map(\.conversation.id)) {
            try await send(frame.json())
        }
    }

    private func deliver(_ message: StoredMessage, frame: String?, state: inout DeliveryState) async throws {
        let conversation = message.conversationID
        if let delivered = state.delivered[conversation] {
            guard message.sequence > delivered else { return }
            if message.sequence > delivered + 1 {
                try await fill(conversation, upTo: message.sequence - 1, state: &state)
            }
        }
        if let frame {
            try await send(frame)
        } else {
            try await send(Wire.ServerFrame.message(await renderer.render(message, for: user)).json())
        }
        state.delivered[conversation] = message.sequence
    }

    /// Sends the stored messages after what was delivered, up to `sequence`.
    private func fill(_ conversation: ConversationID, upTo sequence: Int64, state: inout DeliveryState) async throws {
        guard let delivered = state.delivered[conversation], sequence > delivered else { return }
        if sequence - delivered > Int64(Self.maxReplay) {
            try await send(Wire.ServerFrame.resync(conversation: conversation).json())
            state.delivered[conversation] = sequence
            return
        }
        let hidden = try await store.hiddenMessages(user: user, conversation: conversation)
        let after = try await store.forEachPage(in: conversation, after: delivered, through: sequence) { page in
            for message in try await renderer.render(page.filter { !hidden.contains($0.id) }, for: user) {
                try await send(Wire.ServerFrame.message(message).json())
            }
        }
        state.delivered[conversation] = max(after, delivered)
    }
}
