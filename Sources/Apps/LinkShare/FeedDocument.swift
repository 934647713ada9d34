import Foundation

/// A feed as LinkShare shows it: its own title, when it has one, and its posts. Read from a Reddit
/// listing (JSON), RSS (0.90 to 2.0, RDF included) or Atom (0.3 and 1.0), chosen by the body's
/// content, not by its Content-Type, which feeds often get wrong.
///
/// ```swift
/// let feed = try FeedDocument.read(response.body, feedURL: url)
/// ```
public struct FeedDocument: Sendable, Hashable {
    /// The feed's title (an RSS channel's or an Atom feed's); nil for Reddit listings, which have none.
    public var title: String?
    /// The posts, in the feed's order, without duplicates.
    public var posts: [Post]

    public init(title: String? = nil, posts: [Post]) {
        self.title = title
        self.posts = posts
    }

    /// The largest body read: a feed is a few hundred kilobytes; the server's client also stops at 4 MiB.
    public static let maxBytes = 4 * 1024 * 1024
    /// The most posts kept; the rest of a longer feed is not read.
    public static let maxPosts = 100
    /// The longest title kept, in characters (Reddit's own limit); longer ones are cut with "…".
    public static let maxTitleLength = 300

    /// The feed in `data`: a Reddit listing when it starts with `{` or `[`, RSS or Atom when it
    /// starts with `<`.
    /// - Parameter feedURL: where the feed came from; relative links resolve against it.
    /// - Throws: `FeedError(.malformed)` for a body too large, empty, of another format, or broken.
    public static func read(_ data: Data, feedURL: URL) throws(FeedError) -> FeedDocument {
        guard data.count <= maxBytes else { throw .malformed("larger than \(maxBytes / 1024 / 1024) MB") }
        switch firstSignificantByte(of: data) {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return FeedDocument(posts: Array(try RedditListing.posts(from: data, feedURL: feedURL).prefix(maxPosts)))
        case UInt8(ascii: "<"):
            return try SyndicationFeed.read(data, feedURL: feedURL)
        case nil:
            throw .malformed("an empty answer")
        default:
            throw .malformed("not JSON, RSS or Atom")
        }
    }

    /// The first byte after a UTF-8 byte order mark and whitespace; nil when there is none.
    private static func firstSignificantByte(of data: Data) -> UInt8? {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0) }
    }
}
