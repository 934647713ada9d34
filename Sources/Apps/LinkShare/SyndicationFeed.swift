import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Synchronization

/// Reads RSS (0.90, 0.91–0.94, 1.0 and 2.0) and Atom (0.3 and 1.0) into posts with Foundation's
/// `XMLParser`. Pure: no I/O.
///
/// Lenient where a reader would be, as `RedditListing` is: items without a title or a usable web
/// link are skipped, duplicates are dropped, and titles read as `FeedText` says (markup removed,
/// scripts dropped, entities decoded, whitespace collapsed). A title comes from the item's own
/// `title`, else `dc:title`, else `media:title`; a link from RSS's `link` (its text, or its `href`
/// as some feeds write it), else an `atom:link`, else a permalink `guid` (RSS) or an absolute
/// http(s) `id` (Atom, as feedparser does). Strict about what could hurt (`XMLScreen`): a document
/// that declares entities or names an outside DTD is refused, so nothing is expanded or loaded, as
/// is one with the declarations FoundationXML traps on; CDATA is left to the parser; nesting is
/// bounded, each field keeps at most 16 KiB of text, and reading stops after `FeedDocument.maxPosts`
/// posts. A document that is not well-formed is an error, never a trap.
enum SyndicationFeed {
    /// The feed in `data`, which starts with `<`.
    /// - Throws: `FeedError(.malformed)` when it is not well-formed XML, not RSS or Atom, or is
    ///   refused by `XMLScreen` (entities, an outside DTD).
    static func read(_ data: Data, feedURL: URL) throws(FeedError) -> FeedDocument {
        try parse(data, feedURL: feedURL, keepingEntries: false).document
    }

    /// An entry as the reader reads it, before it is kept as a post or skipped: its title as a reader
    /// sees it (empty without one) and its web link (nil without one). For comparing the reader
    /// with other parsers (the feed corpus test); `read` shows only entries with both.
    struct EntryText: Hashable, Sendable {
        var title: String
        var link: URL?
    }

    /// Every entry of the feed in `data`, in order, duplicates included.
    /// - Throws: `FeedError(.malformed)` as `read` does.
    static func entries(_ data: Data, feedURL: URL) throws(FeedError) -> [EntryText] {
        try parse(data, feedURL: feedURL, keepingEntries: true).entries
    }

    /// The document and, when `keepingEntries`, every entry read.
    private static func parse(_ data: Data, feedURL: URL, keepingEntries: Bool) throws(FeedError) -> (document: FeedDocument, entries: [EntryText]) {
        let reader = Reader(feedURL: feedURL, keepingEntries: keepingEntries)
        // XML allows nothing before its declaration; feeds often have a byte order mark or a blank line.
        let text = try utf8Text(Data(data.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }))
        let screened = try XMLScreen.screened(text)
        let parser = XMLParser(data: Data(screened.text.utf8))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        // libxml2, under XMLParser on Linux, keeps global state; one parse at a time is safe everywhere.
        let finished = libxml.withLock { _ in parser.parse() }
        if let refusal = reader.refusal { throw .malformed(refusal) }
        // What the screen found not well-formed, after what the parser says of the document's
        // start (a web page, another format), which tells a person more.
        if let problem = screened.problem, !reader.isFull { throw .malformed(problem) }
        // FoundationXML on Linux reports success for some documents cut off or with mismatched
        // tags; every element opened must also have been closed.
        guard finished && reader.isBalanced || reader.isFull, reader.format != nil else {
            throw .malformed("XML that is not well-formed, at line \(parser.lineNumber)")
        }
        return (FeedDocument(title: reader.feedTitle, posts: reader.posts), reader.entries)
    }

    private static let libxml = Mutex(())

    /// Why a web page is refused.
    static let webPage = "a web page, not a feed"

    /// The document as text, so valid UTF-8, which is all XMLParser is given: FoundationXML on Linux traps
    /// (ending the process) on an element name that is not valid UTF-8, which libxml2 passes on
    /// from a document declared UTF-8 that is not (found by the `feed` fuzz target). A document
    /// declared Latin-1, Windows-1252 or ASCII is converted, and its declaration says UTF-8.
    /// - Throws: `FeedError(.malformed)` for bytes that are not what the document declares, or
    ///   another encoding.
    static func utf8Text(_ data: Data) throws(FeedError) -> String {
        let head = String(decoding: data.prefix(200), as: UTF8.self)
        let declared = head.range(of: #"encoding\s*=\s*["']([A-Za-z0-9._-]+)["']"#, options: .regularExpression)
            .map { String(head[$0]) }
        let name = declared.flatMap { $0.split(whereSeparator: { $0 == "\"" || $0 == "'" }).dropFirst().first }.map { $0.lowercased() }
        let source: String.Encoding
        switch name {
        case nil, "utf-8", "utf8": source = .utf8
        case "iso-8859-1", "latin1", "latin-1", "iso_8859-1": source = .isoLatin1
        case "windows-1252", "cp1252": source = .windowsCP1252
        case "us-ascii", "ascii": source = .ascii
        case let other?: throw .malformed("a feed in \(other.prefix(20)); only UTF-8 and Latin-1 feeds are read")
        }
        guard var text = String(data: data, encoding: source) else {
            throw .malformed("text that is not the \(source == .utf8 ? "UTF-8" : name ?? "encoding") it says it is")
        }
        if source != .utf8, let declared, let range = text.range(of: declared) {
            text.replaceSubrange(range, with: #"encoding="UTF-8""#)
        }
        return text
    }

    /// The two families: RSS (0.9x and 2.0 whose root is `rss`, 0.90 and 1.0 whose root is
    /// `rdf:RDF`) and Atom (0.3 and 1.0, whose root is `feed`).
    enum Format { case rss, atom }

    static let atomNamespace = "http://www.w3.org/2005/Atom"
    static let atom03Namespace = "http://purl.org/atom/ns#"
    static let mediaNamespace = "http://search.yahoo.com/mrss/"
    static let dublinCoreNamespace = "http://purl.org/dc/elements/1.1/"
    /// The namespaces of RSS's own elements, besides none: RSS 1.0's, RSS 0.90's, and the one
    /// UserLand's RSS 2.0 feeds declared for a while.
    static let rssNamespaces: Set<String> = [
        "http://purl.org/rss/1.0/", "http://my.netscape.com/rdf/simple/0.9/", "http://backend.userland.com/rss2",
    ]
    /// The namespaces of Atom's own elements, besides none: Atom 1.0's and Atom 0.3's.
    static let atomNamespaces: Set<String> = [atomNamespace, atom03Namespace]

    /// The deepest nesting read; real feeds stay under 10.
    static let maxDepth = 32
    /// The most UTF-8 bytes kept of one field's text.
    static let maxFieldBytes = 16 * 1024
}

