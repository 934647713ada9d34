import Foundation
import HummingbirdWebSocket
import ParlorKit
import ParlorStore

/// Writes one connection's queue to its socket, in order. Messages are delivered exactly once
/// per conversation in sequence order: duplicates are dropped and gaps are filled from the store.
struct ConnectionWriter: Sendable {
    let store: any ParlorStore
    let renderer: Renderer
    let connection: ClientConnection
    /// Where a reconnecting tab's compose fields and open apps come from.
    let apps: AppHost
    /// The most messages replayed for one conversation; beyond it the client is told to reload.
    static let maxReplay = 1000

    init(services: ParlorServices, connection: ClientConnection) {
        store = services.store
        renderer = services.renderer
        apps = services.apps
        self.connection = connection
    }

    /// Asks the writer to replay since the client's sequence numbers, then stream.
    func start(since: [String: Int64]) {
        connection.enqueue(.start(since: since))
    }

    /// Runs until the queue ends (the connection closed, or fell too far behind).
    func run(outbound: WebSocketOutboundWriter) async throws {
        var state = DeliveryState()
        for await item in connection.stream {
            defer { connection.didWrite() }
            // Cut off: skip the backlog so the close goes out next (the client replays it anyway).
            guard !connection.hasFallenBehind else { return }
            switch item {
            case .frame(let json):
                try await outbound.write(.text(json))
            case .start(let since):
                // The replay runs in a child task, so that its deep calls' memory is freed when it
                // ends rather than kept by this task for the life of the connection.
                state = try await withThrowingTaskGroup(of: DeliveryState.self) { group in
                    group.addTask { [state] in
                        var state = state
                        try await replay(since: since, state: &state, outbound: outbound)
                        for (message, frame) in state.early { try await deliver(message, frame: frame, state: &state, outbound: outbound) }
                        state.early = []
                        return state
                    }
                    return try await group.next() ?? state
                }
            case .message(let message, let frame):
                guard state.started else {
                    // Until hello, messages wait here; a client that never says hello must not pile them up.
                    guard state.early.count < connection.limit else {
                        connection.fellBehind()
                        return
                    }
                    state.early.append((message, frame))
                    continue
                }
                try await deliver(message, frame: frame, state: &state, outbound: outbound)
            }
        }
    }

    struct DeliveryState {
        var started = false
        var delivered: [ConversationID: Int64] = [:]
        var early: [(message: StoredMessage, frame: String?)] = []
    }

    private func replay(since: [String: Int64], state: inout DeliveryState, outbound: WebSocketOutboundWriter) async throws {
        state.started = true
        let user = connection.user
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
            try await fill(conversation, upTo: summary.conversation.lastSequence, state: &state, outbound: outbound)
        }
        try await outbound.write(.text(Wire.ServerFrame.ready.json()))
        // A tab that reconnects sees its compose fields and open apps as they are now.
        for frame in await apps.sessionFrames(for: user, in: summaries.map(\.conversation.id)) {
            try await outbound.write(.text(frame.json()))
        }
    }

    // Not inlined into `run`: a task keeps memory for its largest frame for as long as it lives
    // (the connection's life), and an idle connection never delivers.
    @inline(never)
    private func deliver(_ message: StoredMessage, frame: String?, state: inout DeliveryState, outbound: WebSocketOutboundWriter) async throws {
        let conversation = message.conversationID
        if let delivered = state.delivered[conversation] {
            guard message.sequence > delivered else { return }
            if message.sequence > delivered + 1 {
                try await fill(conversation, upTo: message.sequence - 1, state: &state, outbound: outbound)
            }
        }
        if let frame {
            try await outbound.write(.text(frame))
        } else {
            try await write(message, outbound: outbound)
        }
        state.delivered[conversation] = message.sequence
    }

    /// Sends the stored messages after what was delivered, up to `sequence`.
    private func fill(_ conversation: ConversationID, upTo sequence: Int64, state: inout DeliveryState, outbound: WebSocketOutboundWriter) async throws {
        guard let delivered = state.delivered[conversation], sequence > delivered else { return }
        if sequence - delivered > Int64(Self.maxReplay) {
            try await outbound.write(.text(Wire.ServerFrame.resync(conversation: conversation).json()))
            state.delivered[conversation] = sequence
            return
        }
        let hidden = try await store.hiddenMessages(user: connection.user, conversation: conversation)
        let after = try await store.forEachPage(in: conversation, after: delivered, through: sequence) { page in
            for message in try await renderer.render(page.filter { !hidden.contains($0.id) }, for: connection.user) {
                try await outbound.write(.text(Wire.ServerFrame.message(message).json()))
            }
        }
        state.delivered[conversation] = max(after, delivered)
    }

    private func write(_ message: StoredMessage, outbound: WebSocketOutboundWriter) async throws {
        let frame = Wire.ServerFrame.message(await renderer.render(message, for: connection.user))
        try await outbound.write(.text(frame.json()))
    }
}
