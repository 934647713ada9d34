import Foundation
import ParlorKit

/// Finding messages by their words.
public protocol SearchStore: Sendable {
    /// The messages of `user`'s conversations that have a word starting with each of `terms`'
    /// words (see `SearchTerms`), the best match first, then the newest; at most `limit`. Unsent
    /// messages, and those of a history `user` deleted for themselves, are not found.
    func search(_ terms: SearchTerms, user: UserID, limit: Int) async throws -> [StoredMessage]
}
