import Foundation
import ParlorKit
import Testing

@Suite("Query items next to fragments, and error codes on the wire")
struct URLFragmentAndCodeTests {
    @Test("A ? inside the fragment does not start the query; the base's fragment stays after the new query")
    func fragments() throws {
        let parsed = try QueryItems(url: #require(URL(string: "https://example.org/p?a=1#frag?b=2")))
        #expect(parsed.items == [QueryItem("a", "1")])
        #expect(try QueryItems(url: #require(URL(string: "https://example.org/p#only?x=1"))).items.isEmpty)

        let url = try QueryItems(["title": "Party"]).url(base: "https://example.org/rsvp?old=1#details")
        #expect(url.absoluteString == "https://example.org/rsvp?title=Party#details")
        #expect(try QueryItems(url: url)["title"] == "Party")
    }

    @Test("An error code travels as its name and only known names decode")
    func codeOnTheWire() throws {
        let data = try JSONEncoder().encode([MessagesError.Code.urlExceedsMaxSize])
        #expect(String(decoding: data, as: UTF8.self) == #"["urlExceedsMaxSize"]"#)
        #expect(try JSONDecoder().decode([MessagesError.Code].self, from: data) == [.urlExceedsMaxSize])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([MessagesError.Code].self, from: Data(#"["madeUp"]"#.utf8)) }
    }
}
