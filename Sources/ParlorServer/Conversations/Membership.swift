import Foundation
import ParlorKit
import ParlorStore

/// Who is in which conversation: the check every request makes before anything else.
final class Membership: Sendable {
    let store: any ParlorStore
    let caches: ViewerCaches

    init(store: any ParlorStore, caches: ViewerCaches) {
        self.store = store
        self.caches = caches
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
}
