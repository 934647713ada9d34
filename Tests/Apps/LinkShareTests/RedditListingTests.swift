import Foundation
import LinkShare
import Testing

@Suite("Reading Reddit's listing format")
struct RedditListingTests {
    let feedURL = URL(string: "https://www.reddit.com/r/programming.json")!

    func posts(_ json: String) throws -> [Post] {
        try RedditListing.posts(from: Data(json.utf8), feedURL: feedURL)
    }

    @Test("A real-shaped listing gives every post with title, score, url, domain and the optional fields")
    func readsListing() throws {
        let posts = try posts(Fixtures.programming)
        #expect(posts.map(\.title) == Fixtures.programmingTitles)
        #expect(posts.map(\.score) == [1532, 87, 12, 640])
        #expect(posts.map(\.domain) == ["sqlite.org", "developer.mozilla.org", "self.programming", "ziglang.org"])
        let first = try #require(posts.first)
        #expect(first.id == "t3_1fx0001")
        #expect(first.url.absoluteString == "https://sqlite.org/btree.html")
        #expect(first.permalink?.absoluteString == "https://www.reddit.com/r/programming/comments/1fx0001/why_sqlite_uses_btrees/")
        #expect(first.author == "dbfan")
        #expect(first.commentCount == 214)
        #expect(first.thumbnail?.absoluteString == "https://b.thumbs.redditmedia.com/sqlite.jpg")
        #expect(first.byline == "by dbfan · 214 comments")
        #expect(posts[1].byline == "by pixel · 1 comment")
    }

    @Test("Reddit's placeholder thumbnails (self, default, empty) are not images")
    func placeholderThumbnailsAreDropped() throws {
        #expect(try posts(Fixtures.programming).map { $0.thumbnail != nil } == [true, false, false, false])
    }

    @Test("An entity-escaped URL is decoded before it is used as the link")
    func decodesEscapedURL() throws {
        let canvas = try #require(try posts(Fixtures.programming).dropFirst().first)
        #expect(canvas.url.absoluteString == "https://developer.mozilla.org/en-US/docs/Web/API/Canvas_API?utm_source=reddit&utm_medium=social")
    }

    @Test("Comments, 'more' stubs, subreddits, null and shapeless entries, and posts without a title or web link are skipped")
    func skipsNonPosts() throws {
        let posts = try posts(Fixtures.mixed)
        #expect(posts.map(\.title) == ["A good post", "Another good post"])
        #expect(posts.map(\.score) == [3, 4])
    }

    @Test("A post repeated in the listing is listed once")
    func dropsDuplicates() throws {
        #expect(try posts(Fixtures.mixed).filter { $0.id == "t3_good1" }.count == 1)
    }

    @Test("A post with only a title and a url gets score 0 and its host as domain")
    func missingOptionalFields() throws {
        let json = #"{"data": {"children": [{"kind": "t3", "data": {"title": "Bare", "url": "https://bare.example/x"}}]}}"#
        let post = try #require(try posts(json).first)
        #expect(post.score == 0)
        #expect(post.domain == "bare.example")
        #expect(post.id == "https://bare.example/x")
        #expect(post.author == nil && post.commentCount == nil && post.permalink == nil && post.thumbnail == nil)
    }

    @Test("Fields of an unexpected type are ignored, not fatal")
    func wrongTypesAreLenient() throws {
        let json = #"{"data": {"children": [{"kind": "t3", "data": {"title": "Odd", "url": "https://odd.example/", "score": "lots", "num_comments": 1e300, "author": 42, "domain": null}}]}}"#
        let post = try #require(try posts(json).first)
        #expect(post.score == 0)
        #expect(post.commentCount == nil)
        #expect(post.author == nil)
        #expect(post.domain == "odd.example")
    }

    @Test("A relative link resolves against the feed's address")
    func resolvesRelativeLinks() throws {
        let post = try #require(try posts(Fixtures.listing(title: "Crosspost", url: "/r/programming/comments/xyz/crosspost/")).first)
        #expect(post.url.absoluteString == "https://www.reddit.com/r/programming/comments/xyz/crosspost/")
    }

    @Test("A link longer than the 5,000-character message URL limit is skipped; one at the limit is kept")
    func skipsOverlongLinks() throws {
        #expect(try posts(Fixtures.listing(title: "Long", url: Fixtures.url(length: 5_001))).isEmpty)
        let kept = try posts(Fixtures.listing(title: "At the limit", url: Fixtures.url(length: 5_000)))
        #expect(kept.first?.url.absoluteString.count == 5_000)
    }

    @Test("Entities in titles, domains and authors are decoded, and whitespace runs collapse")
    func decodesText() throws {
        let json = Fixtures.listing([FixturePost(
            name: "t3_e", title: "  Q&amp;A:\n&#8220;Why?&#8221;\t&lt;3 ", score: 1, url: "https://e.example/",
            domain: "e.example", author: "a&amp;b")])
        let post = try #require(try posts(json).first)
        #expect(post.title == "Q&A: “Why?” <3")
        #expect(post.author == "a&b")
    }

    @Test("A body that is not a listing is a malformed-feed error", arguments: [
        "<html><body>Too Many Requests</body></html>", "", "[]", "{}", #"{"data": {}}"#,
        #"{"data": {"children": 5}}"#, #"{"data": {"children": [1, 2"#, "null",
    ])
    func rejectsNonListings(body: String) {
        #expect {
            try posts(body)
        } throws: { error in
            (error as? FeedError)?.code == .malformed
        }
    }

    @Test("An empty listing is no posts, not an error")
    func emptyListing() throws {
        #expect(try posts(#"{"kind": "Listing", "data": {"children": []}}"#).isEmpty)
    }
}
