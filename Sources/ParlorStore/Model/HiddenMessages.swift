import Foundation
import ParlorKit

/// What one member no longer sees of a conversation: expiring messages whose time ran out after
/// they read them, and everything up to where they deleted the conversation for themselves.
public struct HiddenMessages: Sendable, Hashable {
    /// Expiring messages hidden from this member (`ExpiryStore.expireReads`).
    public var expired: Set<MessageID>
    /// The last sequence of the history they deleted for themselves (`ListChange.deleteHistory`);
    /// 0 when they never did.
    public var deletedThrough: Int64

    public init(expired: Set<MessageID> = [], deletedThrough: Int64 = 0) {
        self.expired = expired
        self.deletedThrough = deletedThrough
    }

    /// Whether `message` is hidden from this member.
    public func contains(_ message: StoredMessage) -> Bool {
        message.sequence <= deletedThrough || expired.contains(message.id)
    }
}
