import Foundation
import ParlorKit
import ParlorStore

/// Who is in which conversation, the check every request makes before anything else; and whom a
/// person's presence reaches there (not those blocked either way).
final class Membership: Sendable {
    let store: any ConversationStore & BlockStore
    let caches: ViewerCaches

    init(store: any ConversationStore & BlockStore, caches: ViewerCaches) {
        self.store = store
        self.caches = caches
    }

    /// The conversation whoever asks (read through the viewer caches): for fan-out and notices,
    /// which need its members, after the caller's own check.
    func conversation(_ id: ConversationID) async throws -> ConversationRecord? {
        try await caches.conversation(id, store: store)
    }

    /// Drops what the caches hold of a conversation that changed (elsewhere: the next read is the
    /// store's).
    func forget(_ conversation: ConversationID) async {
        await caches.forgetConversation(conversation)
    }

    /// The conversation, if `user` is in it.
    /// - Throws: `APIError.notFound` otherwise, whether or not it exists, so nothing leaks.
    @discardableResult
    func requireMember(_ user: UserID, of conversation: ConversationID) async throws -> ConversationRecord {
        guard let record = try await caches.conversation(conversation, store: store), record.members.contains(user) else {
            throw APIError.notFound
        }
        return record
    }

    /// The blocks `user` made and those made against them.
    func blocks(of user: UserID) async throws -> BlockList {
        try await store.blocks(of: user)
    }

    /// Whom `user`'s typing and read receipts reach in a conversation: its other members but
    /// those blocked either way. Nobody when the blocks cannot be read: a presence signal is not
    /// worth reaching someone who cut its sender off.
    func audience(of user: UserID, in conversation: ConversationRecord) async -> [UserID] {
        let others = conversation.members.filter { $0 != user }
        guard let separated = try? await store.blocks(of: user).separated else { return [] }
        return separated.isEmpty ? others : others.filter { !separated.contains($0) }
    }
}
