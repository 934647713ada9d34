import Foundation
import GRDB
import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func search(_ terms: SearchTerms, user: UserID, limit: Int) async throws -> [StoredMessage] {
        // Each word a quoted prefix ("meet"*), all of them required: the words are letters and
        // digits only, and a quote is doubled anyway, so nothing a person types is FTS5 syntax.
        let match = terms.words.map { word in
            "\"\(word.replacingOccurrences(of: "\"", with: "\"\""))\"\(SearchTerms.matchesPrefix(word) ? "*" : "")"
        }.joined(separator: " ")
        return try await read { db in
            try MessageRow.fetchAll(db, sql: """
                SELECT m.* FROM message_search s JOIN messages m ON m.rowid = s.rowid
                WHERE message_search MATCH ? AND m.unsent_at IS NULL
                    AND EXISTS (SELECT 1 FROM members w WHERE w.conversation_id = m.conversation_id AND w.user_id = ?
                        AND m.seq > IFNULL(w.deleted_through, 0))
                ORDER BY bm25(message_search), m.sent_at DESC
                LIMIT ?
                """, arguments: [match, user.description, limit]
            ).map { try $0.stored() }
        }
    }
}
