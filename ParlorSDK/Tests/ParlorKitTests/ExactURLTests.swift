import Foundation
@_spi(Hosting) import ParlorKit
import Testing

/// A message's URL is what its app sent, byte for byte, to every reader; or it is refused with a
/// sentence. Never rewritten into a different value (as Foundation's `URL(string:)` does when a
/// URL holds a space: every `%XX` already there is escaped again).
@Suite("Message URLs are kept exactly as sent")
struct ExactURLTests {
    /// A message as an app outside the host writes it, read as the host reads it.
    static func message(url: String) throws -> Message {
        let json = #"{"url": "# + String(decoding: try JSONEncoder().encode(url), as: UTF8.self) + "}"
        return try CompactJSONDecoder.wire.decode(Message.self, from: json)
    }

    @Test("A URL with a space beside an escape is refused with a sentence that says how to write it, not escaped twice")
    func spaceBesideAnEscape() throws {
        let sent = "https://x.example/p?a=1%2B1&b=x y"
        #expect(throws: DecodingError.self) { try Self.message(url: sent) }
        do {
            _ = try Self.message(url: sent)
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("holds a space"), "\(context.debugDescription)")
            #expect(context.debugDescription.contains("%20"))
        }
        // Written as a URL, it is kept as it is and reads back as sent.
        let written = "https://x.example/p?a=1%2B1&b=x%20y"
        let message = try Self.message(url: written)
        #expect(message.url?.absoluteString == written)
        let items = try QueryItems(url: try #require(message.url))
        #expect(try items.require("a") == "1+1")
        #expect(try items.require("b") == "x y")
    }

    @Test("A host outside ASCII is refused with the advice to write it in punycode; a path outside ASCII, to percent-encode it")
    func hostsOutsideASCII() {
        #expect(URL(exactly: "https://bücher.example/") == nil)
        #expect(URL.inexactReason("https://bücher.example/a").contains("punycode"))
        #expect(URL(exactly: "https://xn--bcher-kva.example/")?.host == "xn--bcher-kva.example")
        let path = URL.inexactReason("https://x.example/bücher")
        #expect(path.contains("%C3%BC") && !path.contains("punycode"), "\(path)")
    }

    @Test("A template image given as a data: URL with escapes is kept as sent, or refused when it holds a raw space")
    func dataImages() throws {
        let svg = "data:image/svg+xml;utf8,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E"
        let json = #"{"template": {"image": {"url": "\#(svg)"}, "caption": "Hi"}}"#
        let layout = try CompactJSONDecoder.wire.decode(MessageLayout.self, from: json)
        #expect(layout.template.image == .url(try #require(URL(exactly: svg))))
        guard case .url(let url)? = layout.template.image else { return }
        #expect(url.absoluteString == svg, "not %253C")
        let raw = #"{"template": {"image": {"url": "data:image/svg+xml;utf8,%3Csvg xmlns='x'/%3E"}}}"#
        #expect(throws: DecodingError.self) { try CompactJSONDecoder.wire.decode(MessageLayout.self, from: raw) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MessageLayout.self, from: Data(raw.utf8)) }
    }

    @Test("Random states written by QueryItems and URLState, and URLs written by hand, reach the reader exactly as sent", arguments: 0..<4)
    func randomStates(seed: UInt64) throws {
        var random = SeededGenerator(seed: 0xC0FFEE + seed)
        for _ in 0..<100 {
            let pieces = (0..<Int.random(in: 1...6, using: &random)).map { _ in SeededGenerator.pieces.randomElement(using: &random) ?? "a" }
            let value = pieces.joined()
            // Through QueryItems and URLState, encoded by ParlorKit.
            let items: QueryItems = ["v": value, "n": "\(Int.random(in: -5...5, using: &random))"]
            let url = try items.url(base: "https://parlor.example/state")
            let received = try Self.message(url: url.absoluteString)
            #expect(received.url?.absoluteString == url.absoluteString)
            #expect(try QueryItems(url: try #require(received.url)).require("v") == value, "\(value)")
            let stateURL = try URLState.url(for: ["v": value], base: "https://parlor.example/state")
            let viaState = try Self.message(url: stateURL.absoluteString)
            #expect(try URLState.value([String: String].self, from: try #require(viaState.url)) == ["v": value])
            // By hand: kept byte for byte when RFC 3986's grammar allows it as a query (and
            // fragment), refused otherwise; the grammar is written here, apart from the code.
            let byHand = "https://parlor.example/p?v=" + value
            if Self.isRFC3986QueryAndFragment(value) {
                #expect(try Self.message(url: byHand).url?.absoluteString == byHand, "\(byHand)")
            } else {
                #expect(throws: DecodingError.self, "\(byHand)") { try Self.message(url: byHand) }
            }
        }
    }

    /// RFC 3986 §3.4 and §3.5: `query = *( pchar / "/" / "?" )`, then an optional `"#" fragment`
    /// of the same characters; `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"`.
    static func isRFC3986QueryAndFragment(_ text: String) -> Bool {
        let single = #"[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2}"#
        return text.wholeMatch(of: try! Regex("(?:\(single))*(?:#(?:\(single))*)?")) != nil
    }

    @Test("A message's URL stays exact through the host's own JSON both ways")
    func throughTheHost() throws {
        let url = try #require(URL(exactly: "https://x.example/p?a=1%2B1&q=%E2%9C%93#frag%20ment"))
        let message = Message(url: url)
        let text = try CompactJSONEncoder.wire.text(message)
        let back = try CompactJSONDecoder.wire.decode(Message.self, from: text)
        #expect(back.url?.absoluteString == url.absoluteString)
    }
}
