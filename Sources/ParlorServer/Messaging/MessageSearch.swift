import Foundation
import ParlorInput
import ParlorKit
import ParlorStore

/// Full-text search over everything a person can see: the texts, stickers' descriptions and app
/// messages' captions and summaries of their conversations (`SearchTerms` holds how words are
/// matched), best match first, each with an excerpt that marks the words found.
final class MessageSearch: Sendable {
    let store: any SearchStore & ExpiryStore
    let renderer: Renderer
    /// Searches each person may make per minute.
    let perPerson: RateLimiter

    /// - Parameter searchesPerMinute: how many searches each person may make per minute.
    init(store: any SearchStore & ExpiryStore, renderer: Renderer, searchesPerMinute: Int) {
        self.store = store
        self.renderer = renderer
        perPerson = RateLimiter(limit: searchesPerMinute, window: .seconds(60))
    }

    /// The most results one search returns.
    static let maxResults = 50
    /// How many characters of a long message an excerpt shows, and how many of them come before
    /// the first word found.
    static let excerptLength = 200
    static let excerptLead = 60

    /// What `user` finds for `query`, at most `limit` results.
    /// A query with no words (only spaces or punctuation) finds nothing; of a longer one, the first
    /// `SearchTerms.maxWords` words count.
    /// - Throws: `searchTooLong` past `SearchTerms.maxQueryLength` characters; `searchingTooFast`
    ///   past `searchesPerMinute`.
    func search(_ query: String, limit: Int, for user: UserID) async throws -> Wire.SearchResults {
        // Counted as JSON Schema counts a string's length (code points), so docs/openapi.yaml can state it.
        guard query.unicodeScalars.count <= SearchTerms.maxQueryLength else {
            throw APIError(.badRequest, code: .searchTooLong, "A search is at most \(SearchTerms.maxQueryLength) characters.")
        }
        if let wait = await perPerson.take(user.description) {
            throw APIError.tooMany(
                .searchingTooFast, "You searched more than \(perPerson.limit) times in the last minute; try again in \(wait) seconds.",
                retryAfter: wait)
        }
        guard let terms = SearchTerms(query) else { return Wire.SearchResults(query: query, results: []) }
        let found = try await store.search(terms, user: user, limit: limit)
        // Messages that expired for this person after they read them, or that they deleted, are gone for them.
        var visible: [StoredMessage] = []
        var hidden: [ConversationID: HiddenMessages] = [:]
        for message in found {
            if hidden[message.conversationID] == nil {
                hidden[message.conversationID] = try await store.hiddenMessages(user: user, conversation: message.conversationID)
            }
            if hidden[message.conversationID]?.contains(message) != true { visible.append(message) }
        }
        // Rendered a conversation at a time (one reactions read each), then put back in rank order.
        var rendered: [MessageID: Wire.Message] = [:]
        for conversation in Set(visible.map(\.conversationID)) {
            for message in try await renderer.render(visible.filter { $0.conversationID == conversation }, for: user) {
                rendered[message.id] = message
            }
        }
        var results: [Wire.SearchResult] = []
        for message in visible {
            guard let wire = rendered[message.id] else { continue }
            let text = await renderer.readableText(of: message.content)
            results.append(Wire.SearchResult(conversation: message.conversationID, message: wire, excerpt: Self.excerpt(of: text, terms: terms)))
        }
        return Wire.SearchResults(query: query, results: results)
    }

    /// `text` in pieces, the words `terms` found marked; a long text is cut to `excerptLength`
    /// characters around the first word found, an ellipsis where it was cut.
    static func excerpt(of text: String, terms: SearchTerms) -> [Wire.ExcerptPiece] {
        let words = SearchTerms.wordRanges(in: text).filter { terms.matches(folded: SearchTerms.fold(text[$0])) }
        var start = text.startIndex
        var end = text.endIndex
        if text.count > excerptLength {
            let first = words.first?.lowerBound ?? text.startIndex
            start = text.index(first, offsetBy: -min(excerptLead, text.distance(from: text.startIndex, to: first)))
            // Start at a word's beginning rather than inside one.
            if start > text.startIndex, let space = text[start..<first].firstIndex(where: \.isWhitespace) {
                start = text.index(after: space)
            }
            end = text.index(start, offsetBy: excerptLength, limitedBy: text.endIndex) ?? text.endIndex
        }
        var pieces: [Wire.ExcerptPiece] = []
        func add(_ range: Range<String.Index>, match: Bool) {
            guard !range.isEmpty else { return }
            pieces.append(Wire.ExcerptPiece(text: String(text[range]), match: match))
        }
        if start > text.startIndex { pieces.append(Wire.ExcerptPiece(text: "…", match: false)) }
        var cursor = start
        for word in words where word.lowerBound >= start && word.upperBound <= end {
            add(cursor..<word.lowerBound, match: false)
            add(word, match: true)
            cursor = word.upperBound
        }
        add(cursor..<end, match: false)
        if end < text.endIndex { pieces.append(Wire.ExcerptPiece(text: "…", match: false)) }
        return pieces
    }
}
