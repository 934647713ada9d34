import Foundation
@testable import LinkShare
import ParlorKit
import Testing

@Suite("The message that shares a post")
struct PostMessageTests {
    let post = Post(
        id: "t3_1", title: "Why SQLite uses B-trees & not LSM trees", score: 1532,
        url: URL(string: "https://sqlite.org/btree.html")!, domain: "sqlite.org")

    @Test("Caption is the title, subcaption the score, trailing subcaption the domain, url the post's link")
    func templateAndURL() throws {
        let message = post.message
        let layout = try #require(message.template)
        #expect(layout.caption == "Why SQLite uses B-trees & not LSM trees")
        #expect(layout.subcaption == "score: 1532")
        #expect(layout.trailingSubcaption == "sqlite.org")
        #expect(message.url?.absoluteString == "https://sqlite.org/btree.html")
        #expect(throws: Never.self) { try message.validate() }
    }

    @Test("A screen reader hears the site, the title and the score; the summary line names the title")
    func accessibilityAndSummary() {
        #expect(post.message.accessibilityLabel == "Link from sqlite.org: Why SQLite uses B-trees & not LSM trees. Score 1532.")
        #expect(post.message.summaryText == "Shared “Why SQLite uses B-trees & not LSM trees”")
    }

    @Test("A title longer than the caption limit is cut with an ellipsis, and the message stays valid")
    func longTitleIsClipped() throws {
        var long = post
        long.title = String(repeating: "word ", count: 200)
        let message = long.message
        let caption = try #require(message.template?.caption)
        #expect(caption.count == Limits.maxCaptionLength)
        #expect(caption.hasSuffix("…"))
        #expect((message.accessibilityLabel ?? "").count <= Limits.maxAccessibilityLabelLength)
        #expect(message.accessibilityLabel?.hasSuffix(". Score 1532.") == true)
        #expect(throws: Never.self) { try message.validate() }
    }

    @Test("Only http(s) links within the message URL limit count as web links", arguments: [
        ("https://example.com/a", true), ("HTTP://EXAMPLE.COM/", true), ("  https://example.com/pad  ", true),
        ("https://example.com/?a=1&amp;b=2", true), ("javascript:alert(1)", false), ("data:text/html,hi", false),
        ("mailto:a@example.com", false), ("ftp://example.com/", false), ("https://", false), ("not a url", false),
        ("", false),
    ])
    func webLinks(raw: String, accepted: Bool) {
        #expect((Post.webURL(raw) != nil) == accepted)
    }

    @Test("A link's query keeps its parameters: references are decoded as a browser decodes an href")
    func queryParametersKept() {
        #expect(Post.webURL("https://news.example/?id=7&region=eu&amp;lang=en")?.absoluteString == "https://news.example/?id=7&region=eu&lang=en")
        #expect(Post.webURL("https://news.example/?a=1&copy=2")?.absoluteString == "https://news.example/?a=1&copy=2")
    }

    @Test("The host refuses a LinkShare message whose URL is not a web link")
    func validateRefusesNonWebLinks() throws {
        let app = LinkShare()
        #expect(throws: Never.self) { try app.validate(post.message, replacing: nil) }
        var forged = post.message
        forged.url = URL(string: "data:text/html,hello")
        #expect { try app.validate(forged, replacing: nil) } throws: { ($0 as? MessagesError)?.code == .actionRefused }
        forged.url = nil
        #expect { try app.validate(forged, replacing: nil) } throws: { ($0 as? MessagesError)?.code == .actionRefused }
    }

    @Test("The manifest lets the app reach any host (people choose feeds) and keep data (the choice), and says so")
    func manifestAllowsChosenFeeds() throws {
        let manifest = LinkShare().manifest
        #expect(manifest.allowedHosts == ["*", "www.reddit.com"], "any host, and the default feed's by name")
        #expect(manifest.allows(host: "www.reddit.com") && manifest.allows(host: "blog.example.org"))
        #expect(manifest.names(host: "www.reddit.com") && !manifest.names(host: "blog.example.org"))
        #expect(LinkShare(feedURL: try #require(URL(string: "http://127.0.0.1:8081/feed.json"))).manifest.names(host: "127.0.0.1"),
                "the operator's default feed may be on the server's own network")
        #expect(manifest.keepsData)
        #expect(manifest.permissions.contains("Reach any website on the internet"))
        #expect(LinkShare().feedURL.absoluteString == "https://www.reddit.com/r/programming.json")
    }

    @Test("A post without a score (RSS, Atom) shows none in its row or its message")
    func postWithoutScore() throws {
        var unscored = post
        unscored.score = nil
        #expect(unscored.rowLabel == "Why SQLite uses B-trees & not LSM trees, sqlite.org")
        #expect(unscored.message.template?.subcaption == nil)
        #expect(unscored.message.accessibilityLabel == "Link from sqlite.org: Why SQLite uses B-trees & not LSM trees.")
        #expect(throws: Never.self) { try unscored.message.validate() }
    }
}

@Suite("Feed error messages")
struct FeedErrorMessageTests {
    @Test("A timeout names the app's timeout in words a person reads", arguments: [
        (Duration.seconds(10), "www.reddit.com didn't answer within 10 seconds. Retry in a moment, or choose another feed."),
        (.seconds(1), "www.reddit.com didn't answer within 1 second. Retry in a moment, or choose another feed."),
        (.milliseconds(250), "www.reddit.com didn't answer within 250 milliseconds. Retry in a moment, or choose another feed."),
    ])
    func timeoutMessage(timeout: Duration, message: String) {
        #expect(FeedError.timedOut("www.reddit.com", after: timeout).message == message)
    }
}
