import Foundation
import ParlorKit
@testable import ParlorStore
import Testing

/// A message's words are cut and folded from its bytes when it is ASCII: those must be exactly
/// the words the Unicode path gives, or search would miss what was indexed the other way.
@Suite("Search words: the ASCII path and the Unicode path agree")
struct SearchWordsTests {
    @Test("ASCII texts give the same words both ways", arguments: [
        "Lunch at the CAFE on Friday?", "Meeting moved to 3pm", "", "   ", "!!!", "a", "Z9", "don't stop-me now_ok",
        "tabs\tand\nnew\r\nlines", "x<@not-an-id>y", "MiXeD123case456", "end with word", "(paren) [bracket] {brace}",
        String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }),
    ])
    func asciiAgrees(text: String) throws {
        let fast = try #require(SearchTerms.asciiWords(in: text))
        #expect(fast == SearchTerms.unicodeWords(in: text))
        #expect(SearchTerms.words(in: text) == fast)
    }

    @Test("Any text with a byte past ASCII takes the Unicode path, accents and all")
    func unicodeText() {
        #expect(SearchTerms.asciiWords(in: "café") == nil)
        #expect(SearchTerms.words(in: "Crème brûlée at ÉCOLE") == ["creme", "brulee", "at", "ecole"])
        #expect(SearchTerms.words(in: "naïve 🎉 party") == ["naive", "party"])
    }

    @Test("Mentions are found in a text with `<@`, and a text without one mentions nobody")
    func mentions() {
        let user = UserID()
        #expect(MentionTokens.users(in: "hi \(MentionTokens.token(for: user)) and <@ nobody") == [user])
        #expect(MentionTokens.users(in: "no mention < @ here") == [])
        #expect(MentionTokens.replacing(in: "hey \(MentionTokens.token(for: user))!", with: { _ in "@Ann" }) == "hey @Ann!")
        #expect(MentionTokens.replacing(in: "a < b @ c", with: { _ in "@Ann" }) == "a < b @ c")
    }
}
