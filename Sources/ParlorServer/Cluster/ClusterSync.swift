import Foundation
import ParlorHost
import ParlorKit
import ParlorStore
import ServiceLifecycle

/// The last sequence number this node has fanned out per conversation, to catch up after missed
/// notifications.
actor FanOutTracker {
    private var fannedOut: [ConversationID: Int64] = [:]

    func record(_ conversation: ConversationID, sequence: Int64) {
        fannedOut[conversation] = max(fannedOut[conversation] ?? 0, sequence)
    }

    func last(_ conversation: ConversationID) -> Int64? { fannedOut[conversation] }

    var conversations: [ConversationID: Int64] { fannedOut }
}

/// Applies other nodes' changes to this node: their messages reach this node's connections and
/// open apps, compose fields and app views follow the user across nodes, and after a missed
/// stretch (`listenerRestarted`) this node catches up from the store.
struct ClusterSync: Service {
    let services: ParlorServices
    /// What catching up reads: the conversations of the users here, their messages, compose fields.
    let store: any ConversationStore & MessageStore & AppStateStore

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await envelope in services.fanOut.bus.events() {
                // This node's own changes are applied already; `.listenerRestarted` is its own news.
                guard envelope.origin != services.fanOut.bus.nodeID || envelope.event == .listenerRestarted else { continue }
                await apply(envelope.event)
            }
        }
        // Alone on its store there are no events; a service that returned would stop the server.
        try? await gracefulShutdown()
    }

    func apply(_ event: ClusterEvent) async {
        do {
            switch event {
            case .messagesCommitted(let pointers):
                // Sequence numbers have no gaps: one read per conversation brings every message
                // from the oldest pointer (or the last one fanned out here) to the newest.
                let ranges = Dictionary(pointers.map { ($0.conversation, $0.sequence...$0.sequence) }) { a, b in
                    min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
                }
                for (conversation, range) in ranges.sorted(by: { $0.key < $1.key }) {
                    try await fanOut(range, in: conversation)
                }
            case .stagedChanged(let user, let conversation):
                guard await services.fanOut.hub.isOnline(user) else { return }
                let staged = try await store.staged(user: user, conversation: conversation)
                await services.apps.pushStaged(staged, user: user, conversation: conversation)
            case .instanceChanged(let user, let conversation, let app):
                await services.apps.refreshInstance(user: user, scope: InstanceScope(conversation: conversation), app: app)
            case .instanceDropped(let user, let conversation, let app):
                await services.apps.forgetInstance(user: user, scope: InstanceScope(conversation: conversation), app: app)
            case .conversationChanged(let conversation):
                try await services.conversations.changedElsewhere(conversation)
            case .listChanged(let user, let conversation):
                await services.conversations.notices.send(conversation, to: [user])
            case .messageChanged(let conversation, let message):
                try await services.changes.changedElsewhere(message, in: conversation)
            case .reactionsChanged(let conversation, let message):
                try await services.reactions.changedElsewhere(message, in: conversation)
            case .readMoved(let user, let conversation):
                await services.messaging.showReceipt(of: user, in: conversation)
                await services.conversations.notices.send(conversation, to: [user])
            case .userChanged(let user):
                await services.renderer.caches.forgetUser(user)
            case .sessionsEnded(let user, let tokenHashes):
                await services.sessions.closeHere(tokenHashes, of: user)
            case .typing(let user, let conversation, let isTyping):
                try await services.typing.relayedElsewhere(isTyping, user: user, in: conversation)
            case .listenerRestarted:
                // Every conversation this node serves: those it has fanned out and those of the
                // users connected to it. Its newest message is enough: a connection that missed
                // the ones before it fills the gap from the store.
                var newest: [ConversationID: Int64] = [:]
                for user in await services.fanOut.hub.onlineUsers {
                    for summary in try await store.conversations(of: user) {
                        newest[summary.conversation.id] = summary.conversation.lastSequence
                    }
                }
                for conversation in await services.fanOut.tracker.conversations.keys where newest[conversation] == nil {
                    newest[conversation] = try await store.conversation(id: conversation)?.lastSequence
                }
                for (conversation, sequence) in newest.sorted(by: { $0.key < $1.key }) where sequence > 0 {
                    try await fanOut(sequence...sequence, in: conversation)
                }
            }
        } catch {
            services.logger.warning("Could not apply another node's change", metadata: ["event": "\(event)", "error": "\(error)"])
        }
    }

    /// Fans out, on this node, every message of `conversation` after the last one it fanned out
    /// (from the start of `range` when it has fanned out none) up to the end of `range`.
    /// Connections drop what they already have.
    private func fanOut(_ range: ClosedRange<Int64>, in conversation: ConversationID) async throws {
        let sequence = range.upperBound
        let last = await services.fanOut.tracker.last(conversation) ?? (range.lowerBound - 1)
        guard sequence > last else { return }
        try await store.forEachPage(in: conversation, after: last, through: sequence) { page in
            for message in page { await services.messaging.fanOut(message) }
        }
    }
}
