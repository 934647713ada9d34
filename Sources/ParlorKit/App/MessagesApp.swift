import Foundation

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

    var manifest: AppManifest { get }
    /// The state of a new instance.
    var initialState: State { get }
    /// The folder of files that `ImageSource.asset(_:)` names, if the app has one.
    var assetsDirectory: URL? { get }

    /// The view, from the state and the environment only.
    @ViewBuilder func body(state: State, environment: ViewEnvironment) -> ViewNode

    /// Handles a control's action.
    func handle(_ action: Action, state: inout State, context: AppContext) async throws

    /// Checks one of this app's messages before the host commits it, on the host, for every
    /// sender: a client cannot bypass it. `head` is the message it replaces in its session (nil
    /// when it starts a session). `message.senderParticipantIdentifier` is set by the host and can
    /// be trusted. Throw `MessagesError(.actionRefused)` to refuse a forged or illegal message
    /// (a board that changes two cells, a vote counted twice). The default accepts every message.
    func validate(_ message: Message, replacing head: Message?) throws

    func willBecomeActive(state: inout State, context: AppContext) async throws
    func didBecomeActive(state: inout State, context: AppContext) async throws
    func willResignActive(state: inout State, context: AppContext) async throws
    func didResignActive(state: inout State, context: AppContext) async throws
    /// The user tapped one of this app's messages while the app was active;
    /// `context.conversation.selectedMessage` is still the previous one.
    func willSelect(_ message: Message, state: inout State, context: AppContext) async throws
    func didSelect(_ message: Message, state: inout State, context: AppContext) async throws
    /// A message from this app arrived while the app was active.
    func didReceive(_ message: Message, state: inout State, context: AppContext) async throws
    /// The user sent the staged message (delivery is not guaranteed yet).
    func didStartSending(_ message: Message, state: inout State, context: AppContext) async throws
    /// The user removed the staged message.
    func didCancelSending(_ message: Message, state: inout State, context: AppContext) async throws
    func willTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws
    func didTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws
}

extension MessagesApp {
    public var assetsDirectory: URL? { nil }
    public func validate(_ message: Message, replacing head: Message?) throws {}
    public func willBecomeActive(state: inout State, context: AppContext) async throws {}
    public func didBecomeActive(state: inout State, context: AppContext) async throws {}
    public func willResignActive(state: inout State, context: AppContext) async throws {}
    public func didResignActive(state: inout State, context: AppContext) async throws {}
    public func willSelect(_ message: Message, state: inout State, context: AppContext) async throws {}
    public func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {}
    public func didReceive(_ message: Message, state: inout State, context: AppContext) async throws {}
    public func didStartSending(_ message: Message, state: inout State, context: AppContext) async throws {}
    public func didCancelSending(_ message: Message, state: inout State, context: AppContext) async throws {}
    public func willTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws {}
    public func didTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws {}
}

/// What `body` may depend on besides the state.
public struct ViewEnvironment: Sendable, Hashable {
    public var presentationStyle: PresentationStyle
    public var surface: AppSurface
    /// The modal screen presented with `context.present(modal:)`, if any.
    public var modal: String?
    public var localParticipantIdentifier: ParticipantID
    public var selectedMessage: Message?

    public init(
        presentationStyle: PresentationStyle, surface: AppSurface = .messages, modal: String? = nil,
        localParticipantIdentifier: ParticipantID, selectedMessage: Message? = nil
    ) {
        self.presentationStyle = presentationStyle
        self.surface = surface
        self.modal = modal
        self.localParticipantIdentifier = localParticipantIdentifier
        self.selectedMessage = selectedMessage
    }
}
