import Foundation

/// How a feed wrote a title: the kinds of text RSS and Atom have, told from Atom's `type`
/// attribute (and Atom 0.3's `mode`).
///
/// Atom 1.0 names `text`, `html` and `xhtml`; Atom 0.3 and Media RSS name media types
/// (`text/html`) or `plain`. RSS has no attribute: its titles are `.text`, read with their entities
/// decoded, as feeds often escape them twice.
enum FeedTextType: Hashable, Sendable {
    /// Text: character references decoded, so a title escaped twice (`AT&amp;amp;T`) reads right.
    case text
    /// Escaped HTML (`&lt;b&gt;Bold&lt;/b&gt;`): read as HTML, its markup removed.
    case html
    /// Markup as child elements (Atom's `xhtml`, or an XML media type): the text of the elements.
    case markup
    /// Text taken as it is, no references decoded: what base64 decodes to (unless it is HTML), as
    /// no XML escaping was involved.
    case literal
    /// Base64 (Atom 0.3's `mode="base64"`, or Atom's rule for a media type that is neither text nor
    /// XML, such as `application/octet-stream`): decoded, then read as `decoded` (`.html` or
    /// `.literal`). The decision for such titles: shown when they are valid base64 of UTF-8 text
    /// without control characters, as feedparser shows them; otherwise the title is empty and the
    /// entry is skipped, as one without a title, rather than showing base64 or bytes.
    indirect case base64(decoded: FeedTextType)

    /// The type that `type` and `mode` (Atom 0.3) name; `.text` for nil, empty or unknown names.
    init(type: String?, mode: String? = nil) {
        let name = (type ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let named: FeedTextType
        switch name {
        case "", "text", "plain", "text/plain": named = .text
        case "html", "text/html": named = .html
        case "xhtml", "application/xhtml+xml": named = mode?.lowercased() == "escaped" ? .html : .markup
        case _ where name.hasPrefix("text/"): named = .text
        case _ where name.hasSuffix("+xml") || name.hasSuffix("/xml"): named = mode?.lowercased() == "escaped" ? .text : .markup
        case _ where name.contains("/"): named = .base64(decoded: .literal)
        default: named = .text
        }
        self = mode?.lowercased() == "base64" ? .base64(decoded: named.decoded) : named
    }

    /// The type of the text base64 stands for: HTML, else literal text (no XML escaping is
    /// involved, so no references are read in it).
    private var decoded: FeedTextType {
        if case .base64(let inner) = self { return inner }
        return self == .html ? .html : .literal
    }
}
