import Foundation
import ParlorKit

/// Fetches the feed through the app's context and reads it, turning every way that can fail
/// into a `FeedError` a person can act on.
struct FeedLoader: Sendable {
    let feedURL: URL
    let timeout: Duration

    /// The host named in messages ("www.reddit.com").
    var host: String { feedURL.host ?? feedURL.absoluteString }

    /// The feed: its title and posts.
    /// - Throws: `FeedError` for a network failure, a timeout, a status other than 200 or a body
    ///   that is not a Reddit listing, RSS or Atom.
    func load(context: AppContext) async throws(FeedError) -> FeedDocument {
        let response = try await fetch(context: context)
        guard response.status == 200 else { throw .badStatus(response.status, host: host) }
        return try FeedDocument.read(response.body, feedURL: feedURL)
    }

    /// The answer, within `timeout` whatever the host's HTTP client does with its own timeout.
    private func fetch(context: AppContext) async throws(FeedError) -> FetchResponse {
        // The app keeps its own deadline. The client's comes later, in whole seconds: URLSession on
        // Linux truncates sub-second timeouts and may fire a millisecond early.
        let request = FetchRequest(url: feedURL, headers: ["Accept": Self.accept], timeout: timeout.clientTimeout)
        let started = ContinuousClock.now
        do {
            return try await Deadline.first(of: { try await context.fetch(request) }, orAfter: timeout)
        } catch let error as MessagesError where error.code == .hostNotAllowed {
            throw FeedError(.unreachable, error.message)
        } catch where error is Deadline.Passed || ContinuousClock.now - started >= timeout {
            throw .timedOut(host, after: timeout)
        } catch {
            throw .unreachable(host)
        }
    }
}

extension FeedLoader {
    /// The formats asked for, the ones LinkShare reads first.
    static let accept = "application/json, application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5"
}

extension Duration {
    /// The timeout given to the host's HTTP client: whole seconds, at least one second past this one.
    var clientTimeout: Duration {
        let (seconds, attoseconds) = components
        return .seconds(max(0, seconds) + (attoseconds > 0 ? 2 : 1))
    }
}
