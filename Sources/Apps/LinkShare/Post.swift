import Foundation
import ParlorKit

/// One post of a feed (a Reddit post, an RSS item, an Atom entry), as LinkShare lists and shares
/// it. Made by `FeedDocument.read(_:feedURL:)`, which has already decoded its text and checked its link.
public struct Post: Sendable, Hashable, Codable, Identifiable {
    /// Reddit's fullname (`t3_abc123`), an RSS guid or Atom id, else the link.
    public var id: String
    public var title: String
    /// Reddit's score; nil for RSS and Atom, which have none.
    public var score: Int?
    /// The linked page: `http` or `https`, at most `Limits.maxURLLength` characters.
    public var url: URL
    /// The linked site as Reddit names it (`github.com`, `self.programming`), else the link's host.
    public var domain: String
    /// The post's comments page on Reddit, or an RSS item's comments page.
    public var permalink: URL?
    public var author: String?
    public var commentCount: Int?
    /// A small preview image, when the feed has one.
    public var thumbnail: URL?

    public init(
        id: String, title: String, score: Int?, url: URL, domain: String, permalink: URL? = nil,
        author: String? = nil, commentCount: Int? = nil, thumbnail: URL? = nil
    ) {
        self.id = id
        self.title = title
        self.score = score
        self.url = url
        self.domain = domain
        self.permalink = permalink
        self.author = author
        self.commentCount = commentCount
        self.thumbnail = thumbnail
    }

    /// "score: 1234", as the list and the bubble show it; nil without a score.
    public var scoreText: String? { score.map { "score: \($0)" } }

    /// What a screen reader says for the post's row: title, score (when there is one) and site.
    public var rowLabel: String { [title, score.map { "score \($0)" }, domain].compactMap { $0 }.joined(separator: ", ") }

    /// "by spez · 12 comments", or nil when the feed gave neither.
    public var byline: String? {
        let parts = [
            author.map { "by \($0)" },
            commentCount.map { $0 == 1 ? "1 comment" : "\($0) comments" },
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The message that shares this post: caption the title, subcaption the score (if any), trailing
    /// subcaption the site, and the post's link as the message URL, so a viewer without
    /// LinkShare can still open it.
    public var message: Message {
        let title = title.clipped(to: Limits.maxCaptionLength)
        let layout = TemplateLayout(
            caption: title, subcaption: scoreText, trailingSubcaption: domain.clipped(to: Limits.maxCaptionLength))
        let lead = "Link from \(domain.clipped(to: 100)): "
        let tail = score.map { ". Score \($0)." } ?? "."
        let spoken = lead + self.title.clipped(to: Limits.maxAccessibilityLabelLength - lead.count - tail.count) + tail
        return Message(
            url: url, layout: .template(layout),
            summaryText: "Shared “\(self.title.clipped(to: Limits.maxCaptionLength - 9))”",
            accessibilityLabel: spoken)
    }

    /// `raw` as a link LinkShare shares and opens: HTML entities decoded as in an attribute (a
    /// query's `&region=eu` stays a parameter, not `®ion=eu`), resolved against
    /// `base` when relative, `http` or `https` with a host, and short enough for a message URL.
    /// Nil for anything else (`javascript:`, `mailto:`, a 6,000-character URL, not a URL at all).
    public static func webURL(_ raw: String, relativeTo base: URL? = nil) -> URL? {
        let text = HTMLEntities.decode(attributeValue: raw).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= Limits.maxURLLength,
              let url = URL(string: text, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { return nil }
        do {
            try Message.validateURL(url)
        } catch {
            return nil
        }
        return url
    }
}

extension String {
    /// The string, cut to at most `limit` characters with a trailing "…" when it was longer.
    func clipped(to limit: Int) -> String {
        guard count > limit else { return self }
        guard limit > 1 else { return String(prefix(max(limit, 0))) }
        return String(prefix(limit - 1)) + "…"
    }

    /// The string with runs of whitespace and newlines made one space, trimmed.
    var collapsingWhitespace: String {
        split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }
}
