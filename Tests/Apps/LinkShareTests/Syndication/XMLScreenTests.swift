import Foundation
@testable import LinkShare
import Testing

@Suite("What reaches XMLParser: instructions removed outside CDATA, outside DTDs left out, entities refused")
struct XMLScreenTests {
    @Test("Instructions are removed, CDATA sections and comments are kept as written")
    func instructionsOutsideCDATA() throws {
        #expect(try XMLScreen.screened("<r>a<?x?>b<![CDATA[<?php ?>]]><!-- <?y?> --></r>").text == "<r>a b<![CDATA[<?php ?>]]><!-- <?y?> --></r>")
        #expect(try XMLScreen.screened(#"<?xml version="1.0"?><?xml-stylesheet href="s"?><r/>"#).text == #"<?xml version="1.0"?> <r/>"#)
        #expect(try XMLScreen.screened(#"<r a='>' b="x>y">t</r>"#) == XMLScreen.Screened(text: #"<r a='>' b="x>y">t</r>"#))
    }

    @Test("A document type's outside DTD is left out, its name and internal subset kept: the parser never learns where the DTD is")
    func outsideDTDLeftOut() throws {
        let netscape = #"<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">"#
        #expect(try XMLScreen.screened(netscape + "<rss/>").text == "<!DOCTYPE rss><rss/>")
        #expect(try XMLScreen.screened(#"<!DOCTYPE rss SYSTEM "file:///etc/passwd" [<!ELEMENT rss ANY>]><rss/>"#).text
            == "<!DOCTYPE rss[<!ELEMENT rss ANY>]><rss/>")
        let feed = netscape + #"<rss version="0.91"><channel><title>N</title><item><title>One</title><link>https://n.example/1</link></item></channel></rss>"#
        let document = try FeedDocument.read(Data(feed.utf8), feedURL: URL(fileURLWithPath: "/"))
        #expect(document.posts.map(\.title) == ["One"], "a Netscape RSS 0.91 feed is read")
    }

    @Test("What is not well-formed stops the text there, with the reason, so no instruction after it reaches the parser")
    func stopsAtMalformation() throws {
        #expect(try XMLScreen.screened(#"<r><a b="<"><?x?></r>"#)
            == XMLScreen.Screened(text: "<r>", problem: "XML that is not well-formed: a “<” inside a tag"))
        #expect(try XMLScreen.screened("<r>if (a < b) <?x?></r>")
            == XMLScreen.Screened(text: "<r>if (a ", problem: "XML that is not well-formed: a “<” that starts no tag"))
    }

    @Test("Soups of markup pieces never end the process: every instruction the parser would see is removed first")
    func markupSoups() {
        let pieces = [
            "<?x?>", "<?", "?>", "<![CDATA[", "]]>", "<!--", "-->", "<a>", "</a>", "<b/>", "\"", "'", "<r x=\"", "\">",
            "<!DOCTYPE r [", "]>", "<!ELEMENT r ANY>", "<!ENTITY e \"v\">", "&e;", "text", "<", ">", "<rss><channel><item><title>",
            "</title></item></channel></rss>", "<feed xmlns=\"http://www.w3.org/2005/Atom\">", "<entry>", "<title type=\"html\">",
            "&lt;script&gt;", "\n", "<?xml version=\"1.0\"?>",
        ]
        var generator = SplitMix64(seed: 0x5EED)
        var read = 0
        for _ in 0..<3000 {
            let count = Int.random(in: 1...14, using: &generator)
            let body = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            if (try? FeedDocument.read(Data(body.utf8), feedURL: URL(fileURLWithPath: "/"))) != nil { read += 1 }
        }
        #expect(read > 0, "some soups are well-formed feeds, and are read")
    }
}

/// A seeded generator, so that a failing soup can be made again.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
