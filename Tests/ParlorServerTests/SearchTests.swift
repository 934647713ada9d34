import Foundation
import ParlorInput
import ParlorKit
@testable import ParlorServer
@testable import ParlorStore
import Testing

@Suite("Searching messages")
struct SearchTests {
    static func search(_ query: String, as person: Person, in api: API, limit: Int? = nil) async throws -> Reply {
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "q", value: query)] + (limit.map { [URLQueryItem(name: "limit", value: "\($0)")] } ?? [])
        return try await api.get("/api/search?\(components.percentEncodedQuery ?? "")", as: person)
    }

    /// An excerpt as a person reads it, the words found in [brackets].
    static func marked(_ excerpt: [Wire.ExcerptPiece]) -> String {
        excerpt.map { $0.match ? "[\($0.text)]" : $0.text }.joined()
    }

    @Test("A search finds the messages of one's own conversations, best first, with the words found marked, in the conversation they are in")
    func findsAndMarks() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])
            let group = try await api.conversation(of: bob, with: [carol], title: "Plans")
            try await api.send("Lunch at the Café on Friday?", in: direct.id, as: alice)
            try await api.send("Cafés near the office", in: direct.id, as: bob)
            try await api.send("The café is a secret", in: group.id, as: carol)

            let found = try await Self.search("cafe", as: alice, in: api).decode(Wire.SearchResults.self)
            #expect(found.query == "cafe")
            #expect(Set(found.results.map { Self.marked($0.excerpt) }) == ["Lunch at the [Café] on Friday?", "[Cafés] near the office"])
            #expect(found.results.allSatisfy { $0.conversation == direct.id && $0.message.conversation == direct.id })
            #expect(Set(found.results.map(\.message.senderName)) == ["Alice", "Bob"], "each result says who sent it")

            let bobs = try await Self.search("café", as: bob, in: api).decode(Wire.SearchResults.self)
            #expect(bobs.results.count == 3, "Bob is in both conversations")
            #expect(try await Self.search("secret", as: alice, in: api).decode(Wire.SearchResults.self).results.isEmpty,
                    "a conversation Alice is not in is not searched")
            #expect(try await Self.search("cafe", as: bob, in: api, limit: 1).decode(Wire.SearchResults.self).results.count == 1)
            #expect(try await api.get("/api/search?q=cafe").status == .unauthorized)
        }
    }

    @Test("A query too long or a wrong limit is refused, saying why; a query with no words finds nothing; past eight words, the first eight count")
    func refusals() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            #expect(try await api.get("/api/search", as: alice).errorCode == "invalidValue")
            #expect(try await api.get("/api/search?q=", as: alice).errorCode == "invalidValue")
            let direct = try await api.conversation(of: alice, with: [try await api.signUp("bob")])
            try await api.send("one two three four five six seven eight", in: direct.id, as: alice)
            let nothing = try await Self.search("?! …", as: alice, in: api)
            let none = try nothing.decode(Wire.SearchResults.self)
            #expect(nothing.status == .ok && none.results.isEmpty)
            let long = try await Self.search(String(repeating: "a", count: SearchTerms.maxQueryLength + 1), as: alice, in: api)
            #expect(long.status == .badRequest && long.errorCode == "searchTooLong")
            #expect(long.text.contains("\(SearchTerms.maxQueryLength) characters"))
            let wordy = try await Self.search("one two three four five six seven eight nine", as: alice, in: api)
            #expect(try wordy.decode(Wire.SearchResults.self).results.count == 1, "the ninth word does not count")
            #expect(try await Self.search("one two three four five six seven zebra", as: alice, in: api)
                .decode(Wire.SearchResults.self).results.isEmpty, "the first eight all do")
            for limit in [0, MessageSearch.maxResults + 1] {
                #expect(try await Self.search("hi", as: alice, in: api, limit: limit).errorCode == "invalidValue")
            }
        }
    }

    @Test("Past searchesPerMinute a person is told to wait; another person is not")
    func flood() async throws {
        try await TestServer { $0.searchesPerMinute = 3 }.run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            for _ in 0..<3 { #expect(try await Self.search("hello", as: alice, in: api).status == .ok) }
            let limited = try await Self.search("hello", as: alice, in: api)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "searchingTooFast")
            #expect(limited.headers[.retryAfter] != nil)
            #expect(try await Self.search("hello", as: bob, in: api).status == .ok)
        }
    }

    @Test("Edited messages are found by their new text, unsent ones not at all")
    func changes() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let typo = try await api.send("Meet at the trian station", in: direct.id, as: alice)
            let secret = try await api.send("The code is swordfish", in: direct.id, as: alice)
            let socket = try await TestSocket.session(port: port, as: alice)
            try await socket.send("edit", [
                "conversation": .string(direct.id.description), "message": .string(typo.id.description), "text": "Meet at the train station",
            ])
            try await socket.send("unsend", ["conversation": .string(direct.id.description), "message": .string(secret.id.description)])
            _ = try await socket.framesQueued()
            let train = try await Self.search("train", as: bob, in: api).decode(Wire.SearchResults.self)
            #expect(train.results.map { Self.marked($0.excerpt) } == ["Meet at the [train] station"])
            #expect(train.results.first?.message.editedAt != nil, "shown as edited")
            #expect(try await Self.search("trian", as: bob, in: api).decode(Wire.SearchResults.self).results.isEmpty)
            #expect(try await Self.search("swordfish", as: bob, in: api).decode(Wire.SearchResults.self).results.isEmpty)
            await socket.disconnect()
        }
    }

    @Test("A long message's excerpt is cut around the first word found, with ellipses where it was cut")
    func excerpts() throws {
        let terms = try #require(SearchTerms("needle"))
        let text = String(repeating: "hay stack ", count: 40) + "the Needle is here " + String(repeating: "more hay ", count: 40)
        let excerpt = MessageSearch.excerpt(of: text, terms: terms)
        let shown = Self.marked(excerpt)
        #expect(shown.hasPrefix("…") && shown.hasSuffix("…"))
        #expect(shown.contains("the [Needle] is here"))
        #expect(excerpt.map(\.text).joined().count <= MessageSearch.excerptLength + 2)
        #expect(excerpt.dropFirst().first?.text.first == "h", "it starts at a word")
        #expect(Self.marked(MessageSearch.excerpt(of: "Needles, needle; NEEDLE", terms: terms)) == "[Needles], [needle]; [NEEDLE]")
    }

    @Test("An app message is searched by what people read in it (captions, summary, label), not the ids of the people it mentions")
    func appText() {
        let mention = "$\(UUID().uuidString)"
        let message = Message(
            layout: .template(TemplateLayout(caption: "Dinner party", subcaption: "Friday 8 PM", trailingCaption: "3 going")),
            summaryText: "\(mention) said yes", accessibilityLabel: "Dinner party invitation")
        let text = StoredContent.app(message).searchableText()
        #expect(text.contains("Dinner party") && text.contains("Friday 8 PM") && text.contains("3 going") && text.contains("said yes"))
        #expect(text.contains("invitation"))
        #expect(!text.contains(mention) && !text.contains("$"))
        #expect(StoredContent.text("Crème Brûlée!").searchIndexText == "creme brulee")
    }

    @Test("Mentions leave an app message's text as the pattern `$` + UUID says, near misses stay")
    func mentionsMatchThePattern() {
        let pattern = #"\$[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#
        let id = "2BF48414-40DE-4DBC-9273-305F65D83D9B"
        let pieces = [
            "$" + id, "$" + id.lowercased(), "$" + id.dropLast(), "$" + id.replacingOccurrences(of: "-", with: "_"),
            "$$" + id, "$" + id + "F", "$" + String(id.dropFirst()), "$G" + id.dropFirst(), " ", "  ", "é", "👋🏽", "$", "played", "\n",
            "$" + id.replacingOccurrences(of: "4DBC", with: "4DB-C"),
        ]
        // Every text of up to three pieces.
        let texts = [""] + pieces + pieces.flatMap { a in pieces.map { a + $0 } } + pieces.flatMap { a in pieces.flatMap { b in pieces.map { a + b + $0 } } }
        for text in texts {
            let expected = text.replacingOccurrences(of: pattern, with: "", options: .regularExpression).trimmingCharacters(in: .whitespaces)
            #expect(StoredContent.withoutMentions(text) == expected, "\(text.debugDescription)")
        }
    }
}
