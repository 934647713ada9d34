import Foundation
import ParlorKit

/// Shares posts from a Reddit feed: the app lists the feed's posts (title, score, site); tapping
/// one stages a message whose URL is the post's link; tapping that message opens the link in the
/// app's in-app web page, whether the app was closed or open in compact style.
///
/// The feed is a setting; the manifest lets the app reach the feed's host only.
///
/// ```swift
/// let app = LinkShare(feedURL: URL(string: "https://www.reddit.com/r/swift.json")!)
/// ```
public struct LinkShare: MessagesApp {
    /// r/programming, as in the seed tutorial.
    public static let defaultFeedURL = URL(string: "https://www.reddit.com/r/programming.json")!  // a literal: always parses

    /// The listing fetched (`https://www.reddit.com/r/<name>.json`, or any URL answering Reddit's listing format).
    public let feedURL: URL
    /// How long a fetch may take before the app shows a timeout.
    public let timeout: Duration

    public init(feedURL: URL = LinkShare.defaultFeedURL, timeout: Duration = .seconds(10)) {
        self.feedURL = feedURL
        self.timeout = timeout
    }

    public var manifest: AppManifest {
        AppManifest(
            id: "org.parlor.linkshare", name: "LinkShare", icon: Self.icon,
            summary: "Share links from a Reddit feed into the conversation.",
            allowedHosts: feedURL.host.map { [$0] } ?? [])
    }

    /// What one participant's LinkShare holds.
    public struct State: Codable, Sendable {
        /// The posts of the last successful load; kept when a later load fails.
        public var posts: [Post] = []
        /// Why the last load failed; nil once a load succeeds.
        public var error: FeedError?
        /// The link open in the in-app web page, if any.
        public var page: OpenPage?
    }

    /// A link shown in the in-app web page.
    public struct OpenPage: Codable, Sendable, Hashable {
        public var url: URL
        public var title: String
    }

    public enum Action: Codable, Sendable {
        /// Load the feed again (the Refresh and Retry buttons).
        case refresh
        /// Stage the post with this id as a message.
        case share(postID: String)
        /// Leave the web page for the list.
        case closePage
    }

    public var initialState: State { State() }

    var loader: FeedLoader { FeedLoader(feedURL: feedURL, timeout: timeout) }

    // MARK: Actions

    public func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .refresh:
            await reload(&state, context: context)
        case .share(let postID):
            guard let post = state.posts.first(where: { $0.id == postID }) else {
                throw MessagesError(.actionRefused, "That post is no longer in the list; refresh and pick it again.")
            }
            try await context.conversation.insert(post.message)
        case .closePage:
            state.page = nil
        }
    }

    /// Host-side check of every LinkShare message: it must carry a web link a viewer can open.
    public func validate(_ message: Message, replacing head: Message?) throws {
        guard let url = message.url, Post.webURL(url.absoluteString) != nil else {
            throw MessagesError(.actionRefused, "A LinkShare message must carry an http or https link.")
        }
    }

    // MARK: Lifecycle

    /// Opened by tapping a message while closed: show its link. Opened from the drawer: the list.
    public func willBecomeActive(state: inout State, context: AppContext) async throws {
        state.page = nil
        if let message = context.conversation.selectedMessage {
            state.page = try Self.page(for: message)
        }
    }

    public func didBecomeActive(state: inout State, context: AppContext) async throws {
        guard context.presentationStyle != .transcript else { return }
        await reload(&state, context: context)
    }

    /// A message tapped while the app is open (compact or expanded): show its link.
    public func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        state.page = try Self.page(for: message)
    }

    /// Collapsing to compact leaves the web page for the list.
    public func willTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws {
        if style == .compact { state.page = nil }
    }

    public func didResignActive(state: inout State, context: AppContext) async throws {
        state.page = nil
    }

    // MARK: Helpers

    /// Loads the feed: new posts and no error, or the error beside the posts already shown.
    private func reload(_ state: inout State, context: AppContext) async {
        do {
            state.posts = try await loader.load(context: context)
            state.error = nil
        } catch {
            state.error = error
        }
    }

    /// The page for a tapped message: its link, titled by its caption.
    /// - Throws: `.improperFileURL` when the message's URL is not a web link (a forged message).
    static func page(for message: Message) throws -> OpenPage {
        guard let raw = message.url, let url = Post.webURL(raw.absoluteString) else {
            throw MessagesError(.improperFileURL, "This message's link cannot be opened: it is not a web address.")
        }
        let caption = message.template?.caption ?? ""
        return OpenPage(url: url, title: caption.isEmpty ? (url.host ?? url.absoluteString) : caption)
    }

    /// The feed's name for the header: "r/programming", else the host.
    var feedTitle: String {
        let parts = feedURL.path.split(separator: "/").map(String.init)
        if let index = parts.firstIndex(of: "r"), index + 1 < parts.count {
            let name = parts[index + 1]
            return "r/" + (name.hasSuffix(".json") ? String(name.dropLast(5)) : name)
        }
        return feedURL.host ?? "Feed"
    }

    static let icon = ImageSource.svg(
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#ff4500"/><path d="M26 38l12-12M22 30l-4 4a7 7 0 0 0 10 10l4-4M42 34l4-4a7 7 0 0 0-10-10l-4 4" stroke="#fff" stroke-width="5" fill="none" stroke-linecap="round"/></svg>"##)
}
