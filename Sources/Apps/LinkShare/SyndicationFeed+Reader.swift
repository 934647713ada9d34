import Foundation
import ParlorKit
#if canImport(FoundationXML)
import FoundationXML
#endif

extension SyndicationFeed {
    /// The parser's delegate: follows the open elements and collects one entry at a time.
    final class Reader: NSObject, XMLParserDelegate {
        let feedURL: URL
        private(set) var format: Format?
        /// Why the document is refused, when it is.
        private(set) var refusal: String?
        /// Whether reading stopped at `FeedDocument.maxPosts`.
        private(set) var isFull = false
        private(set) var feedTitle: String?
        private(set) var posts: [Post] = []
        /// Whether `entries` keeps every entry read.
        let keepingEntries: Bool
        /// Every entry read, kept or not, when `keepingEntries`.
        private(set) var entries: [EntryText] = []
        /// Whether every element opened was closed, by the same name.
        var isBalanced: Bool { path.isEmpty && !mismatched }
        private var mismatched = false

        private var seen = Set<String>()
        /// The local names of the open elements, the root first.
        private var path: [String] = []
        private var entry: Entry?
        private var capture: Capture?

        init(feedURL: URL, keepingEntries: Bool) {
            self.feedURL = feedURL
            self.keepingEntries = keepingEntries
        }

        /// An item's or entry's fields as written.
        struct Entry {
            let depth: Int
            /// The titles written, by where they came from.
            var titles: [TitleSource: Written] = [:]
            /// RSS's `link` text, or Atom's alternate link.
            var link: String?
            /// An RSS item's link written as an attribute: `<link href="…"/>` or `<atom:link href="…"/>`.
            var linkAttribute: String?
            var guid: String?
            var guidLink = GuidLink.permalink
            var author: String?
            var comments: String?
            var thumbnail: String?
        }

        /// Where a title came from, in the order they are tried: the first not empty is shown.
        enum TitleSource: Int, CaseIterable { case own, dublinCore, media }

        /// Whether an RSS guid or Atom id is a link.
        enum GuidLink {
            /// RSS's default: a link, relative ones resolved against the feed.
            case permalink
            /// Only an absolute http(s) URL (Atom's id, which names the entry; feedparser also takes it).
            case absolute
            /// Not a link (`isPermaLink="false"`).
            case none
        }

        /// Text as written, and how to read it.
        struct Written {
            var text: String
            var type: FeedTextType
        }

        enum Field { case feedTitle, title(TitleSource), link, guid, author, comments }

        /// The text being collected for a field, until the element opened at `depth` closes.
        struct Capture {
            let field: Field
            let depth: Int
            let type: FeedTextType
            var text = ""
            /// The depth of the `script` or `style` element inside the field, whose text is not kept.
            var hiddenDepth: Int?
        }

        // MARK: XMLParserDelegate

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            path.append(name)
            guard path.count <= maxDepth else { return refuse("XML nested too deeply", parser) }
            guard let format else { return readRoot(name, parser) }
            if var capture {  // markup inside a field (Atom's xhtml): its text counts, but for scripts and styles
                if capture.hiddenDepth == nil, ["script", "style"].contains(name.lowercased()) {
                    capture.hiddenDepth = path.count
                    self.capture = capture
                }
                return
            }
            let depth = path.count
            if entry == nil {
                if name == (format == .rss ? "item" : "entry"), isCore(namespaceURI) {
                    entry = Entry(depth: depth)
                } else if name == "title", isCore(namespaceURI), format == .atom ? depth == 2 : parent == "channel" {
                    capture = Capture(field: .feedTitle, depth: depth, type: textType(attributes))
                }
                return
            }
            startField(name, namespaceURI: namespaceURI, attributes: attributes, format: format)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard var capture, capture.hiddenDepth == nil, capture.text.utf8.count < maxFieldBytes else { return }
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
            if var capture, capture.hiddenDepth == path.count {
                capture.hiddenDepth = nil
                self.capture = capture
            }
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
            guard let namespace, !namespace.isEmpty else { return format != nil }
            switch format {
            case .atom: return atomNamespaces.contains(namespace)
            case .rss: return rssNamespaces.contains(namespace)
            case nil: return false
            }
        }

        /// How the element with `attributes` writes its text: Atom says so; RSS's is text.
        private func textType(_ attributes: [String: String]) -> FeedTextType {
            format == .atom ? FeedTextType(type: attributes["type"], mode: attributes["mode"]) : .text
        }

        private func readRoot(_ name: String, _ parser: XMLParser) {
            switch name {
            case "rss", "RDF": format = .rss
            case "feed": format = .atom
            case "html": refuse(webPage, parser)
            default: refuse("XML, but not RSS or Atom: its root is <\(name.prefix(40))>", parser)
            }
        }

        /// Starts collecting an entry's field, or reads one held in attributes (links, images).
        private func startField(_ name: String, namespaceURI: String?, attributes: [String: String], format: Format) {
            guard var entry else { return }
            defer { self.entry = entry }
            let isChild = path.count == entry.depth + 1
            let child = isChild && isCore(namespaceURI)
            let isAlternate = (attributes["rel"] ?? "alternate") == "alternate"
            func collect(_ field: Field, _ type: FeedTextType = .text) { capture = Capture(field: field, depth: path.count, type: type) }
            switch (format, name) {
            case (_, "title") where child: collect(.title(.own), textType(attributes))
            case (_, "title") where isChild && namespaceURI == dublinCoreNamespace: collect(.title(.dublinCore))
            case (_, "title") where namespaceURI == mediaNamespace: collect(.title(.media), FeedTextType(type: attributes["type"]))
            case (.rss, "link") where child:
                if isAlternate, let href = attributes["href"] { entry.linkAttribute = entry.linkAttribute ?? href }
                collect(.link)
            case (.rss, "link") where isChild && atomNamespaces.contains(namespaceURI ?? ""):
                if isAlternate, let href = attributes["href"] { entry.linkAttribute = entry.linkAttribute ?? href }
            case (.rss, "guid") where child:
                entry.guidLink = attributes["isPermaLink"]?.lowercased() == "false" ? .none : .permalink
                collect(.guid)
            case (.rss, "author") where child: collect(.author)
            case (.rss, "comments") where child: collect(.comments)
            case (.rss, "enclosure") where child && (attributes["type"] ?? "").hasPrefix("image/"):
                entry.thumbnail = entry.thumbnail ?? attributes["url"]
            case (.atom, "link") where child:
                if isAlternate, entry.link == nil { entry.link = attributes["href"] }
            case (.atom, "id") where child:
                entry.guidLink = .absolute
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
                let title = FeedText.plain(text, as: capture.type).clipped(to: 100)
                feedTitle = title.isEmpty ? nil : title
            case .title(let source): if entry?.titles[source] == nil { entry?.titles[source] = Written(text: text, type: capture.type) }
            case .link: entry?.link = text
            case .guid: entry?.guid = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case .author: if entry?.author == nil { entry?.author = text }
            case .comments: entry?.comments = text
            }
        }

        /// Adds the entry's post, when it has a title and a web link; stops at the most posts kept.
        private func add(_ entry: Entry, _ parser: XMLParser) {
            let title = TitleSource.allCases.lazy.compactMap { entry.titles[$0] }
                .map { FeedText.plain($0.text, as: $0.type) }
                .first { !$0.isEmpty }?.clipped(to: FeedDocument.maxTitleLength) ?? ""
            let link = [entry.link, entry.linkAttribute].lazy.compactMap { $0.flatMap { Post.webURL($0, relativeTo: self.feedURL) } }.first
                ?? guidURL(of: entry)
            if keepingEntries { entries.append(EntryText(title: title, link: link)) }
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

        /// The entry's guid or id as a link, when it is one.
        private func guidURL(of entry: Entry) -> URL? {
            guard let guid = entry.guid else { return nil }
            switch entry.guidLink {
            case .permalink: return Post.webURL(guid, relativeTo: feedURL)
            case .absolute: return Post.webURL(guid)
            case .none: return nil
            }
        }

        private func refuse(_ reason: String, _ parser: XMLParser) {
            refusal = reason
            parser.abortParsing()
        }

        // MARK: Text

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
