import Foundation
import ParlorKit

/// How far each member has read: read marks, and the read receipts members share from them.
public protocol ReceiptStore: Sendable {
    /// Marks messages up to `sequence` as read by `user` (a mark never moves back, nor past the
    /// conversation's last message), without waiting for the disk (see `ParlorStore`).
    /// - Returns: the user's read mark before and after this call: the messages in between are
    ///   newly read.
    @discardableResult
    func markRead(user: UserID, conversation: ConversationID, upTo sequence: Int64) async throws -> (previous: Int64, current: Int64)
    /// `user`'s read mark in a conversation and the conversation's last sequence number (both 0
    /// for someone who is not a member).
    func readMark(user: UserID, conversation: ConversationID) async throws -> (mark: Int64, last: Int64)
    /// How far each member who shares read receipts has read, and when their mark last moved
    /// (nil before this was recorded); only `user`'s, when given (none when they do not share).
    func readReceipts(in conversation: ConversationID, of user: UserID?) async throws -> [ReadReceiptRecord]
    /// Whether `user` lets others see how far they have read (true unless they turned it off).
    func sharesReadReceipts(_ user: UserID) async throws -> Bool
    func setSharesReadReceipts(_ shares: Bool, user: UserID) async throws
}

extension ReceiptStore {
    /// Every member's read receipt that is shared.
    public func readReceipts(in conversation: ConversationID) async throws -> [ReadReceiptRecord] {
        try await readReceipts(in: conversation, of: nil)
    }
}
