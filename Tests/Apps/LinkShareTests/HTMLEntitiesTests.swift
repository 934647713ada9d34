import LinkShare
import Testing

@Suite("HTML entities in Reddit's text")
struct HTMLEntitiesTests {
    @Test("The escapes Reddit uses become the characters a reader expects")
    func decodesRedditEscapes() {
        #expect(HTMLEntities.decode("Tom &amp; Jerry &lt;3 &quot;cheese&quot; &gt; mice, isn&#39;t it") == #"Tom & Jerry <3 "cheese" > mice, isn't it"#)
        #expect(HTMLEntities.decode("it&apos;s&nbsp;fine") == "it's\u{A0}fine")
    }

    @Test("Decimal and hexadecimal numeric references, including characters beyond the BMP")
    func decodesNumericReferences() {
        #expect(HTMLEntities.decode("&#8212; &#x2019; &#X27; &#x1F600; &#233;") == "— ’ ' 😀 é")
    }

    @Test("Text escaped twice is decoded once, as a browser shows it")
    func decodesOnlyOnce() {
        #expect(HTMLEntities.decode("&amp;lt;b&amp;gt;") == "&lt;b&gt;")
    }

    @Test("Ampersands that are not references stay as written")
    func leavesNonReferencesAlone() {
        for text in ["AT&T", "R&D; Q&A", "&foo;", "&amp no semicolon", "& ;", "&;", "&#;", "&#x;", "&#xZZ;", "&#12a;", "&#+39;", "a &&& b", "&"] {
            #expect(HTMLEntities.decode(text) == text, "\(text)")
        }
    }

    @Test("Numeric references to no character become the replacement character")
    func replacesInvalidCodePoints() {
        #expect(HTMLEntities.decode("a&#0;b&#xD800;c&#x110000;d") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d")
    }

    @Test("Text without references, and empty text, come back unchanged")
    func unchangedWithoutReferences() {
        #expect(HTMLEntities.decode("") == "")
        #expect(HTMLEntities.decode("Plain title — with ünïcödé") == "Plain title — with ünïcödé")
    }
}
