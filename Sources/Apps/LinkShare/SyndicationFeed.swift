import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Synchronization

/// Reads RSS 2.0, RSS 1.0 (RDF) and Atom 1.0 into posts with Foundation's `XMLParser`. Pure: no I/O.
///
/// Lenient where a reader would be, as `RedditListing` is: items without a title or a usable web
/// link are skipped, duplicates are dropped, text is HTML-entity decoded (Atom's `type="html"`
/// text has its tags removed first) and whitespace runs collapse. Strict about what could hurt:
/// a document that declares entities is refused (no entity expansion), external entities are never
/// loaded, nesting is bounded, each field keeps at most 16 KiB of text, and reading stops after
/// `FeedDocument.maxPosts` posts. A document that is not well-formed is an error, never a trap.
enum SyndicationFeed {
    /// The feed in `data`, which starts with `<`.
    /// - Throws: `FeedError(.malformed)` when it is not well-formed XML, not RSS or Atom, or
    ///   declares entities.
    static func read(_ data: Data, feedURL: URL) throws(FeedError) -> FeedDocument {
        guard data.range(of: Data("<!ENTITY".utf8)) == nil else { throw .malformed("XML that declares entities") }
        // FoundationXML on Linux ends the process on some well-formed documents: a processing
        // instruction without data (`<?x?>`) reaches strlen(NULL) (found by the feed fuzzer). Feeds
        // need no document type and no instructions, so neither reaches the parser.
        guard data.range(of: Data("<!DOCTYPE".utf8)) == nil, data.range(of: Data("<!doctype".utf8)) == nil else {
            throw .malformed("XML with a document type declaration")
        }
        let reader = Reader(feedURL: feedURL)
        // XML allows nothing before its declaration; feeds often have a byte order mark or a blank line.
        let parser = XMLParser(data: try utf8Document(Data(data.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) })))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        // libxml2, under XMLParser on Linux, keeps global state; one parse at a time is safe everywhere.
        let finished = libxml.withLock { _ in parser.parse() }
        if let refusal = reader.refusal { throw .malformed(refusal) }
        // FoundationXML on Linux reports success for some documents cut off or with mismatched
        // tags; every element opened must also have been closed.
        guard finished && reader.isBalanced || reader.isFull, reader.format != nil else {
            throw .malformed("XML that is not well-formed, at line \(parser.lineNumber)")
        }
        return FeedDocument(title: reader.feedTitle, posts: reader.posts)
    }

    private static let libxml = Mutex(())

    /// The document as valid UTF-8, which is all XMLParser is given: FoundationXML on Linux traps
    /// (ending the process) on an element name that is not valid UTF-8, which libxml2 passes on
    /// from a document declared UTF-8 that is not (found by the `feed` fuzz target). A document
    /// declared Latin-1, Windows-1252 or ASCII is converted, and its declaration says UTF-8.
    /// - Throws: `FeedError(.malformed)` for bytes that are not what the document declares, or
    ///   another encoding.
    /// `text` without processing instructions (`<?xml-stylesheet …?>` and the like), keeping an
    /// XML declaration at its start only when it is exactly one (version, encoding, standalone).
    /// - Throws: `FeedError(.malformed)` for a declaration of another shape.
    static func withoutInstructions(_ text: String) throws(FeedError) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        if rest.hasPrefix("<?xml") {
            let declaration = #"^<\?xml\s+version\s*=\s*["']1\.[0-9]["'](\s+encoding\s*=\s*["'][A-Za-z0-9._-]+["'])?(\s+standalone\s*=\s*["'](yes|no)["'])?\s*\?>"#
            guard let range = rest.range(of: declaration, options: .regularExpression) else {
                throw .malformed("an XML declaration that is not one")
            }
            result += rest[range]
            rest = rest[range.upperBound...]
        }
        let declarationEnd = result.endIndex
        while let start = rest.range(of: "<?") {
            // A space in its place, so that what surrounds it cannot join into a new `<?`.
            result += rest[..<start.lowerBound] + " "
            guard let end = rest[start.upperBound...].range(of: "?>") else {
                rest = ""
                break
            }
            rest = rest[end.upperBound...]
        }
        result += rest
        guard result[declarationEnd...].range(of: "<?") == nil else { throw .malformed("XML processing instructions") }
        return result
    }

    static func utf8Document(_ data: Data) throws(FeedError) -> Data {
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
        return Data(try withoutInstructions(text).utf8)
    }

    /// The two families: RSS (2.0, and 1.0 whose root is `rdf:RDF`) and Atom.
    enum Format { case rss, atom }

    static let atomNamespace = "http://www.w3.org/2005/Atom"
    static let rss1Namespace = "http://purl.org/rss/1.0/"
    static let mediaNamespace = "http://search.yahoo.com/mrss/"
    static let dublinCoreNamespace = "http://purl.org/dc/elements/1.1/"

    /// The deepest nesting read; real feeds stay under 10.
    static let maxDepth = 32
    /// The most UTF-8 bytes kept of one field's text.
    static let maxFieldBytes = 16 * 1024
}

extension SyndicationFeed {
    /// The parser's delegate: follows the open elements and collects one entry at a time.
    private final class Reader: NSObject, XMLParserDelegate {
        let feedURL: URL
        private(set) var format: Format?
        /// Why the document is refused, when it is.
        private(set) var refusal: String?
        /// Whether reading stopped at `FeedDocument.maxPosts`.
        private(set) var isFull = false
        private(set) var feedTitle: String?
        private(set) var posts: [Post] = []
        /// Whether every element opened was closed, by the same name.
        var isBalanced: Bool { path.isEmpty && !mismatched }
        private var mismatched = false

        private var seen = Set<String>()
        /// The local names of the open elements, the root first.
        private var path: [String] = []
        private var entry: Entry?
        private var capture: Capture?

        init(feedURL: URL) {
            self.feedURL = feedURL
        }

        /// An item's or entry's fields as written.
        struct Entry {
            let depth: Int
            var title: String?
            var titleIsHTML = false
            var link: String?
            var guid: String?
            var guidIsLink = true
            var author: String?
            var comments: String?
            var thumbnail: String?
        }

        enum Field { case feedTitle, title, link, guid, author, comments }

        /// The text being collected for a field, until the element opened at `depth` closes.
        struct Capture {
            let field: Field
            let depth: Int
            let isHTML: Bool
            var text = ""
        }

        // MARK: XMLParserDelegate

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            path.append(name)
            guard path.count <= maxDepth else { return refuse("XML nested too deeply", parser) }
            guard let format else { return readRoot(name, parser) }
            guard capture == nil else { return }  // markup inside a field (Atom's xhtml): its text counts
            let depth = path.count
            if entry == nil {
                if name == (format == .rss ? "item" : "entry"), isCore(namespaceURI) {
                    entry = Entry(depth: depth)
                } else if name == "title", isCore(namespaceURI), format == .atom ? depth == 2 : parent == "channel" {
                    capture = Capture(field: .feedTitle, depth: depth, isHTML: attributes["type"] == "html")
                }
                return
            }
            startField(name, namespaceURI: namespaceURI, attributes: attributes, format: format)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard var capture, capture.text.utf8.count < maxFieldBytes else { return }
            capture.text += string
            self.capture = capture
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard path.last == name else {
                mismatched = true
                return parser.abortParsing()
            }
            defer { path.removeLast() }
            if let capture, capture.depth == path.count {
                finish(capture)
                self.capture = nil
            }
            if let entry, entry.depth == path.count {
                self.entry = nil
                add(entry, parser)
            }
        }

        // MARK: Reading

        private var parent: String? { path.dropLast().last }

        /// Whether an element in `namespace` is one of the feed format's own.
        private func isCore(_ namespace: String?) -> Bool {
            switch format {
            case .atom: namespace == nil || namespace == "" || namespace == atomNamespace
            case .rss: namespace == nil || namespace == "" || namespace == rss1Namespace
            case nil: false
            }
        }

        private func readRoot(_ name: String, _ parser: XMLParser) {
            switch name {
            case "rss", "RDF": format = .rss
            case "feed": format = .atom
            case "html": refuse("a web page, not a feed", parser)
            default: refuse("XML, but not RSS or Atom: its root is <\(name.prefix(40))>", parser)
            }
        }

        /// Starts collecting an entry's field, or reads one held in attributes (links, images).
        private func startField(_ name: String, namespaceURI: String?, attributes: [String: String], format: Format) {
            guard var entry else { return }
            defer { self.entry = entry }
            let child = path.count == entry.depth + 1 && isCore(namespaceURI)
            func collect(_ field: Field, html: Bool = false) { capture = Capture(field: field, depth: path.count, isHTML: html) }
            switch (format, name) {
            case (_, "title") where child:
                entry.titleIsHTML = format == .atom && attributes["type"] == "html"
                collect(.title, html: entry.titleIsHTML)
            case (.rss, "link") where child: collect(.link)
            case (.rss, "guid") where child:
                entry.guidIsLink = attributes["isPermaLink"]?.lowercased() != "false"
                collect(.guid)
            case (.rss, "author") where child: collect(.author)
            case (.rss, "comments") where child: collect(.comments)
            case (.rss, "enclosure") where child && (attributes["type"] ?? "").hasPrefix("image/"):
                entry.thumbnail = entry.thumbnail ?? attributes["url"]
            case (.atom, "link") where child:
                if (attributes["rel"] ?? "alternate") == "alternate", entry.link == nil { entry.link = attributes["href"] }
            case (.atom, "id") where child:
                entry.guidIsLink = false
                collect(.guid)
            case (.atom, "name") where parent == "author" && path.count == entry.depth + 2: collect(.author)
            case (_, "creator") where namespaceURI == dublinCoreNamespace && entry.author == nil: collect(.author)
            case (_, "thumbnail") where namespaceURI == mediaNamespace:
                entry.thumbnail = entry.thumbnail ?? attributes["url"]
            case (_, "content") where namespaceURI == mediaNamespace
                && (attributes["medium"] == "image" || (attributes["type"] ?? "").hasPrefix("image/")):
                entry.thumbnail = entry.thumbnail ?? attributes["url"]
            default: break
            }
        }

        private func finish(_ capture: Capture) {
            let text = capture.text
            switch capture.field {
            case .feedTitle:
                let title = Self.plainText(text, isHTML: capture.isHTML).clipped(to: 100)
                feedTitle = title.isEmpty ? nil : title
            case .title: entry?.title = text
            case .link: entry?.link = text
            case .guid: entry?.guid = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case .author: if entry?.author == nil { entry?.author = text }
            case .comments: entry?.comments = text
            }
        }

        /// Adds the entry's post, when it has a title and a web link; stops at the most posts kept.
        private func add(_ entry: Entry, _ parser: XMLParser) {
            let title = Self.plainText(entry.title ?? "", isHTML: entry.titleIsHTML).clipped(to: FeedDocument.maxTitleLength)
            let link = entry.link.flatMap { Post.webURL($0, relativeTo: feedURL) }
                ?? (entry.guidIsLink ? entry.guid.flatMap { Post.webURL($0, relativeTo: feedURL) } : nil)
            guard !title.isEmpty, let link else { return }
            let id = [entry.guid, link.absoluteString].compactMap { $0 }.first { !$0.isEmpty && $0.count <= 500 }
            let post = Post(
                id: id ?? "entry-\(posts.count)", title: title, score: nil, url: link, domain: Self.siteName(of: link),
                permalink: entry.comments.flatMap { Post.webURL($0, relativeTo: feedURL) },
                author: entry.author.map(Self.authorName).flatMap { $0.isEmpty ? nil : $0.clipped(to: 100) },
                thumbnail: entry.thumbnail.flatMap { Post.webURL($0, relativeTo: feedURL) })
            guard seen.insert(post.id).inserted else { return }
            posts.append(post)
            if posts.count >= FeedDocument.maxPosts {
                isFull = true
                parser.abortParsing()
            }
        }

        private func refuse(_ reason: String, _ parser: XMLParser) {
            refusal = reason
            parser.abortParsing()
        }

        // MARK: Text

        /// Text as a reader sees it: tags removed from HTML, entities decoded, whitespace collapsed.
        static func plainText(_ text: String, isHTML: Bool) -> String {
            HTMLEntities.decode(isHTML ? withoutTags(text) : text).collapsingWhitespace
        }

        /// `html` without its tags (`<b>`, `</a>`, `<img src="…">`), each replaced by a space.
        static func withoutTags(_ html: String) -> String {
            var text = ""
            var inTag = false
            for character in html {
                switch character {
                case "<": inTag = true
                case ">" where inTag:
                    inTag = false
                    text.append(" ")
                default: if !inTag { text.append(character) }
                }
            }
            return text
        }

        /// "Jane Doe" from RSS's "jane@example.org (Jane Doe)"; other names as written.
        static func authorName(_ raw: String) -> String {
            let name = HTMLEntities.decode(raw).collapsingWhitespace
            guard name.hasSuffix(")"), let open = name.firstIndex(of: "("), name[..<open].contains("@") else { return name }
            return String(name[name.index(after: open)..<name.index(before: name.endIndex)]).collapsingWhitespace
        }

        /// The link's host without a leading `www.`, as the list names a site.
        static func siteName(of link: URL) -> String {
            let host = link.host ?? ""
            return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        }
    }
}
