import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ParlorInput
import ParlorKit
import ParlorStore

/// Link previews: the card of a web page a text links to (its title, description, image and site
/// name), fetched by the server from the page's Open Graph or Twitter card tags, as Messages,
/// Slack and Telegram show them.
///
/// Against abuse, as the image proxy: http(s) only; the host must resolve to public addresses only
/// (no loopback, private, link-local or multicast: a link cannot make the server reach its own
/// network), and the request goes to the address checked; each redirect (at most
/// `maxRedirects`) is checked again the same way; no cookie or header of the person is sent; at
/// most `maxPageBytes` are read, and the whole fetch (every redirect, the page's bytes) ends
/// within `deadline`, however slowly a server sends; only HTML pages are read. One person's fetches
/// are limited per minute; pages read lately, and pages that had no card, are answered from a
/// bounded cache without fetching or counting.
final class LinkPreviews: Sendable {
    static let maxURLLength = 2048
    static let maxPageBytes = 512 * 1024
    static let maxRedirects = 3
    static let cacheCapacity = 1024
    /// How long a card, or the reason there is none, is kept.
    static let cacheLifetime: Duration = .seconds(3600)
    static let failureLifetime: Duration = .seconds(300)

    let allowPrivateHosts: Bool
    /// The whole fetch, from the first address look-up to the last byte read.
    let deadline: Duration
    /// Each connection and each wait for an answer within it.
    var timeout: TimeAmount { TimeAmount(deadline) }
    /// Remote fetches per person per minute.
    let perPerson: RateLimiter
    let logger: Logger
    private let cache = Cache()

    init(configuration: ServerConfiguration, logger: Logger) {
        allowPrivateHosts = configuration.allowsPrivateHosts
        deadline = configuration.linkPreviewTimeout
        perPerson = RateLimiter(limit: configuration.linkPreviewsPerMinute, window: .seconds(60))
        self.logger = logger
    }

    private actor Cache {
        var entries = LRUCache<String, (outcome: Result<StoredLinkPreview, APIError>, until: ContinuousClock.Instant)>(
            capacity: LinkPreviews.cacheCapacity)

        func outcome(for url: String) -> Result<StoredLinkPreview, APIError>? {
            guard let entry = entries[url], entry.until > .now else { return nil }
            return entry.outcome
        }

        func keep(_ outcome: Result<StoredLinkPreview, APIError>, for url: String) {
            let lifetime = if case .success = outcome { LinkPreviews.cacheLifetime } else { LinkPreviews.failureLifetime }
            entries.set((outcome, .now + lifetime), for: url)
        }
    }

    /// `text` as a link a preview can be made for.
    /// - Throws: `invalidValue` past `maxURLLength` code points; `previewUnavailable` for anything
    ///   but an http or https address.
    static func link(_ text: String) throws -> URL {
        guard text.unicodeScalars.count <= maxURLLength else {
            throw APIError.invalid("A link preview is made for an address of at most \(maxURLLength) characters.")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { throw unavailable("A card is made for a web address (http or https) only.") }
        return url
    }

    /// The card of the page at `text`, from the cache or fetched (counted against `viewer`'s allowance).
    /// - Throws: `invalidValue`; `hostNotAllowed` (403) for a page on a private network;
    ///   `previewUnavailable` (404) when the page cannot be read or has no title;
    ///   `previewingTooFast` (429) past `linkPreviewsPerMinute`.
    func preview(of text: String, for viewer: UserID) async throws -> StoredLinkPreview {
        let url = try Self.link(text)
        if let cached = await cache.outcome(for: url.absoluteString) { return try cached.get() }
        if let wait = await perPerson.take(viewer.description) {
            throw APIError.tooMany(
                .previewingTooFast, "Link previews were asked for \(perPerson.limit) times in the last minute; try again in \(wait) seconds.",
                retryAfter: wait)
        }
        let outcome: Result<StoredLinkPreview, APIError>
        do {
            // AsyncHTTPClient's own timeouts end at the answer's head or between two reads: a page
            // sent a byte at a time would otherwise hold the fetch (and a send waiting for it) for days.
            outcome = .success(try await withDeadline(deadline) { try await self.fetch(url) })
        } catch let error as APIError {
            outcome = .failure(error)
        } catch {
            logger.notice("A link preview took too long", metadata: ["host": "\((url.host ?? "").prefix(100))", "limit": "\(deadline)"])
            outcome = .failure(Self.unavailable("The page at \((url.host ?? "").prefix(100)) did not load within \(deadline.components.seconds) seconds."))
        }
        await cache.keep(outcome, for: url.absoluteString)
        return try outcome.get()
    }

    /// Fetches the page, following at most `maxRedirects` redirects, each to a public host.
    private func fetch(_ link: URL) async throws -> StoredLinkPreview {
        var url = link
        for _ in 0...Self.maxRedirects {
            let host = url.host ?? ""
            let address: String
            do {
                address = try await PublicHosts.address(of: host, allowPrivate: allowPrivateHosts, for: .linkPreview)
            } catch let error as MessagesError where error.code == .hostNotAllowed {
                throw APIError(.forbidden, code: .hostNotAllowed, error.message)
            }
            let client = PublicHosts.client(connectingTo: address, for: host, connectTimeout: timeout, readTimeout: timeout)
            defer { client.shutdown { _ in } }
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "Accept", value: "text/html, application/xhtml+xml")
            request.headers.add(name: "User-Agent", value: "Parlor link preview (+https://github.com/parlor)")
            do {
                let response = try await client.execute(request, timeout: timeout)
                if (300..<400).contains(response.status.code) {
                    guard let location = response.headers.first(name: "location"), let next = URL(string: location, relativeTo: url)?.absoluteURL,
                          let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
                    else { throw Self.unavailable("The page at \(host.prefix(100)) moved, but not to a web address.") }
                    url = next
                    continue
                }
                guard response.status == .ok else { throw Self.unavailable("The page's server answered \(response.status.code).") }
                let type = response.headers.first(name: "content-type")?.lowercased() ?? ""
                guard type.contains("html") else { throw Self.unavailable("That address is not a web page.") }
                let html = try await Self.head(of: response.body, within: Self.maxPageBytes)
                guard let preview = LinkPreviewPage.preview(of: html, at: link, base: url) else {
                    throw Self.unavailable("That page has no title to show.")
                }
                return preview
            } catch let error as APIError {
                throw error
            } catch {
                logger.notice("A link preview could not be fetched", metadata: ["host": "\(host.prefix(100))", "error": "\(error)"])
                throw Self.unavailable("The page could not be fetched from \(host.prefix(100)).")
            }
        }
        throw Self.unavailable("The page redirects more than \(Self.maxRedirects) times.")
    }

    /// The page's bytes up to the end of its head, at most `limit` of them, as text. A `</head`
    /// or `<body` ends the reading only when it is markup (`LinkPreviewPage.headIsComplete`): one
    /// in a comment or a script, before the real tags, does not cut the card short.
    ///
    /// The head is parsed again at a marker only after `recheckEvery` more bytes arrived since the
    /// last parse, so a page that drips markers inside a script costs a few parses, not one per
    /// packet (the reading is then at most that much longer than needed).
    private static func head(of body: HTTPClientResponse.Body, within limit: Int) async throws -> String {
        var bytes: [UInt8] = []
        var parsedAt: Int?
        for try await chunk in body {
            bytes.append(contentsOf: chunk.readableBytesView.prefix(limit - bytes.count))
            if bytes.count >= limit { break }
            let recent = String(decoding: bytes.suffix(chunk.readableBytes + 6), as: UTF8.self).lowercased()
            guard recent.contains("</head") || recent.contains("<body"), bytes.count - (parsedAt ?? -recheckEvery) >= recheckEvery else { continue }
            parsedAt = bytes.count
            if LinkPreviewPage.headIsComplete(in: String(decoding: bytes, as: UTF8.self)) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How many bytes must arrive after a parse of the head before a marker makes another.
    static let recheckEvery = 32 * 1024

    static func unavailable(_ message: String) -> APIError {
        APIError(.notFound, code: .previewUnavailable, message)
    }
}
