import Foundation
import ParlorKit

/// Expiring messages: when each reader first read one, which they kept, and what is hidden (with
/// the history a member deleted for themselves).
public protocol ExpiryStore: Sendable {
    /// Records that `user` first read an expiring message at `at` (later reads keep the first),
    /// without waiting for the disk (see `ParlorStore`).
    func recordExpiringRead(user: UserID, message: MessageID, conversation: ConversationID, at: Date) async throws
    /// Keeps an expiring message for `user`.
    func keep(user: UserID, message: MessageID, conversation: ConversationID) async throws
    /// Hides, for their readers, expiring messages read before `readBefore` and not kept; returns what it hid.
    func expireReads(readBefore: Date) async throws -> [(user: UserID, conversation: ConversationID, message: MessageID)]
    /// What is hidden from `user` in a conversation: expired messages, and the history they deleted.
    func hiddenMessages(user: UserID, conversation: ConversationID) async throws -> HiddenMessages
}
