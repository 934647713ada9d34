import Foundation
import Logging
import ParlorInput
import ParlorKit
import ParlorStore

/// Tells people's connections that a conversation changed: its `conversation` frame, as each
/// member's list shows it (title, members, unread count).
final class ConversationNotices: Sendable {
    let store: any ConversationStore
    let caches: ViewerCaches
    let renderer: Renderer
    let hub: Hub
    let bus: any ClusterBus
    let logger: Logger

    init(store: any ConversationStore, caches: ViewerCaches, renderer: Renderer, fanOut: FanOut, logger: Logger) {
        self.store = store
        self.caches = caches
        self.renderer = renderer
        hub = fanOut.hub
        bus = fanOut.bus
        self.logger = logger
    }

    /// Tells `users` here and on the other nodes (created, renamed, members changed).
    func announce(_ conversation: ConversationID, to users: [UserID]) async {
        await announceLocally(conversation, to: users)
        await bus.publish(.conversationChanged(conversation))
    }

    /// Tells `user`'s own connections, here and on the other nodes, how the conversation sits in
    /// their list now (muted, pinned, archived, marked unread). Nobody else hears of it: not even
    /// that something changed.
    func announceToOwner(_ conversation: ConversationID, user: UserID) async {
        await send(conversation, to: [user])
        await bus.publish(.listChanged(user: user, conversation: conversation))
    }

    /// Tells this node's connections of `users`; cached membership is read again.
    func announceLocally(_ conversation: ConversationID, to users: [UserID]) async {
        await caches.forgetConversation(conversation)
        await send(conversation, to: users)
    }

    /// Sends each of `users` connected to this node the conversation as their list shows it (the
    /// others read it when they connect); a user no longer in it gets the frame without
    /// `conversationInfo`.
    func send(_ conversation: ConversationID, to users: [UserID]) async {
        for user in users {
            guard await hub.isOnline(user) else { continue }
            do {
                var info: Wire.Conversation?
                if let summary = try await store.conversationSummary(conversation, for: user) {
                    info = try await renderer.conversation(summary, for: user)
                }
                await hub.send(.conversation(conversation, info: info), to: user)
            } catch {
                logger.warning("Could not announce a conversation change", metadata: ["error": "\(error)"])
            }
        }
    }
}
