import Foundation
import ParlorKit

/// How far one member has read a conversation.
public struct ReadReceiptRecord: Sendable, Hashable, Codable {
    public var user: UserID
    /// The sequence number of the last message they read.
    public var sequence: Int64
    /// When they read up to it; nil for marks older than read receipts.
    public var readAt: Date?

    public init(user: UserID, sequence: Int64, readAt: Date?) {
        self.user = user
        self.sequence = sequence
        self.readAt = readAt
    }
}
