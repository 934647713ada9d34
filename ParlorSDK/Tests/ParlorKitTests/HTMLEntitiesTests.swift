import ParlorKit
import Testing

@Suite("HTML character references")
struct HTMLEntitiesTests {
    @Test("The escapes Reddit and feeds use become the characters a reader expects")
    func decodesCommonEscapes() {
        #expect(HTMLEntities.decode("Tom &amp; Jerry &lt;3 &quot;cheese&quot; &gt; mice, isn&#39;t it") == #"Tom & Jerry <3 "cheese" > mice, isn't it"#)
        #expect(HTMLEntities.decode("it&apos;s&nbsp;fine") == "it's\u{A0}fine")
    }

    @Test("Every name of the HTML standard, not a few: a link card's title reads as the page shows it")
    func decodesTheWholeTable() {
        #expect(HTMLEntities.decode("Recipes &raquo; Caf&eacute; Cr&egrave;me &ndash; Tom&rsquo;s &hellip;") == "Recipes » Café Crème – Tom’s …")
        #expect(HTMLEntities.decode("&CounterClockwiseContourIntegral; &fjlig; &NewLine;&Tab;&ThickSpace;") == "∳ fj \n\t\u{205F}\u{200A}")
        // Names that stand for two code points keep both.
        #expect(Array(HTMLEntities.decode("&nvlt;&acE;").unicodeScalars) == ["<", "\u{20D2}", "\u{223E}", "\u{333}"])
    }

    @Test("Legacy names need no semicolon; other names do, and the longest name wins")
    func legacyNamesAndLongestMatch() {
        #expect(HTMLEntities.decode("&amp no semicolon &copy 2024 &eacute") == "& no semicolon © 2024 é")
        #expect(HTMLEntities.decode("&notin; &notit; &not") == "∉ ¬it; ¬")
        #expect(HTMLEntities.decode("&hellip &raquo") == "&hellip »")
        #expect(HTMLEntities.decode("&ampamp &lt&gt &LT") == "&amp <> <")
    }

    @Test("In an attribute's value, a bare legacy name before = or a letter stays as written, so query strings survive")
    func attributeValues() {
        let query = "/search?q=x&region=eu&copy=2&not=3&para&lang=en&amp;page=2"
        #expect(HTMLEntities.decode(attributeValue: query) == "/search?q=x&region=eu&copy=2&not=3¶&lang=en&page=2")
        #expect(HTMLEntities.decode(query) == "/search?q=x®ion=eu©=2¬=3¶&lang=en&page=2")
        #expect(HTMLEntities.decode(attributeValue: "Tom &amp Jerry &copy; &notit; &lt;b&gt;") == "Tom & Jerry © &notit; <b>")
    }

    @Test("Decimal and hexadecimal numeric references, with or without a semicolon, beyond the BMP too")
    func decodesNumericReferences() {
        #expect(HTMLEntities.decode("&#8212; &#x2019; &#X27; &#x1F600; &#233; &#0000065; &#39 &#x41x") == "— ’ ' 😀 é A ' Ax")
    }

    @Test("Numbers 128–159 are read as Windows-1252, as pages meant them")
    func readsC1AsWindows1252() {
        #expect(HTMLEntities.decode("&#150; &#151; &#128; &#x99; &#145;quoted&#146;") == "– — € ™ ‘quoted’")
        #expect(HTMLEntities.decode("&#129;&#x8D;") == "\u{81}\u{8D}")
    }

    @Test("Numeric references to no character become the replacement character; controls and noncharacters are kept")
    func replacesInvalidCodePoints() {
        #expect(HTMLEntities.decode("a&#0;b&#xD800;c&#x110000;d&#99999999999999999999999;e") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e")
        #expect(HTMLEntities.decode("&#1;&#x7F;&#xFFFE;&#13;") == "\u{1}\u{7F}\u{FFFE}\r")
    }

    @Test("Text escaped twice is decoded once, as a browser shows it")
    func decodesOnlyOnce() {
        #expect(HTMLEntities.decode("&amp;lt;b&amp;gt; &amp;amp;") == "&lt;b&gt; &amp;")
    }

    @Test("Ampersands that start no reference stay as written")
    func leavesNonReferencesAlone() {
        for text in ["AT&T", "R&D; Q&A", "&foo;", "& ;", "&;", "&#;", "&#x;", "&#xZZ;", "&#+39;", "a &&& b", "&", "&é;", "&#", "&#x"] {
            #expect(HTMLEntities.decode(text) == text, "\(text)")
        }
    }

    @Test("References cut out of text around them leave its other characters whole")
    func keepsSurroundingText() {
        let text = "e\u{301}&amp;\u{301}👩‍👩‍👧&lt;"
        #expect(Array(HTMLEntities.decode(text).unicodeScalars) == Array("e\u{301}&\u{301}👩‍👩‍👧<".unicodeScalars))
    }

    @Test("Text without references, and empty text, come back unchanged")
    func unchangedWithoutReferences() {
        #expect(HTMLEntities.decode("") == "")
        #expect(HTMLEntities.decode("Plain title — with ünïcödé") == "Plain title — with ünïcödé")
    }
}
