import Foundation
@testable import LinkShare
import Testing

@Suite("Reading RSS and Atom, and choosing the format by content")
struct FeedDocumentTests {
    let feedURL = URL(string: "https://blog.example.org/feed.xml")!

    func read(_ body: String) throws -> FeedDocument {
        try FeedDocument.read(Data(body.utf8), feedURL: feedURL)
    }

    @Test("RSS 2.0: titles decoded, links from <link> or a permalink guid, authors, comments and thumbnails; unusable items skipped")
    func readsRSS() throws {
        let feed = try read(Fixtures.rss)
        #expect(feed.title == "Example & Co. Blog")
        #expect(feed.posts.map(\.title) == Fixtures.rssTitles)
        #expect(feed.posts.map(\.url.absoluteString) == [
            "https://blog.example.org/posts/parlor-1-0?ref=rss&x=1",
            "https://blog.example.org/posts/canvas",
            "https://blog.example.org/posts/relative",
        ])
        #expect(feed.posts.map(\.domain) == ["blog.example.org", "blog.example.org", "blog.example.org"])
        #expect(feed.posts.map(\.score) == [nil, nil, nil])
        let first = try #require(feed.posts.first)
        #expect(first.id == "post-1")
        #expect(first.byline == "by Ada Lovelace")
        #expect(first.rowLabel == "Parlor 1.0 & friends, blog.example.org")
        #expect(first.permalink?.absoluteString == "https://blog.example.org/posts/parlor-1-0#comments")
        #expect(first.thumbnail?.absoluteString == "https://blog.example.org/img/parlor.jpg")
        #expect(feed.posts[1].byline == "by Grace")
    }

    @Test("Atom 1.0: the alternate link, HTML and XHTML titles as plain text, the author's name; an entry without a link skipped")
    func readsAtom() throws {
        let feed = try read(Fixtures.atom)
        #expect(feed.title == "Swift Weekly")
        #expect(feed.posts.map(\.title) == Fixtures.atomTitles)
        #expect(feed.posts.map(\.url.absoluteString) == ["https://weekly.example.com/issues/1", "https://weekly.example.com/issues/2"])
        #expect(feed.posts.map(\.id) == ["tag:weekly.example.com,2025:1", "tag:weekly.example.com,2025:2"])
        #expect(feed.posts.first?.byline == "by Chris")
        #expect(feed.posts.map(\.domain) == ["weekly.example.com", "weekly.example.com"])
    }

    @Test("The format is chosen by content: a byte order mark and leading whitespace are skipped, JSON is a Reddit listing")
    func sniffsByContent() throws {
        #expect(try read("\u{FEFF}\n  " + Fixtures.rss).posts.map(\.title) == Fixtures.rssTitles)
        let reddit = try FeedDocument.read(Data(Fixtures.programming.utf8), feedURL: LinkShare.defaultFeedURL)
        #expect(reddit.title == nil)
        #expect(reddit.posts.map(\.title) == Fixtures.programmingTitles)
    }

    @Test("An empty feed is no posts, not an error")
    func emptyFeed() throws {
        let feed = try read(Fixtures.emptyRSS)
        #expect(feed.title == "Quiet")
        #expect(feed.posts.isEmpty)
    }

    @Test("Malformed, foreign or hostile bodies are a malformed-feed error saying what they are", arguments: [
        ("<rss version=\"2.0\"><channel><item><title>Cut off", "XML that is not well-formed, at line 1"),
        ("<rss><channel></rss>", "XML that is not well-formed, at line 1"),
        ("<html><head><title>Down</title></head></html>", "a web page, not a feed"),
        ("<opml version=\"2.0\"><body/></opml>", "XML, but not RSS or Atom: its root is <opml>"),
        (#"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><rss><channel><title>&b;</title></channel></rss>"#,
         "XML that declares entities"),
        ("", "an empty answer"),
        ("   \n", "an empty answer"),
        ("Too Many Requests", "not JSON, RSS or Atom"),
        ("<rss>" + String(repeating: "<a>", count: 100), "XML nested too deeply"),
    ])
    func rejects(body: String, detail: String) {
        #expect {
            try read(body)
        } throws: { error in
            (error as? FeedError)?.code == .malformed
                && (error as? FeedError)?.message == "This address doesn't give a feed LinkShare can read (\(detail)). Choose an RSS, Atom or Reddit feed."
        }
    }

    @Test("Bytes that are not the UTF-8 a feed declares are refused, not handed to XMLParser, which traps on such element names (found by the feed fuzzer)")
    func invalidUTF8Refused() {
        var body = Data(#"<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><"#.utf8)
        body.append(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        body.append(contentsOf: Data("/entry></feed>".utf8))
        #expect { try FeedDocument.read(body, feedURL: feedURL) } throws: { ($0 as? FeedError)?.code == .malformed }
        var undeclared = Data("<rss><channel><item><title>caf".utf8)
        undeclared.append(0xE9)  // é in Latin-1, with no declaration: not UTF-8
        undeclared.append(contentsOf: Data("</title><link>https://x.example/</link></item></channel></rss>".utf8))
        #expect { try FeedDocument.read(undeclared, feedURL: feedURL) } throws: { ($0 as? FeedError)?.code == .malformed }
    }

    @Test("Processing instructions never reach XMLParser, which ends the process on one without data (found by the feed fuzzer); a stylesheet instruction does not stop a feed")
    func instructions() throws {
        let styled = #"<?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet type="text/xsl" href="/feed.xsl"?><rss version="2.0"><?x?><channel><item><title>Kept</title><link>https://x.example/</link></item></channel></rss>"#
        #expect(try read(styled).posts.map(\.title) == ["Kept"])
        // Removing one instruction must not join what surrounds it into another.
        #expect { try read(#"<<?x8"?>?Obje?><rssrss"#) } throws: { ($0 as? FeedError)?.code == .malformed }
        #expect { try read(#"<?xml n="1>"# + "\n" + #"<feed xm~<ti<?xee?>"#) } throws: { ($0 as? FeedError)?.code == .malformed }
        #expect(try XMLScreen.screened("a<?b?>c<?d").text == "a c ")
        // libxml2 recovers from a character XML does not allow inside a comment and reads on past
        // where the screen's comment ended (found by the feed fuzzer): such a character is a space.
        #expect { try read("<??><rss><!--\u{10}<?x?>") } throws: { ($0 as? FeedError)?.code == .malformed }
        #expect(String(decoding: XMLScreen.withAllowedCharacters(Array("ok\t\n\r\u{10}\u{FFFE}\u{FFFF}é".utf8)), as: UTF8.self) == "ok\t\n\r   é")
        let stray = "<rss><channel><item><title>Caf\u{1F}é</title><link>https://x.example/</link></item></channel></rss>"
        #expect(try read(stray).posts.map(\.title) == ["Caf é"], "a stray control character does not cost the feed")
        // And the last net: an instruction that reaches the parser has data.
        let net = XMLScreen.withDataInEveryInstruction(Array("a<?x?>b<?y \n?>c<?xml version=\"1.0\"?><??><![CDATA[<?php?>]]><!--<?z?>-->".utf8))
        #expect(String(decoding: net, as: UTF8.self) == "a<?x \u{200B}?>b<?y \u{200B} \n?>c<?xml version=\"1.0\"?><??><![CDATA[<?php?>]]><!--<?z?>-->")
    }

    @Test("A feed declared Latin-1 is read, its accents intact; another encoding is refused with its name")
    func latin1Feeds() throws {
        var latin1 = Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Caf"#.utf8)
        latin1.append(0xE9)  // é
        latin1.append(contentsOf: Data(" cr".utf8))
        latin1.append(0xE8)  // è
        latin1.append(contentsOf: Data("me</title><link>https://x.example/</link></item></channel></rss>".utf8))
        let title = try #require(try FeedDocument.read(latin1, feedURL: feedURL).posts.first?.title)
        #expect(title == "Café crème")
        let other = Data(#"<?xml version="1.0" encoding="Shift_JIS"?><rss><channel></channel></rss>"#.utf8)
        #expect { try FeedDocument.read(other, feedURL: feedURL) } throws: {
            ($0 as? FeedError)?.message.contains("shift_jis") == true
        }
    }

    @Test("A body over 4 MiB is refused before it is parsed")
    func refusesHugeBodies() {
        let huge = Data(repeating: UInt8(ascii: " "), count: FeedDocument.maxBytes + 1)
        #expect { try FeedDocument.read(huge, feedURL: feedURL) } throws: { ($0 as? FeedError)?.code == .malformed }
    }

    @Test("At most 100 posts are kept, and a title is cut at 300 characters")
    func bounds() throws {
        let many = try read(Fixtures.rss(items: 150))
        #expect(many.posts.count == FeedDocument.maxPosts)
        #expect(many.posts.last?.title == "Item 100")
        let long = "<rss><channel><item><title>\(String(repeating: "word ", count: 200))</title><link>https://x.example/</link></item></channel></rss>"
        let title = try #require(try read(long).posts.first?.title)
        #expect(title.count == FeedDocument.maxTitleLength)
        #expect(title.hasSuffix("…"))
    }

    @Test("Only http(s) links are kept: javascript:, data: and mailto: items are skipped")
    func onlyWebLinks() throws {
        let body = """
        <rss><channel>
        <item><title>A</title><link>javascript:alert(document.cookie)</link></item>
        <item><title>B</title><link>data:text/html,hi</link></item>
        <item><title>C</title><guid>mailto:a@example.org</guid></item>
        <item><title>D</title><link>https://d.example/</link><enclosure url="javascript:x" type="image/png"/></item>
        </channel></rss>
        """
        let posts = try read(body).posts
        #expect(posts.map(\.title) == ["D"])
        #expect(posts.first?.thumbnail == nil)
    }

    @Test("Parsing many feeds at once neither crashes nor mixes them up")
    func concurrentParsing() async throws {
        let url = feedURL
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let body = index.isMultiple(of: 2) ? Fixtures.rss : Fixtures.atom
                    let titles = try FeedDocument.read(Data(body.utf8), feedURL: url).posts.map(\.title)
                    return titles == (index.isMultiple(of: 2) ? Fixtures.rssTitles : Fixtures.atomTitles)
                }
            }
            for try await matched in group { #expect(matched) }
        }
    }
}
