@testable import ParlorInput
import Testing

/// The head's tokenizer on its own: what is a tag, and what is only text.
@Suite("HTML tokenizer")
struct HTMLTokenizerTests {
    typealias Token = HTMLTokenizer.Token

    func tokens(_ html: String) -> [Token] {
        var tokenizer = HTMLTokenizer(html)
        var tokens: [Token] = []
        while let token = tokenizer.next() { tokens.append(token) }
        return tokens
    }

    @Test("Start and end tags, names lowercased, attributes with and without values and quotes")
    func tags() {
        #expect(tokens(#"<META Name="A" content='b c' data-x=1 checked/><p/></P>"#) == [
            .startTag(name: "meta", attributes: ["name": "A", "content": "b c", "data-x": "1", "checked": ""]),
            .startTag(name: "p", attributes: [:]),
            .endTag(name: "p"),
        ])
        #expect(tokens("<a =b c==d e= >") == [.startTag(name: "a", attributes: ["=b": "", "c": "=d", "e": ""])])
        #expect(tokens(#"<a x="1"y='2'z=3>"#) == [.startTag(name: "a", attributes: ["x": "1", "y": "2", "z": "3"])])
    }

    @Test("Comments, doctypes, processing instructions and bogus comments are skipped whole")
    func declarations() {
        // A bogus comment ends at its first `>`: `<?xml <b>`, `<![CDATA[<c>`, `<!x <d>`.
        #expect(tokens("<!DOCTYPE html><!-- <a> --><?xml <b>?><![CDATA[<c>]]><!x <d>><e>") == [.startTag(name: "e", attributes: [:])])
        #expect(tokens("<!--><a><!---><b><!----><c><!-- x --!><d><!-- x --!-><e> --><f>") == [
            .startTag(name: "a", attributes: [:]), .startTag(name: "b", attributes: [:]), .startTag(name: "c", attributes: [:]),
            .startTag(name: "d", attributes: [:]), .startTag(name: "f", attributes: [:]),
        ])
        #expect(tokens("</><a></ 3 <b>><c>") == [.startTag(name: "a", attributes: [:]), .startTag(name: "c", attributes: [:])])
        #expect(tokens("<!-- never closed <a>").isEmpty)
    }

    @Test("Script text ends at </script>, but not inside a <!-- section that opened a <script>")
    func scriptData() {
        #expect(tokens("<script>a<b>'</scripty>'</SCRIPT ><c>") == [
            .startTag(name: "script", attributes: [:]), .endTag(name: "script"), .startTag(name: "c", attributes: [:]),
        ])
        #expect(tokens("<script><!-- <script> </script> <d> --> </script><e>") == [
            .startTag(name: "script", attributes: [:]), .endTag(name: "script"), .startTag(name: "e", attributes: [:]),
        ])
        // Escaped but not double escaped: </script> still ends it.
        #expect(tokens("<script><!-- x </script><f>") == [
            .startTag(name: "script", attributes: [:]), .endTag(name: "script"), .startTag(name: "f", attributes: [:]),
        ])
        #expect(tokens("<script><!--> </script><g>").suffix(1) == [.startTag(name: "g", attributes: [:])])
        #expect(tokens("<script>never closed <h>") == [.startTag(name: "script", attributes: [:])])
    }

    @Test("Raw text and escapable raw text: tags inside are text; the title's text comes with its references decoded")
    func textElements() {
        #expect(tokens("<style><a></style><noscript><b></noscript><textarea><c>&amp;</textarea><title><d>&lt;</title>") == [
            .startTag(name: "style", attributes: [:]), .endTag(name: "style"),
            .startTag(name: "noscript", attributes: [:]), .endTag(name: "noscript"),
            .startTag(name: "textarea", attributes: [:]), .text("<c>&"), .endTag(name: "textarea"),
            .startTag(name: "title", attributes: [:]), .text("<d><"), .endTag(name: "title"),
        ])
        #expect(tokens("<title></title>") == [.startTag(name: "title", attributes: [:]), .text(""), .endTag(name: "title")])
        #expect(tokens("<plaintext></plaintext><a>") == [.startTag(name: "plaintext", attributes: [:])])
    }

    @Test("A tag cut off by the end of the input is dropped, as a browser drops it")
    func cutOffTags() {
        for html in ["<meta", "<meta ", "<meta a", "<meta a=", #"<meta a="1"#, "<meta a='1' b", "</meta", "<", "</"] {
            #expect(tokens(html).isEmpty, "\(html)")
        }
    }

    @Test("Attribute values: references decoded as in attributes; U+0000 made U+FFFD")
    func attributeValues() {
        #expect(tokens("<a href=\"?a=1&copy=2&amp;b=&lt;\" t='x\u{0}y'>") == [
            .startTag(name: "a", attributes: ["href": "?a=1&copy=2&b=<", "t": "x\u{FFFD}y"]),
        ])
    }
}
