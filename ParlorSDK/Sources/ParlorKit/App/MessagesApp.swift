import Foundation
import Synchronization

/// A message app: a value with a manifest, a per-participant `State`, lifecycle hooks, action
/// handling, and `body`, the view as a pure function of the state.
///
/// Every hook has a no-op default, so an app implements only what it needs. Hooks and actions
/// change `state` in place and cause effects through `context` (stage or send a message, request a
/// presentation style, dismiss, present a modal screen, read the container, fetch over HTTP).
///
/// ```swift
/// struct Wave: MessagesApp {
///     var manifest: AppManifest { AppManifest(id: "org.example.wave", name: "Wave", icon: .asset("wave.png")) }
///     struct State: Codable, Sendable { var received: String? }
///     enum Action: Codable, Sendable { case wave }
///     var initialState: State { State() }
///
///     func body(state: State, environment: ViewEnvironment) -> ViewNode {
///         if let received = state.received { Text(received, style: .title) }
///         Button("Wave", action: Action.wave)
///     }
///     func handle(_ action: Action, state: inout State, context: AppContext) async throws {
///         let url = try QueryItems(["text": "👋"]).url(base: "https://example.org/wave")
///         try await context.conversation.insert(Message(url: url, layout: .template(TemplateLayout(caption: "👋"))))
///     }
///     func willBecomeActive(state: inout State, context: AppContext) async throws {
///         state.received = context.conversation.selectedMessage.flatMap { try? QueryItems(url: $0.url!)["text"] }
///     }
/// }
/// ```
public protocol MessagesApp: Sendable {
    /// The app's per-participant state: persisted by the host between events.
    associatedtype State: Codable & Sendable
    /// What the app's controls send back.
    associatedtype Action: Codable & Sendable

    /// What the host needs to know about the app: its id, name, icon and what it may do.
    var manifest: AppManifest { get }
    /// The state of a new instance.
    var initialState: State { get }
    /// The folder of files that `ImageSource.asset(_:)` names, if the app has one.
    var assetsDirectory: URL? { get }

    /// The view, from the state and the environment only.
    /// - Parameters:
    ///   - state: the app's current state.
    ///   - environment: how and where the app is shown, and who is viewing.
    /// - Returns: the view tree the host draws.
    @ViewBuilder func body(state: State, environment: ViewEnvironment) -> ViewNode

    /// Handles a control's action.
    /// - Parameters:
    ///   - action: the action the control was built with.
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func handle(_ action: Action, state: inout State, context: AppContext) async throws

    /// Checks one of this app's messages before the host commits it, on the host, for every
    /// sender: a client cannot bypass it. `head` is the message it replaces in its session (nil
    /// when it starts a session). `message.senderParticipantIdentifier` is set by the host and can
    /// be trusted. Throw `MessagesError(.actionRefused)` to refuse a forged or illegal message
    /// (a board that changes two cells, a vote counted twice). The default accepts every message.
    /// - Parameters:
    ///   - message: the message about to be committed.
    ///   - head: the session head it replaces, or nil.
    /// - Throws: a `MessagesError` to refuse the message.
    func validate(_ message: Message, replacing head: Message?) throws

    /// Re-applies a message to a newer session head. Called when a person sends a message the app
    /// staged (`insert`) from one head, after someone else replaced that head: return the message
    /// to send instead (this person's change applied on top of `head`), or nil to refuse the send
    /// with `.sessionConflict` and leave the message staged (the default). The result is then
    /// checked by `validate` like any message. `message.senderParticipantIdentifier` is set by the
    /// host. A pure function: no state, no effects. `SharedState.rebase` writes it for
    /// apps whose messages carry one entry per person (polls, RSVPs).
    ///
    /// Actions are re-run instead: a message sent with `context.conversation.send` that meets a
    /// newer head makes the host run the same action again with the new head as
    /// `selectedMessage`.
    /// - Parameters:
    ///   - message: the staged message the person sent.
    ///   - head: the session's newer head.
    /// - Returns: the message to send instead, or nil to refuse.
    func rebase(_ message: Message, onto head: Message) throws -> Message?

    /// The app is about to become active: opened from the drawer, from a tapped message, or drawn
    /// inside a message bubble (transcript style).
    /// - Parameters:
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func willBecomeActive(state: inout State, context: AppContext) async throws
    /// The app became active; called right after `willBecomeActive(state:context:)`.
    /// - Parameters:
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func didBecomeActive(state: inout State, context: AppContext) async throws
    /// The app is about to close.
    /// - Parameters:
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func willResignActive(state: inout State, context: AppContext) async throws
    /// The app closed; called right after `willResignActive(state:context:)`.
    /// - Parameters:
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func didResignActive(state: inout State, context: AppContext) async throws
    /// The user tapped one of this app's messages while the app was active;
    /// `context.conversation.selectedMessage` is still the previous one.
    /// - Parameters:
    ///   - message: the message tapped.
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func willSelect(_ message: Message, state: inout State, context: AppContext) async throws
    /// The user tapped one of this app's messages while the app was active;
    /// `context.conversation.selectedMessage` is now that message.
    /// - Parameters:
    ///   - message: the message tapped.
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func didSelect(_ message: Message, state: inout State, context: AppContext) async throws
    /// A message from this app arrived while the app was active.
    /// - Parameters:
    ///   - message: the message that arrived.
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func didReceive(_ message: Message, state: inout State, context: AppContext) async throws
    /// The user sent the staged message (delivery is not guaranteed yet).
    /// - Parameters:
    ///   - message: the message sent.
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func didStartSending(_ message: Message, state: inout State, context: AppContext) async throws
    /// The user removed the staged message.
    /// - Parameters:
    ///   - message: the message removed.
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func didCancelSending(_ message: Message, state: inout State, context: AppContext) async throws
    /// The presentation style is about to change to `style`.
    /// - Parameters:
    ///   - style: the new style.
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func willTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws
    /// The presentation style changed to `style`.
    /// - Parameters:
    ///   - style: the new style.
    ///   - state: the app's state, to change in place.
    ///   - context: what the hook can do besides changing `state`.
    func didTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws
}

extension MessagesApp {
    /// No assets folder.
    public var assetsDirectory: URL? { nil }
    /// Accepts every message.
    /// - Parameters:
    ///   - message: the message to check.
    ///   - head: the session head it replaces, or nil.
    public func validate(_ message: Message, replacing head: Message?) throws { DefaultHook.ran(#function) }
    /// Refuses every rebase: the send fails with `.sessionConflict` and the message stays staged.
    /// - Parameters:
    ///   - message: the staged message.
    ///   - head: the session's newer head.
    /// - Returns: nil.
    public func rebase(_ message: Message, onto head: Message) throws -> Message? {
        DefaultHook.ran(#function)
        return nil
    }
    /// Does nothing.
    /// - Parameters:
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func willBecomeActive(state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func didBecomeActive(state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func willResignActive(state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func didResignActive(state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - message: the message.
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func willSelect(_ message: Message, state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - message: the message.
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func didSelect(_ message: Message, state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - message: the message.
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func didReceive(_ message: Message, state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - message: the message.
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func didStartSending(_ message: Message, state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - message: the message.
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func didCancelSending(_ message: Message, state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - style: the new style.
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func willTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
    /// Does nothing.
    /// - Parameters:
    ///   - style: the new style.
    ///   - state: the app's state.
    ///   - context: the hook's context.
    public func didTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws { DefaultHook.ran(#function) }
}

/// Tells a host that runs an app's hooks for a caller elsewhere (the app side of the app
/// connection protocol) that the hook it ran was one of the defaults above, which do nothing: the
/// caller need not ask for that hook again. Apps never see it.
@_spi(Hosting) public enum DefaultHook {
    /// Set while a host runs one hook; the defaults mark it.
    @TaskLocal public static var marker: Marker?

    /// Which defaults ran, by hook name (`didBecomeActive`, `validate`…): a hook of the app's own
    /// may call a default of another hook, which says nothing about the hook that was asked for.
    public final class Marker: Sendable {
        private let names = Mutex<Set<String>>([])
        public init() {}
        /// Whether the default of the hook named `hook` ran.
        public func ranDefault(of hook: String) -> Bool { names.withLock { $0.contains(hook) } }
        func mark(_ hook: String) { names.withLock { _ = $0.insert(hook) } }
    }

    /// - Parameter function: the default's `#function` (`didBecomeActive(state:context:)`).
    static func ran(_ function: String) {
        marker?.mark(String(function.prefix { $0 != "(" }))
    }
}

/// What `body` may depend on besides the state.
public struct ViewEnvironment: Sendable, Hashable {
    /// How the app is shown right now.
    public var presentationStyle: PresentationStyle
    /// Which surface of the app is drawing: the message extension or the home surface.
    public var surface: AppSurface
    /// The modal screen presented with `context.present(modal:)`, if any.
    public var modal: String?
    /// The person viewing, in the app's participant ids.
    public var localParticipantIdentifier: ParticipantID
    /// The conversation's other participants, in the app's participant ids (none on the home
    /// surface): a view can offer a control per person without keeping them in its state. Their
    /// `mention` tokens show as names, and they come in the order of those names (the host sorts
    /// them; the app never learns a name).
    public var remoteParticipantIdentifiers: [ParticipantID]
    /// The message the app was opened from or last tapped, if any.
    public var selectedMessage: Message?
    /// The viewing person's language, a BCP 47 tag (`fr-CA`): their browser's, or the one they
    /// chose in Settings; `en` when the host knows none. `LocalizedStrings` reads it.
    public var language: String

    /// The language a host uses when it knows none of the person's.
    public static let defaultLanguage = "en"

    /// Creates an environment; hosts and tests make these, apps only read them.
    /// - Parameters:
    ///   - presentationStyle: how the app is shown.
    ///   - surface: which surface is drawing; the message extension by default.
    ///   - modal: the presented modal screen's name, if any.
    ///   - localParticipantIdentifier: the person viewing.
    ///   - remoteParticipantIdentifiers: the conversation's other participants.
    ///   - selectedMessage: the selected message, if any.
    ///   - language: the viewing person's language; `en` by default.
    public init(
        presentationStyle: PresentationStyle, surface: AppSurface = .messages, modal: String? = nil,
        localParticipantIdentifier: ParticipantID, remoteParticipantIdentifiers: [ParticipantID] = [], selectedMessage: Message? = nil,
        language: String = ViewEnvironment.defaultLanguage
    ) {
        self.presentationStyle = presentationStyle
        self.surface = surface
        self.modal = modal
        self.localParticipantIdentifier = localParticipantIdentifier
        self.remoteParticipantIdentifiers = remoteParticipantIdentifiers
        self.selectedMessage = selectedMessage
        self.language = language
    }
}
