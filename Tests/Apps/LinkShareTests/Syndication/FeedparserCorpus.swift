import Foundation
@testable import LinkShare

/// feedparser's well-formed RSS and Atom feeds (in `feedparser/`, see its README.md), what
/// feedparser reads of them (`feedparser/expected.json`, written by
/// `tools/feed-corpus-expected.py`) and the differences left (`feedparser/DIFFERENCES.md`).
struct FeedparserCorpus {
    /// What feedparser read of every feed.
    struct Expected: Decodable {
        /// The reference parser and its version.
        let reference: String
        /// The address every feed is read as coming from, `{path}` standing for its path in the corpus.
        let feedURL: String
        /// Each feed by its path in the corpus (`atom10/entry_title.xml`).
        let files: [String: Feed]
    }

    /// What feedparser read of one feed.
    struct Feed: Decodable {
        /// False when feedparser found an XML syntax error: LinkShare must refuse the feed.
        let wellFormed: Bool
        /// feedparser's name of the format (`rss20`, `atom03`).
        let version: String
        let entries: [Entry]
    }

    /// One entry as feedparser reads it.
    struct Entry: Decodable {
        /// `entry.title`: for an HTML or XHTML title, feedparser's sanitized HTML.
        let title: String
        /// `entry.title_detail.type`.
        let titleType: String
        /// The title as plain text, as a reader sees it; empty without a title.
        let text: String
        /// `entry.link`, resolved by feedparser; nil without one.
        let link: String?
    }

    /// The folder of the corpus, beside this file.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("feedparser")

    let expected: Expected

    /// The corpus as committed.
    /// - Throws: when expected.json is missing or not of its shape.
    init() throws {
        expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
    }

    /// The paths of the feeds in the folder (`rss/item_title.xml`), sorted.
    static func feedPaths() throws -> [String] {
        let formats = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return try formats.flatMap { format -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(format).path, isDirectory: &isFolder),
                  isFolder.boolValue else { return [] }
            return try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(format).path)
                .filter { $0.hasSuffix(".xml") }
                .map { "\(format)/\($0)" }
        }.sorted()
    }

    /// The differences listed in DIFFERENCES.md: the path of each feed (the first `code` of a
    /// table row) and the row's reason.
    static func listedDifferences() throws -> [String: String] {
        let text = try String(contentsOf: folder.appendingPathComponent("DIFFERENCES.md"), encoding: .utf8)
        var listed: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let path = cells.first?.split(separator: "`").first else { continue }
            listed[String(path)] = cells.dropFirst().first ?? ""
        }
        return listed
    }

    /// How LinkShare's reading of the feed at `path` differs from feedparser's, or nil when they
    /// agree: the same refusal, or (after collapsing whitespace) the same titles and web links for
    /// every entry, and the same posts.
    func difference(at path: String) throws -> String? {
        guard let feed = expected.files[path] else { return "not in expected.json: run tools/feed-corpus-expected.py" }
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(path))
        guard let feedURL = URL(string: expected.feedURL.replacingOccurrences(of: "{path}", with: path)) else {
            return "no feed URL for \(path)"
        }
        let document: FeedDocument
        let entries: [SyndicationFeed.EntryText]
        do {
            document = try FeedDocument.read(data, feedURL: feedURL)
            entries = try SyndicationFeed.entries(data, feedURL: feedURL)
        } catch {
            return feed.wellFormed ? "refused: \(error.message)" : nil
        }
        guard feed.wellFormed else { return "read, though feedparser finds it not well-formed" }
        let wanted = feed.entries.map { Self.EntryPair(title: $0.text.collapsingWhitespace, link: Self.webLink($0.link)) }
        let got = entries.map { Self.EntryPair(title: $0.title.collapsingWhitespace, link: $0.link?.absoluteString) }
        guard wanted == got else { return "entries \(got.map(\.description)), feedparser \(wanted.map(\.description))" }
        let wantedPosts = wanted.filter { !$0.title.isEmpty && $0.link != nil }
        let gotPosts = document.posts.map { Self.EntryPair(title: $0.title, link: $0.url.absoluteString) }
        guard wantedPosts == gotPosts else { return "posts \(gotPosts.map(\.description)), feedparser \(wantedPosts.map(\.description))" }
        return nil
    }

    /// A title and a link, compared as text.
    struct EntryPair: Hashable, CustomStringConvertible {
        let title: String
        let link: String?
        var description: String { "“\(title)” \(link ?? "(no link)")" }
    }

    /// feedparser's link when it is one LinkShare keeps (http or https, with a host); else nil.
    static func webLink(_ link: String?) -> String? {
        guard let link, let url = URL(string: link), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false else { return nil }
        return link
    }
}
