import Foundation
import ParlorKit

extension MessageStore {
    /// The most messages one page of `forEachPage` reads.
    public static var pageSize: Int { 200 }

    /// Reads a conversation's messages after `after` up to and including `last`, in order, one
    /// page at a time, and hands each page to `body`. Sequence numbers have no gaps, so this reads
    /// exactly the messages in that range.
    /// - Returns: the sequence of the last message read (`after` when there was none).
    @discardableResult
    public func forEachPage(
        in conversation: ConversationID, after: Int64, through last: Int64, _ body: ([StoredMessage]) async throws -> Void
    ) async throws -> Int64 {
        var after = after
        while after < last {
            let limit = Int(min(Int64(Self.pageSize), last - after))
            let page = try await messages(in: conversation, after: after, limit: limit).filter { $0.sequence <= last }
            guard let newest = page.last else { break }
            try await body(page)
            after = newest.sequence
        }
        return after
    }
}
