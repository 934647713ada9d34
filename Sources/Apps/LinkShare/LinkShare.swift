import Foundation
import ParlorKit

/// Shares posts from a feed: the app lists the feed's posts (title, score, site); tapping one
/// stages a message whose URL is the post's link; tapping that message opens the link in the app's
/// in-app web page, whether the app was closed or open in compact style.
///
/// The feed is a Reddit listing, RSS or Atom (`FeedDocument`). The server's operator sets the
/// default (`parlor serve --feed-url`); each person may choose another (a subreddit name or a
/// feed's address), which the app keeps in their container, so it is remembered across
/// conversations and after closing the app. Because people choose, the manifest allows any host
/// (`FeedAddress` refuses local and private addresses other than the default's).
///
/// ```swift
/// let app = LinkShare(feedURL: URL(string: "https://www.reddit.com/r/swift.json")!)
/// ```
public struct LinkShare: MessagesApp {
    /// r/programming, as in the seed tutorial.
    public static let defaultFeedURL = URL(string: "https://www.reddit.com/r/programming.json")!  // a literal: always parses

    /// The server's default feed (`https://www.reddit.com/r/<name>.json`, or any RSS, Atom or Reddit feed).
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
            summary: "Share links from a Reddit, RSS or Atom feed into the conversation.",
            // Any feed a person chooses (on public addresses: Parlor refuses private ones), and the
            // server's default feed wherever the operator put it.
            allowedHosts: [AppManifest.anyHost] + (feedURL.host.map { [$0] } ?? []), keepsData: true)
    }

    /// What one participant's LinkShare holds.
    public struct State: Codable, Sendable {
        /// The posts of the last successful load of the feed shown; kept when a later load fails.
        public var posts: [Post] = []
        /// Why the last load failed; nil once a load succeeds.
        public var error: FeedError?
        /// How many loads in a row have failed, so a Retry that fails again visibly counts.
        public var failures = 0
        /// The link open in the in-app web page, if any.
        public var page: OpenPage?
        /// The feed this person chose (kept in their container); nil for the server's default.
        public var chosenFeed: URL?
        /// The title of the feed shown, when the feed names itself (RSS and Atom do).
        public var feedTitle: String?
        /// Whether the feed chooser is open.
        public var isChoosingFeed = false
        /// The text in the Feed field.
        public var draft = ""
        /// Why the typed feed was not taken, or why the chosen one could not be kept or read.
        public var notice: String?

        public init() {}

        private enum CodingKeys: String, CodingKey {
            case posts, error, failures, page, chosenFeed, feedTitle, isChoosingFeed, draft, notice
        }

        /// Decodes a snapshot, taking the fields added since older snapshots as missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            posts = try container.decodeIfPresent([Post].self, forKey: .posts) ?? []
            error = try container.decodeIfPresent(FeedError.self, forKey: .error)
            failures = try container.decodeIfPresent(Int.self, forKey: .failures) ?? 0
            page = try container.decodeIfPresent(OpenPage.self, forKey: .page)
            chosenFeed = try container.decodeIfPresent(URL.self, forKey: .chosenFeed)
            feedTitle = try container.decodeIfPresent(String.self, forKey: .feedTitle)
            isChoosingFeed = try container.decodeIfPresent(Bool.self, forKey: .isChoosingFeed) ?? false
            draft = try container.decodeIfPresent(String.self, forKey: .draft) ?? ""
            notice = try container.decodeIfPresent(String.self, forKey: .notice)
        }
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
        /// Open the feed chooser (the Choose feed button).
        case chooseFeed
        /// The Feed field's text changed.
        case editFeed(String)
        /// Show the feed typed in the Feed field (Return in the field).
        case useFeed(String)
        /// Show the feed typed in the Feed field (the Show feed button).
        case useTypedFeed
        /// Forget the chosen feed and show the server's default.
        case useDefaultFeed
        /// Close the feed chooser without changing the feed.
        case closeChooser
    }

    public var initialState: State { State() }

    /// The feed shown: the one chosen, else the server's default.
    func feed(_ state: State) -> URL { state.chosenFeed ?? feedURL }

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
        case .chooseFeed:
            state.isChoosingFeed = true
            state.draft = state.chosenFeed.map(\.absoluteString) ?? ""
            state.notice = nil
        case .editFeed(let text):
            state.draft = String(text.prefix(FeedAddress.maxInputLength))
        case .useFeed(let text):
            state.draft = String(text.prefix(FeedAddress.maxInputLength))
            await choose(state.draft, state: &state, context: context)
        case .useTypedFeed:
            await choose(state.draft, state: &state, context: context)
        case .useDefaultFeed:
            await useDefaultFeed(&state, context: context)
        case .closeChooser:
            state.isChoosingFeed = false
            state.notice = nil
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

    /// Reads the person's chosen feed (it may have changed in another conversation), then loads it.
    public func didBecomeActive(state: inout State, context: AppContext) async throws {
        guard context.presentationStyle != .transcript else { return }
        await readChosenFeed(&state, context: context)
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

    /// Loads the feed shown: new posts and no error, or the error beside the posts already shown.
    func reload(_ state: inout State, context: AppContext) async {
        let loader = FeedLoader(feedURL: feed(state), timeout: timeout)
        do {
            let document = try await loader.load(context: context)
            state.posts = document.posts
            state.feedTitle = document.title
            state.error = nil
            state.failures = 0
        } catch {
            state.error = error
            state.failures += 1
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

    /// The feed's name for the header: its own title, else "r/programming", else its host and path.
    func title(_ state: State) -> String {
        state.feedTitle ?? FeedAddress.name(of: feed(state))
    }

    static let icon = ImageSource.svg(
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#ff4500"/><path d="M26 38l12-12M22 30l-4 4a7 7 0 0 0 10 10l4-4M42 34l4-4a7 7 0 0 0-10-10l-4 4" stroke="#fff" stroke-width="5" fill="none" stroke-linecap="round"/></svg>"##)
}
