import Foundation
import ParlorKit

/// Reads Reddit's listing format (`{"kind": "Listing", "data": {"children": [{"kind": "t3",
/// "data": {…}}]}}`) into posts. Pure: no I/O.
///
/// Lenient where a reader would be: optional fields may be missing or of another type, entries
/// that are not posts (`kind` other than `t3`: comments, ads, "more") and posts without a title
/// or a usable web link are skipped, duplicates are dropped. Text is HTML-entity decoded. Only a
/// body that is not a listing at all is an error. It never traps, whatever the input.
///
/// ```swift
/// let posts = try RedditListing.posts(from: response.body, feedURL: feedURL)
/// ```
public enum RedditListing {
    /// The posts of the listing in `data`, in listing order.
    /// - Parameter feedURL: where the listing came from; relative links resolve against it.
    /// - Throws: `FeedError(.malformed)` when `data` is not JSON or has no `data.children` array.
    ///   `FeedDocument.read(_:feedURL:)` reads any supported format; this one reads Reddit's only.
    public static func posts(from data: Data, feedURL: URL) throws(FeedError) -> [Post] {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
        } catch DecodingError.dataCorrupted {
            throw .malformed("broken JSON")
        } catch {
            throw .malformed("JSON, but not a Reddit listing")
        }
        var seen = Set<String>()
        return envelope.data.children.compactMap { child in
            guard child.kind == "t3", let post = child.data.flatMap({ $0.post(relativeTo: feedURL) }) else { return nil }
            return seen.insert(post.id).inserted ? post : nil
        }
    }

    // MARK: The JSON shape

    private struct Envelope: Decodable {
        let data: Body
    }

    private struct Body: Decodable {
        let children: [Child]
    }

    /// One entry; decoding it never fails, so one odd entry cannot spoil the listing.
    private struct Child: Decodable {
        let kind: String?
        let data: RawPost?

        private enum CodingKeys: String, CodingKey { case kind, data }

        init(from decoder: any Decoder) {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            kind = container.flatMap { try? $0.decode(String.self, forKey: .kind) }
            data = container.flatMap { try? $0.decode(RawPost.self, forKey: .data) }
        }
    }

    /// A post's fields as Reddit sends them, each optional and read leniently.
    private struct RawPost: Decodable {
        var name, id, title, url, domain, permalink, author, thumbnail: String?
        var score, numComments: Int?

        private enum CodingKeys: String, CodingKey {
            case name, id, title, url, domain, permalink, author, thumbnail, score
            case numComments = "num_comments"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) -> String? { try? container.decodeIfPresent(String.self, forKey: key) }
            func number(_ key: CodingKeys) -> Int? {
                if let value = try? container.decodeIfPresent(Int.self, forKey: key) { return value }
                guard let value = try? container.decodeIfPresent(Double.self, forKey: key),
                      value.isFinite, abs(value) < 1e15 else { return nil }
                return Int(value.rounded())
            }
            name = text(.name)
            id = text(.id)
            title = text(.title)
            url = text(.url)
            domain = text(.domain)
            permalink = text(.permalink)
            author = text(.author)
            thumbnail = text(.thumbnail)
            score = number(.score)
            numComments = number(.numComments)
        }

        /// The post a reader would see, or nil when it has no title or no web link to share.
        func post(relativeTo feedURL: URL) -> Post? {
            let title = HTMLEntities.decode(title ?? "").collapsingWhitespace
            guard !title.isEmpty, let link = url.flatMap({ Post.webURL($0, relativeTo: feedURL) }) else { return nil }
            let domain = HTMLEntities.decode(domain ?? "").collapsingWhitespace
            let author = author.map { HTMLEntities.decode($0).collapsingWhitespace }.flatMap { $0.isEmpty ? nil : $0 }
            return Post(
                id: [name, id].compactMap { $0 }.first { !$0.isEmpty } ?? link.absoluteString,
                title: title,
                score: score ?? 0,
                url: link,
                domain: domain.isEmpty ? (link.host ?? "") : domain,
                permalink: permalink.flatMap { Post.webURL($0, relativeTo: feedURL) },
                author: author,
                commentCount: numComments.map { max($0, 0) },
                // "self", "default", "nsfw", "spoiler" and "" are placeholders, not images.
                thumbnail: thumbnail.flatMap { Post.webURL($0) })
        }
    }
}
