import Foundation
@testable import LinkShare
import Testing

@Suite("What a person types in the Feed field")
struct FeedAddressTests {
    let reddit = LinkShare.defaultFeedURL
    let local = URL(string: "http://127.0.0.1:8123/r/programming.json")!

    @Test("A subreddit name, with or without r/, reads that subreddit's listing", arguments: [
        "swift", "r/swift", "/r/swift/", "R/swift", "  swift  ",
    ])
    func subreddit(text: String) throws {
        #expect(try FeedAddress.resolve(text, defaultFeed: reddit).absoluteString == "https://www.reddit.com/r/swift.json")
    }

    @Test("Subreddits are read from the default feed's server when it serves Reddit listings, else from Reddit")
    func subredditServer() throws {
        #expect(try FeedAddress.resolve("swift", defaultFeed: local).absoluteString == "http://127.0.0.1:8123/r/swift.json")
        let blog = try #require(URL(string: "https://blog.example.org/feed.xml"))
        #expect(try FeedAddress.resolve("swift", defaultFeed: blog).absoluteString == "https://www.reddit.com/r/swift.json")
    }

    @Test("An address is read as given; a Reddit page becomes its listing; a bare domain gets https", arguments: [
        ("https://blog.example.org/feed.xml", "https://blog.example.org/feed.xml"),
        ("HTTP://blog.example.org/atom?x=1", "HTTP://blog.example.org/atom?x=1"),
        ("https://www.reddit.com/r/rust/", "https://www.reddit.com/r/rust.json"),
        ("https://old.reddit.com/r/rust", "https://old.reddit.com/r/rust.json"),
        ("blog.example.org/feed.xml", "https://blog.example.org/feed.xml"),
    ])
    func address(text: String, url: String) throws {
        #expect(try FeedAddress.resolve(text, defaultFeed: reddit).absoluteString == url)
    }

    @Test("Text that names no feed is refused with a sentence saying what to type", arguments: [
        ("", "Type a subreddit name such as swift, or a feed's address."),
        ("no spaces allowed", "“no spaces allowed” isn't a subreddit name (letters, digits and _) or a web address starting with https://."),
        ("javascript:alert(1)", "“javascript:alert(1)” isn't a subreddit name (letters, digits and _) or a web address starting with https://."),
        ("ftp://example.org/feed", "“ftp://example.org/feed” isn't a subreddit name (letters, digits and _) or a web address starting with https://."),
        ("https://", "“https://” isn't a web address LinkShare can read."),
    ])
    func refusals(text: String, message: String) {
        #expect(throws: FeedAddress.Refusal(message: message)) { try FeedAddress.resolve(text, defaultFeed: reddit) }
    }

    @Test("Local and private addresses are refused, except the default feed's own host", arguments: [
        "http://localhost:5432/", "http://127.0.0.1/feed", "http://10.1.2.3/feed", "http://192.168.0.1/rss",
        "http://172.20.0.5/", "http://169.254.169.254/latest/meta-data", "http://[::1]/feed", "http://2130706433/",
        "http://0x7f.0.0.1/", "http://intranet/feed", "http://printer.local/", "http://100.64.0.1/",
    ])
    func refusesLocal(text: String) {
        #expect { try FeedAddress.resolve(text, defaultFeed: reddit) } throws: { error in
            (error as? FeedAddress.Refusal)?.message.hasPrefix("LinkShare doesn't read feeds from local or private addresses") == true
        }
    }

    @Test("The default feed's own host may be chosen even when it is local (the operator chose it)")
    func defaultHostAllowed() throws {
        #expect(try FeedAddress.resolve("http://127.0.0.1:8123/feeds/blog.atom", defaultFeed: local).absoluteString
            == "http://127.0.0.1:8123/feeds/blog.atom")
    }

    @Test("Public addresses are not local", arguments: ["93.184.216.34", "www.reddit.com", "blog.example.org", "172.32.0.1"])
    func publicHosts(host: String) {
        #expect(!FeedAddress.isLocal(host))
    }

    @Test("A feed's short name: r/<name> for Reddit, else its host and path")
    func names() throws {
        #expect(FeedAddress.name(of: reddit) == "r/programming")
        #expect(FeedAddress.name(of: try #require(URL(string: "https://blog.example.org/feed.xml"))) == "blog.example.org/feed.xml")
        #expect(FeedAddress.name(of: try #require(URL(string: "https://blog.example.org/"))) == "blog.example.org")
    }
}
