import Foundation
import ParlorKit

/// The Icon Store: the seed's icon shop and its iMessage extension in one app.
///
/// - Home surface (the seed's original app): a grid of the catalog, featured icons first; an
///   icon's detail; Buy records the purchase in the user's container and the icon shows as owned.
/// - Message extension: a list of the icons; tapping one stages a message carrying it. Whoever taps
///   that message sees the icon's detail (expanded) and can buy it, or Like it: the like is sent at
///   once as a reply in the same session, so the transcript keeps one bubble for the icon.
///
/// Both surfaces read `IconCatalog` and the same `Purchases` in the user's container.
public struct IconStore: MessagesApp {
    /// The app, ready to be hosted.
    public init() {}

    /// Icon Store, with a home surface.
    public var manifest: AppManifest {
        AppManifest(
            id: "org.parlor.iconstore", name: "Icon Store", icon: .asset("iconstore.png"),
            summary: "Browse and buy icons, and share them in conversations.", hasHomeSurface: true, keepsData: true)
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
        /// Sessions whose icon this participant liked from this conversation.
        var likedSessions: Set<SessionID> = []
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
        /// Buy the icon.
        case buy(String)
        /// Like the icon of the selected message, replying in its session.
        case like
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
            state.owned = try await Purchases.record(try Self.icon(imageName), in: context.container)
        case .like:
            try await like(state: &state, context: context)
        }
    }

    /// Sends the like at once with `send`, not `insert`: a like is a one-tap answer (the Airbnb
    /// idea), and `send` is checked against the session's head when it is committed; when someone
    /// else answered first, the host re-runs this action on the new head, so no like is lost.
    /// A staged like would fail later, when the user presses send, and need a second try.
    private func like(state: inout State, context: AppContext) async throws {
        let conversation = context.conversation
        guard case .icon(let imageName) = state.detail, let selected = conversation.selectedMessage,
              let session = selected.session
        else {
            throw MessagesError(.actionRefused, "Open an icon someone shared to like it.")
        }
        let icon = try Self.icon(imageName)
        let like = try IconMessage(icon: icon, kind: .like).message(from: conversation.localParticipantIdentifier, in: session)
        try await conversation.send(like)
        state.likedSessions.insert(session.id)
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
        context.dismissModal()
    }

    /// Refuses messages the app would not make: see `IconMessage.validate(_:replacing:)`.
    public func validate(_ message: Message, replacing head: Message?) throws {
        try IconMessage.validate(message, replacing: head)
    }

    /// Presents the detail of a tapped message's icon, or why it cannot be shown.
    private func showDetail(of message: Message, state: inout State, context: AppContext) {
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
