import Foundation
@testable import ParlorInput
import ParlorStore
import Testing

/// Reading a page's card from its HTML: what is taken, in which order, and what is cleaned out.
@Suite("Link previews: reading a page's card")
struct LinkPreviewPageTests {
    let page = URL(string: "https://news.example/story/42")!

    @Test("Open Graph tags come first, then Twitter card tags, then <title> and the description meta; entities are decoded")
    func tagsInOrder() throws {
        let graph = try #require(LinkPreviewPage.preview(of: """
            <!doctype html><html><head>
            <title>Fallback title</title>
            <META PROPERTY="og:title" CONTENT="Whales &amp; dolphins sing">
            <meta name=twitter:title content=Ignored>
            <meta property='og:description' content='They &quot;talk&quot; &#8212; scientists say.'>
            <meta property="og:image" content="/images/whale.jpg">
            <meta property="og:site_name" content="News">
            </head><body><meta property="og:title" content="in the body"></body></html>
            """, at: page))
        #expect(graph == StoredLinkPreview(
            url: "https://news.example/story/42", title: "Whales & dolphins sing", description: "They \"talk\" — scientists say.",
            imageURL: "https://news.example/images/whale.jpg", siteName: "News"))

        let twitter = try #require(LinkPreviewPage.preview(of: """
            <head><meta name="twitter:title" content="Card title"><meta name="twitter:image" content="https://cdn.example/a.png"></head>
            """, at: page))
        #expect(twitter.title == "Card title")
        #expect(twitter.imageURL == "https://cdn.example/a.png")

        let plain = try #require(LinkPreviewPage.preview(of: """
            <html><head><title>
              A   plain &lt;page&gt;
            </title><meta name="description" content="Just a page."></head></html>
            """, at: page))
        #expect(plain.title == "A plain <page>")
        #expect(plain.description == "Just a page.")
        #expect(plain.imageURL == nil)
    }

    @Test("No title, no card; an image that is not an http(s) address is dropped; invisible and control characters are taken out; long texts are cut")
    func untrustedPages() throws {
        #expect(LinkPreviewPage.preview(of: "<html><head><meta name='description' content='no title'></head></html>", at: page) == nil)
        #expect(LinkPreviewPage.preview(of: "<title>   </title>", at: page) == nil)
        let card = try #require(LinkPreviewPage.preview(of: """
            <meta property="og:title" content="Pay\u{202E}lapyap\u{200B} now\u{0007}">
            <meta property="og:image" content="javascript:alert(1)">
            <meta property="og:description" content="\(String(repeating: "word ", count: 100))">
            """, at: page))
        #expect(card.title == "Paylapyap now")
        #expect(card.imageURL == nil)
        let description = try #require(card.description)
        #expect(description.count == LinkPreviewPage.maxDescriptionLength)
        #expect(description.hasSuffix("…"))
    }

    @Test("Broken markup never traps: cut-off tags, stray quotes and equals signs, unknown entities")
    func brokenMarkup() {
        let pieces = [
            "<meta", "<meta property=\"og:title\" content=\"open", "<meta = = >", "<meta property='og:title' content=>", "<title>",
            "&#xFFFFFFFF; &#99999999999; &bogus; &", "<meta/property=og:title/content=x>", "<metadata content=x>", "<<<>>>",
        ]
        for piece in pieces {
            _ = LinkPreviewPage.preview(of: piece, at: page)
            _ = LinkPreviewPage.preview(of: piece + "<title>t</title>", at: page)
        }
        #expect(LinkPreviewPage.preview(of: "<meta property=og:title content=Short>", at: page)?.title == "Short")
        #expect(LinkPreviewPage.preview(of: "<title>&#xFFFFFFFF; &amp &lt; &bogus;</title>", at: page)?.title == "\u{FFFD} & < &bogus;")
    }

    @Test("Entities are decoded by the HTML standard's whole table, in titles and in attributes alike")
    func everyNamedReference() throws {
        let card = try #require(LinkPreviewPage.preview(of: """
            <head><title>Recipes &raquo; Caf&eacute; Cr&egrave;me &ndash; Tom&rsquo;s &hellip;</title>
            <meta name="description" content="Caf&eacute; &#150; cr&egrave;me &frac12 price &euro;3">
            <meta property="og:image" content="/img?w=1&copy=2&amp;h=3&times;">
            </head>
            """, at: page))
        #expect(card.title == "Recipes » Café Crème – Tom’s …")
        #expect(card.description == "Café – crème ½ price €3")
        // In an attribute, a bare legacy name before `=` stays as written (a query parameter).
        #expect(card.imageURL == "https://news.example/img?w=1&copy=2&h=3%C3%97")
    }

    @Test("A commented-out tag is not a tag: the real one after it wins")
    func commentsAreNotMarkup() throws {
        let card = try #require(LinkPreviewPage.preview(of: """
            <html><head>
            <!-- <meta property="og:title" content="Old draft title"> -->
            <!--<title>Draft</title>--><!----><!---->
            <!-- a comment with -- dashes --!> <!--> <!--->
            <meta property="og:title" content="The real title">
            <!-- </head> is not the end of the head in a comment -->
            <meta property="og:description" content="Read after the commented </head>">
            </head></html>
            """, at: page))
        #expect(card.title == "The real title")
        #expect(card.description == "Read after the commented </head>")
    }

    @Test("What scripts, style sheets, noscript blocks and templates hold is text, not tags")
    func rawTextIsNotMarkup() throws {
        let card = try #require(LinkPreviewPage.preview(of: """
            <head>
            <script>document.write('<meta property="og:title" content="From a script"></head>');</script>
            <script type="text/template"><!-- <script>var a = "</script>"; --> <meta property="og:title" content="Escaped"></script>
            <style>/* <meta property="og:title" content="From a style sheet"> */ body { color: red }</style>
            <noscript><meta property="og:image" content="https://tracker.example/pixel.gif"></noscript>
            <template><meta property="og:title" content="From a template"><title>Template</title></template>
            <meta property="og:title" content="After them all">
            <meta property="og:image" content="https://cdn.example/real.png">
            </head>
            """, at: page))
        #expect(card.title == "After them all")
        #expect(card.imageURL == "https://cdn.example/real.png")
    }

    @Test("The title is the first <title> element's text: tags inside it are text, a <title> in a comment or script is none")
    func titleElement() throws {
        #expect(LinkPreviewPage.preview(of: "<!-- <title>Old</title> --><script>'<title>js</title>'</script><title>Real</title>", at: page)?.title == "Real")
        #expect(LinkPreviewPage.preview(of: "<title>a <b>bold</b> &lt;move&gt;</title><title>second</title>", at: page)?.title == "a <b>bold</b> <move>")
        #expect(LinkPreviewPage.preview(of: "<TITLE lang=en>Upper case</TiTlE >", at: page)?.title == "Upper case")
        #expect(LinkPreviewPage.preview(of: "<head><title>Cut off at the end", at: page)?.title == "Cut off at the end")
        #expect(LinkPreviewPage.preview(of: "<titlebar>no</titlebar>", at: page) == nil)
    }

    @Test("The head ends at its </head> or the <body> tag, as markup; what follows is not read")
    func headEnds() throws {
        let html = """
            <head><title>Head</title></head>
            <body><meta property="og:title" content="In the body"></body>
            """
        #expect(LinkPreviewPage.preview(of: html, at: page)?.title == "Head")
        #expect(LinkPreviewPage.preview(of: "<title>Before</title><body><meta property=og:title content=After>", at: page)?.title == "Before")
        #expect(LinkPreviewPage.preview(of: "<script>'<body>'</script><meta property=og:title content=Read>", at: page)?.title == "Read")
    }

    @Test("Attributes are read as a browser reads them: quotes, a > inside a value, repeats, no spaces between")
    func attributes() throws {
        let card = try #require(LinkPreviewPage.preview(of: """
            <meta property="og:title" content="a > b" content="second">
            <meta content='It&apos;s "quoted"'property='og:description'>
            <meta name=twitter:image content=https://cdn.example/x.png/>
            <link title='<meta property="og:site_name" content="Inside a value">'>
            """, at: page))
        #expect(card.title == "a > b")
        #expect(card.description == #"It's "quoted""#)
        #expect(card.imageURL == "https://cdn.example/x.png/")
        #expect(card.siteName == nil)
    }
}

