import ParlorInput
import ParlorKit
import ParlorStore

/// A connection's store job (`ConnectionStateMachine.StoreJob`) as it runs, in a task: sends what
/// the client missed, read from a `DeliverySource`, through `write`, and keeps track of what it
/// delivered, so that nothing goes out twice or out of order.
struct CatchUp {
    /// The most messages replayed for one conversation; beyond it the client is told to reload
    /// it (`resync`).
    static let maxReplay = 1000

    let user: UserID
    let source: any DeliverySource
    /// Writes frames to the connection, in order, and returns once the socket took them.
    /// Throws once the connection writes no more.
    let write: @Sendable ([String]) async throws -> Void
    /// The last sequence delivered, per conversation.
    private(set) var delivered: ConnectionStateMachine.Delivered

    /// Runs `job` for `user`'s connection.
    /// - Returns: what is delivered after it.
    /// - Throws: when the store fails or the connection writes no more; nothing more is written then.
    static func run(
        _ job: ConnectionStateMachine.StoreJob, for user: UserID, from source: any DeliverySource,
        write: @escaping @Sendable ([String]) async throws -> Void
    ) async throws -> ConnectionStateMachine.Delivered {
        switch job {
        case .replay(let since, let delivered, let early):
            var catchUp = CatchUp(user: user, source: source, write: write, delivered: delivered)
            try await catchUp.replay(since: since, early: early)
            for message in early { try await catchUp.deliver(message.message, frame: message.frame) }
            return catchUp.delivered
        case .deliver(let message, let frame, let delivered):
            var catchUp = CatchUp(user: user, source: source, write: write, delivered: delivered)
            try await catchUp.deliver(message, frame: frame)
            return catchUp.delivered
        }
    }

    /// What the client missed since `since`, then `ready` and the tab's session frames. The
    /// early messages (those that came before hello) follow it.
    private mutating func replay(since: [String: Int64], early: [ConnectionStateMachine.EarlyMessage]) async throws {
        // Keys are conversation ids in any letter case.
        let since = Dictionary(since.compactMap { key, value in ConversationID(key).map { ($0, value) } }, uniquingKeysWith: max)
        let conversations = try await source.conversations(of: user)
        for (conversation, lastSequence) in conversations {
            guard let last = since[conversation] else {
                // Not replayed, but nothing committed from now on is skipped: a later message
                // that arrives first (another node's notification can be overtaken by this
                // node's own send) fills the gap. Messages that came before hello still go out.
                let firstEarly = early.lazy.filter { $0.message.conversationID == conversation }.map(\.message.sequence).min()
                delivered[conversation] = min(lastSequence, (firstEarly ?? .max) - 1)
                continue
            }
            // What the client says it has, within what exists: a value from elsewhere (another
            // server, a hand-written client) can neither overflow the arithmetic nor skip messages.
            delivered[conversation] = min(max(0, last), lastSequence)
            try await fill(conversation, upTo: lastSequence)
        }
        try await write([Wire.ServerFrame.ready.json()])
        // A tab that reconnects sees its compose fields and open apps as they are now.
        let sessionFrames = await source.sessionFrames(for: user, in: conversations.map { $0.id })
        if !sessionFrames.isEmpty { try await write(sessionFrames.map { $0.json() }) }
    }

    /// `message`, after the gap before it is filled; nothing when it was delivered already.
    private mutating func deliver(_ message: StoredMessage, frame: String?) async throws {
        let conversation = message.conversationID
        if let last = delivered[conversation] {
            guard message.sequence > last else { return }
            if message.sequence > last + 1 {
                try await fill(conversation, upTo: message.sequence - 1)
            }
        }
        if let frame {
            try await write([frame])
        } else {
            try await write([Wire.ServerFrame.message(Wire.EncodedMessage(await source.render(message, for: user))).json()])
        }
        delivered[conversation] = message.sequence
    }

    /// The stored messages after what was delivered, up to `sequence`; `resync` instead when
    /// more than `maxReplay` are missing.
    private mutating func fill(_ conversation: ConversationID, upTo sequence: Int64) async throws {
        guard let last = delivered[conversation], sequence > last else { return }
        if sequence - last > Int64(Self.maxReplay) {
            try await write([Wire.ServerFrame.resync(conversation: conversation).json()])
            delivered[conversation] = sequence
            return
        }
        let write = self.write
        let after = try await source.messages(in: conversation, for: user, after: last, through: sequence) { page in
            if !page.isEmpty { try await write(page.map { Wire.ServerFrame.message(Wire.EncodedMessage($0)).json() }) }
        }
        delivered[conversation] = max(after, last)
    }
}
