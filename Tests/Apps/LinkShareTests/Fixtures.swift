import Foundation

/// Listing JSON served by the fixture server and read by the parser tests.
enum Fixtures {
    /// r/programming as Reddit sends it (fields trimmed): three link posts, one with an
    /// entity-escaped title and URL, and a stickied self post.
    static let programming = #"""
    {"kind": "Listing", "data": {"after": "t3_1fx0004", "dist": 4, "modhash": "", "geo_filter": null, "before": null,
     "children": [
      {"kind": "t3", "data": {"subreddit": "programming", "selftext": "", "author_fullname": "t2_abc",
        "title": "Why SQLite uses B-trees &amp; not LSM trees", "name": "t3_1fx0001", "id": "1fx0001",
        "score": 1532, "ups": 1532, "upvote_ratio": 0.97, "domain": "sqlite.org",
        "url": "https://sqlite.org/btree.html", "permalink": "/r/programming/comments/1fx0001/why_sqlite_uses_btrees/",
        "author": "dbfan", "num_comments": 214, "thumbnail": "https://b.thumbs.redditmedia.com/sqlite.jpg",
        "thumbnail_width": 140, "is_self": false, "over_18": false, "stickied": false, "created_utc": 1718000000.0}},
      {"kind": "t3", "data": {"subreddit": "programming",
        "title": "&lt;canvas&gt; tricks: &quot;60 fps&quot; isn&#39;t magic &#8212; it&#x2019;s budgeting",
        "name": "t3_1fx0002", "id": "1fx0002", "score": 87, "domain": "developer.mozilla.org",
        "url": "https://developer.mozilla.org/en-US/docs/Web/API/Canvas_API?utm_source=reddit&amp;utm_medium=social",
        "permalink": "/r/programming/comments/1fx0002/canvas_tricks/", "author": "pixel", "num_comments": 1,
        "thumbnail": "default", "is_self": false}},
      {"kind": "t3", "data": {"subreddit": "programming", "title": "Weekly thread: what are you working on?",
        "name": "t3_1fx0003", "id": "1fx0003", "score": 12, "domain": "self.programming",
        "url": "https://www.reddit.com/r/programming/comments/1fx0003/weekly_thread/",
        "permalink": "/r/programming/comments/1fx0003/weekly_thread/", "author": "AutoModerator",
        "num_comments": 40, "thumbnail": "self", "is_self": true, "stickied": true}},
      {"kind": "t3", "data": {"subreddit": "programming", "title": "Zig 0.14 release notes",
        "name": "t3_1fx0004", "id": "1fx0004", "score": 640, "domain": "ziglang.org",
        "url": "https://ziglang.org/download/0.14.0/release-notes.html",
        "permalink": "/r/programming/comments/1fx0004/zig_014/", "author": "andrewrk", "num_comments": 98,
        "thumbnail": "", "is_self": false}}
     ]}}
    """#

    /// The titles of `programming`, as a reader sees them.
    static let programmingTitles = [
        "Why SQLite uses B-trees & not LSM trees",
        "<canvas> tricks: \"60 fps\" isn't magic — it’s budgeting",
        "Weekly thread: what are you working on?",
        "Zig 0.14 release notes",
    ]

    /// Entries that are not posts, or posts a reader could not open, around two good posts.
    static let mixed = #"""
    {"kind": "Listing", "data": {"children": [
      {"kind": "t1", "data": {"body": "a comment", "name": "t1_c1", "score": 5}},
      {"kind": "more", "data": {"count": 12, "children": ["abc"]}},
      {"kind": "t5", "data": {"display_name": "programming", "title": "r/programming", "url": "/r/programming/"}},
      null,
      {"kind": "t3", "data": "not an object"},
      {"kind": "t3"},
      {"data": {"title": "No kind at all", "url": "https://example.com/nokind"}},
      {"kind": "t3", "data": {"name": "t3_good1", "title": "A good post", "score": 3, "url": "https://example.com/good", "domain": "example.com"}},
      {"kind": "t3", "data": {"name": "t3_notitle", "score": 9, "url": "https://example.com/notitle"}},
      {"kind": "t3", "data": {"name": "t3_blank", "title": "   ", "url": "https://example.com/blank"}},
      {"kind": "t3", "data": {"name": "t3_js", "title": "Click me", "url": "javascript:alert(1)"}},
      {"kind": "t3", "data": {"name": "t3_mail", "title": "Mail me", "url": "mailto:someone@example.com"}},
      {"kind": "t3", "data": {"name": "t3_ftp", "title": "Old files", "url": "ftp://example.com/file"}},
      {"kind": "t3", "data": {"name": "t3_nourl", "title": "No link"}},
      {"kind": "t3", "data": {"name": "t3_good1", "title": "A good post, again", "url": "https://example.com/again"}},
      {"kind": "t3", "data": {"name": "t3_good2", "title": "Another good post", "score": 4.0, "url": "https://example.org/two", "domain": "example.org"}}
    ]}}
    """#

    /// A listing of the posts given.
    static func listing(_ posts: [FixturePost]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let listing = FixtureListing(data: .init(children: posts.map { .init(data: $0) }))
        // Encoding plain strings and numbers cannot fail.
        return (try? encoder.encode(listing)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A listing of one post.
    static func listing(title: String, url: String, score: Int = 1, domain: String? = nil, name: String = "t3_one") -> String {
        listing([FixturePost(name: name, title: title, score: score, url: url, domain: domain)])
    }

    /// An https URL of exactly `length` characters.
    static func url(length: Int) -> String {
        let base = "https://example.com/"
        return base + String(repeating: "a", count: max(length - base.count, 0))
    }
}

/// A post's fields, as Reddit names them; nil fields are left out of the JSON.
struct FixturePost: Encodable {
    var name: String?
    var title: String?
    var score: Int?
    var url: String?
    var domain: String?
    var permalink: String?
    var author: String?
    var commentCount: Int?
    var thumbnail: String?

    private enum CodingKeys: String, CodingKey {
        case name, title, score, url, domain, permalink, author, thumbnail
        case commentCount = "num_comments"
    }
}

private struct FixtureListing: Encodable {
    struct Body: Encodable { var children: [Child] }
    struct Child: Encodable {
        var kind = "t3"
        var data: FixturePost
    }
    var kind = "Listing"
    var data: Body
}
