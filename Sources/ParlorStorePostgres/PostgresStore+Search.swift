import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func search(_ terms: SearchTerms, user: UserID, limit: Int) async throws -> [StoredMessage] {
        // Each word a quoted prefix ('meet':*), all of them required: the words are letters and
        // digits only, and a quote is doubled anyway, so nothing a person types is tsquery syntax.
        let query = terms.words.map { word in
            "'\(word.replacingOccurrences(of: "'", with: "''"))'\(SearchTerms.matchesPrefix(word) ? ":*" : "")"
        }.joined(separator: " & ")
        let rows = try await self.query("""
            SELECT \(unescaped: Self.messageColumns) FROM messages
            WHERE search @@ to_tsquery('simple', \(query)) AND unsent_at IS NULL
                AND EXISTS (SELECT 1 FROM members w WHERE w.conversation_id = messages.conversation_id AND w.user_id = \(user.description)
                    AND messages.seq > COALESCE(w.deleted_through, 0))
            ORDER BY ts_rank(search, to_tsquery('simple', \(query))) DESC, sent_at DESC
            LIMIT \(limit)
            """)
        return try rows.map(Self.decodeMessage)
    }
}
