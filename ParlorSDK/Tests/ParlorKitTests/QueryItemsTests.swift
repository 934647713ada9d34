import Foundation
import ParlorKit
import Testing

@Suite("State in URLs: query items")
struct QueryItemsTests {
    private static let base = "https://parlor.example/app"

    private func roundTrip(_ items: QueryItems) throws -> QueryItems {
        try QueryItems(url: try items.url(base: Self.base))
    }

    private func expectExact(_ decoded: QueryItems, _ original: QueryItems, _ comment: Comment? = nil) {
        #expect(decoded.items.count == original.items.count, comment)
        for (lhs, rhs) in zip(decoded.items, original.items) {
            #expect(sameScalars(lhs.name, rhs.name) && sameScalars(lhs.value, rhs.value), comment)
        }
    }

    @Test("Hand-picked names and values survive a URL round trip exactly", arguments: [
        ["a&b": "c=d", "100%": "+1", "space here": " leading and trailing "],
        ["emoji": "👨‍👩‍👧 🇫🇷 👍🏽", "combining": "e\u{301}\u{0327}", "lone mark": "\u{301}"],
        ["": "empty name", "empty value": ""],
        ["percent": "%zz%25%2B%", "plus": "a+b+c", "hash": "#?/&="],
        ["quotes": #""'\"#, "newlines": "a\nb\r\nc", "nul": "a\u{0}b", "bom": "\u{FEFF}"],
    ] as [KeyValuePairs<String, String>])
    func handPicked(_ pairs: KeyValuePairs<String, String>) throws {
        let items = QueryItems(pairs)
        expectExact(try roundTrip(items), items)
    }

    @Test("Repeated names keep every value in order")
    func repeatedNames() throws {
        var items = QueryItems()
        items.append("vote", "yes")
        items.append("other", "x")
        items.append("vote", "no")
        items.append("vote", "")
        let decoded = try roundTrip(items)
        #expect(decoded.values("vote") == ["yes", "no", ""])
        #expect(decoded["vote"] == "yes")
        expectExact(decoded, items)
    }

    @Test("2,000 seeded random item lists survive a URL round trip exactly")
    func randomRoundTrips() throws {
        var generator = SeededGenerator(seed: 0x5EED_0001)
        for index in 0..<2_000 {
            var items = QueryItems()
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                items.append(generator.string(), generator.string())
            }
            let decoded = try roundTrip(items)
            expectExact(decoded, items, "case \(index): \(items.items)")
        }
    }

    @Test("An empty list makes the bare base URL and parses back empty")
    func emptyList() throws {
        let url = try QueryItems().url(base: Self.base)
        #expect(url.absoluteString == Self.base)
        #expect(try QueryItems(url: url).items.isEmpty)
    }

    @Test("The base's own query is replaced")
    func baseQueryReplaced() throws {
        let url = try QueryItems(["a": "1"]).url(base: Self.base + "?old=yes")
        #expect(try QueryItems(url: url).items == [QueryItem("a", "1")])
    }

    @Test("Setting a value replaces every item of that name in place; nil removes them")
    func subscriptSetter() {
        var items = QueryItems([QueryItem("a", "1"), QueryItem("b", "2"), QueryItem("a", "3")])
        items["a"] = "9"
        #expect(items.items == [QueryItem("a", "9"), QueryItem("b", "2")])
        items["c"] = "new"
        #expect(items.items.last == QueryItem("c", "new"))
        items["a"] = nil
        #expect(items["a"] == nil)
        #expect(items.items.map(\.name) == ["b", "c"])
    }

    @Test("require and int report a missing or non-numeric value as malformedURLState")
    func typedAccess() throws {
        let items = QueryItems(["n": "42", "word": "forty"])
        #expect(try items.int("n") == 42)
        #expect(try items.require("word") == "forty")
        for name in ["missing", "word"] {
            do {
                _ = try items.int(name)
                Issue.record("\(name) should not read as a number")
            } catch {
                #expect(error.code == .malformedURLState)
            }
        }
    }

    @Test("Invalid percent-encoding is malformedURLState, never a crash", arguments: [
        "a=%zz", "a=%", "a=%4", "%zz=1", "a=%E2%82", "a=%FF", "ok=1&bad=%C3",
    ])
    func badPercentEncoding(_ query: String) {
        do {
            let items = try QueryItems(query: query)
            Issue.record("'\(query)' parsed as \(items.items)")
        } catch {
            #expect(error.code == .malformedURLState)
        }
    }

    @Test("A URL with truncated UTF-8 escapes is malformedURLState")
    func badURLEncoding() throws {
        let url = try #require(URL(string: "https://parlor.example/app?title=%E2%82"))
        #expect(throws: MessagesError.self) { try QueryItems(url: url) }
    }

    @Test("Odd but legal queries parse without error", arguments: [
        ("", [QueryItem]()), ("&&&", []), ("a", [QueryItem("a", "")]), ("=", [QueryItem("", "")]),
        ("a=b=c", [QueryItem("a", "b=c")]), ("a+b=c+d", [QueryItem("a+b", "c+d")]),
    ])
    func oddQueries(_ query: String, _ expected: [QueryItem]) throws {
        #expect(try QueryItems(query: query).items == expected)
    }

    @Test("The fragment is not part of the state")
    func fragmentIgnored() throws {
        let url = try #require(URL(string: "https://parlor.example/app?a=1#b=2"))
        #expect(try QueryItems(url: url).items == [QueryItem("a", "1")])
    }

    @Test("A relative or ftp base is refused; an oversized result is urlExceedsMaxSize")
    func badBases() {
        let items = QueryItems(["a": "1"])
        for (base, expected) in [("not a url", MessagesError.Code.improperFileURL), ("/relative", .improperFileURL), ("ftp://x.org/", .improperFileURL)] {
            do {
                _ = try items.url(base: base)
                Issue.record("'\(base)' was accepted")
            } catch {
                #expect(error.code == expected, "\(base)")
            }
        }
        do {
            _ = try QueryItems(["big": String(repeating: "🎉", count: 600)]).url(base: Self.base)
            Issue.record("a 7,000-character URL was accepted")
        } catch {
            #expect(error.code == .urlExceedsMaxSize)
        }
    }

    @Test("Names and values are percent-encoded exactly as Foundation would: only unreserved characters stay")
    func encodingMatchesFoundation() throws {
        var generator = SeededGenerator(seed: 0x7065_7263)
        let unreserved = CharacterSet(charactersIn: PercentEncoding.unreserved)
        for _ in 0..<500 {
            let value = generator.string(maxPieces: 12)
            let expected = try #require(value.addingPercentEncoding(withAllowedCharacters: unreserved))
            #expect(QueryItems([QueryItem(value, value)]).percentEncodedQuery == expected + "=" + expected, "\(value.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
