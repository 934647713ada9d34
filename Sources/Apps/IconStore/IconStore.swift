import Foundation
import ParlorKit

/// The Icon Store: the seed's icon shop and its iMessage extension in one app.
///
/// - Home surface (the seed's original app): a grid of the catalog, featured icons first; an
///   icon's detail; Buy asks to confirm, as stores do, then records the purchase in the user's
///   container and the icon shows as owned.
/// - Message extension: a list of the icons; tapping one stages a message carrying it. Whoever taps
///   that message sees the icon's detail (expanded) and can buy it, or Like it (and Unlike it): the
///   like is sent at once as a reply in the same session that still shows the icon in full, with
///   who likes it, so the transcript keeps one bubble for the icon.
///
/// Both surfaces read `IconCatalog` and the same `Purchases` in the user's container.
public struct IconStore: MessagesApp {
    /// The app, ready to be hosted.
    public init() {}

    /// Icon Store, with a home surface.
    public var manifest: AppManifest {
        AppManifest(
            id: "org.parlor.iconstore", name: "Icon Store", icon: .asset("iconstore.png"),
            summary: "Browse and buy icons, and share them in conversations.", hasHomeSurface: true, keepsData: true,
            answersSessions: true)
    }

    /// The bundled `Assets` folder holding the icons' PNG files (made by `tools/generate_icons.py`).
    public var assetsDirectory: URL? { Bundle.module.url(forResource: "Assets", withExtension: nil) }

    /// The name of the modal screen showing an icon's detail (the seed's `IconDetail` segue).
    public static let detailModal = "IconDetail"

    /// One participant's view of the store.
    public struct State: Codable, Sendable {
        /// What the detail screen shows.
        var detail: Detail?
        /// Image names of the icons this user owns, as last read from the container.
        var owned: Set<String> = []
        /// Whether this participant likes the icon of a session, as they last set it here (the
        /// tapped message may be older than their last like).
        var likes: [SessionID: Bool] = [:]
        /// The icon whose purchase waits for the person's confirmation.
        var confirming: String?
    }

    /// The content of the detail screen.
    enum Detail: Codable, Sendable, Hashable {
        /// The icon with this image name.
        case icon(String)
        /// A tapped message that could not be shown, and why.
        case unavailable(String)
    }

    /// What the store's controls do.
    public enum Action: Codable, Sendable {
        /// Stage a message sharing the icon (a row of the extension's list).
        case share(String)
        /// Show the icon's detail (a cell of the home grid).
        case show(String)
        /// Buy the icon: asks to confirm first.
        case buy(String)
        /// Confirm the purchase Buy asked about.
        case confirmPurchase(String)
        /// Do not buy after all.
        case cancelPurchase
        /// Like the icon of the selected message, replying in its session.
        case like
        /// Take the like back.
        case unlike
    }

    /// Nothing shown, nothing owned: the container is read when the app opens.
    public var initialState: State { State() }

    // MARK: Actions

    /// Shares, shows, buys or likes an icon.
    /// - Throws: `.actionRefused` for an icon the store does not sell, or Like without a shared icon;
    ///   the container's and the conversation's errors (a like's `.sessionConflict` makes the host re-run it).
    public func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .share(let imageName):
            let icon = try Self.icon(imageName)
            try context.requestPresentationStyle(.compact)
            let message = try IconMessage(icon: icon, kind: .share)
                .message(from: context.conversation.localParticipantIdentifier, in: Session())
            try await context.conversation.insert(message)
        case .show(let imageName):
            state.detail = .icon(try Self.icon(imageName).imageName)
            context.present(modal: Self.detailModal)
        case .buy(let imageName):
            state.confirming = try Self.icon(imageName).imageName
        case .confirmPurchase(let imageName):
            guard state.confirming == imageName else { return }
            state.owned = try await Purchases.record(try Self.icon(imageName), in: context.container)
            state.confirming = nil
        case .cancelPurchase:
            state.confirming = nil
        case .like:
            try await setLike(true, state: &state, context: context)
        case .unlike:
            try await setLike(false, state: &state, context: context)
        }
    }

    /// Sends the like at once with `send`, not `insert`: a like is a one-tap answer (the Airbnb
    /// idea), and `send` is checked against the session's head when it is committed; when someone
    /// else answered first, the host re-runs this action on the new head, so no like is lost.
    /// A staged like would fail later, when the user presses send, and need a second try.
    /// The reply is computed from the selected message, the head it replaces: on a re-run it is
    /// the newer head, so likes sent at once all count. Liking twice (or unliking what is not
    /// liked) sends nothing.
    private func setLike(_ liking: Bool, state: inout State, context: AppContext) async throws {
        let conversation = context.conversation
        guard case .icon = state.detail, let selected = conversation.selectedMessage, let session = selected.session else {
            throw MessagesError(.actionRefused, "Open an icon someone shared to like it.")
        }
        let current = try IconMessage(url: selected.url)
        let me = conversation.localParticipantIdentifier
        // The selected message can be older than this person's own last like (the selection stays
        // on the message they tapped): when it says there is nothing to change but they did the
        // opposite since, send anyway; it meets the newer head and the host re-runs this on it.
        let stale = state.likes[session.id] == !liking
        let reply = current.reply(by: me, liking: liking)
            ?? (stale ? IconMessage(icon: current.icon, kind: liking ? .like : .unlike, likedBy: current.likedBy) : nil)
        if let reply {
            try await conversation.send(try reply.message(from: me, in: session))
        }
        state.likes[session.id] = liking
    }

    // MARK: Lifecycle (the seed's two paths to the detail)

    /// The recipient tapped a message while the extension was closed: it opens expanded with the
    /// message selected, and shows the icon's detail. Opened compact from the drawer: no detail.
    public func willBecomeActive(state: inout State, context: AppContext) async throws {
        state.owned = try await Purchases.owned(in: context.container)
        guard context.surface == .messages, context.presentationStyle == .expanded,
              let selected = context.conversation.selectedMessage
        else {
            state.detail = nil
            state.confirming = nil
            context.dismissModal()
            return
        }
        showDetail(of: selected, state: &state, context: context)
    }

    /// A message was tapped while the extension was open: show its icon.
    public func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        state.owned = try await Purchases.owned(in: context.container)
        showDetail(of: message, state: &state, context: context)
    }

    /// Back to compact dismisses the detail, as in the seed.
    public func willTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws {
        state.owned = try await Purchases.owned(in: context.container)
        guard style == .compact else { return }
        state.detail = nil
        state.confirming = nil
        context.dismissModal()
    }

    /// Refuses messages the app would not make: see `IconMessage.validate(_:replacing:)`.
    public func validate(_ message: Message, replacing head: Message?) throws {
        try IconMessage.validate(message, replacing: head)
    }

    /// Presents the detail of a tapped message's icon, or why it cannot be shown.
    private func showDetail(of message: Message, state: inout State, context: AppContext) {
        state.confirming = nil
        do {
            state.detail = .icon(try IconMessage(url: message.url).icon.imageName)
        } catch {
            state.detail = .unavailable(error.message)
        }
        context.present(modal: Self.detailModal)
    }

    static func icon(_ imageName: String) throws(MessagesError) -> Icon {
        guard let icon = IconCatalog.icon(imageName: imageName) else {
            throw MessagesError(.actionRefused, "The Icon Store has no such icon.")
        }
        return icon
    }
}
