import Foundation
import Synchronization

/// What an app's hooks and actions can do besides changing their state: reach the conversation,
/// change how the app is presented, read its container, fetch over HTTP.
///
/// A context is valid for the one hook or action it was passed to.
public final class AppContext: Sendable {
    /// The conversation the app runs in: its people, the selected message, and how to put
    /// messages into it.
    public let conversation: Conversation
    /// The style at the time of the call.
    public let presentationStyle: PresentationStyle
    /// Which surface of the app is running: the message extension or the home surface.
    public let surface: AppSurface
    /// Storage shared with the app's other surface, for this user.
    public let container: any AppContainer
    /// The person's language (`ViewEnvironment.language`), for texts a hook writes: a message's
    /// caption is written in its sender's language.
    public let language: String

    let manifest: AppManifest
    let httpClient: (any FetchClient)?
    let gate: EffectGate
    private let requests = Mutex<[PresentationRequest]>([])

    @_spi(Hosting) public init(
        conversation: Conversation, presentationStyle: PresentationStyle, surface: AppSurface,
        container: any AppContainer, manifest: AppManifest, httpClient: (any FetchClient)?, gate: EffectGate,
        language: String = ViewEnvironment.defaultLanguage
    ) {
        self.language = language
        self.conversation = conversation
        self.presentationStyle = presentationStyle
        self.surface = surface
        self.container = container
        self.manifest = manifest
        self.httpClient = httpClient
        self.gate = gate
    }

    /// Asks for `style`. The host grants it once the current hook returns; the user keeps control.
    /// - Parameter style: the style wanted, `.compact` or `.expanded`.
    /// - Throws: `.apiUnavailableInPresentationContext` for `.transcript`, which apps cannot request.
    public func requestPresentationStyle(_ style: PresentationStyle) throws {
        guard style != .transcript else {
            throw MessagesError(.apiUnavailableInPresentationContext, "An app cannot request the transcript style.")
        }
        try gate.check(.present)
        requests.withLock { $0.append(.style(style)) }
    }

    /// Closes the app once the current hook returns (willResignActive, then didResignActive).
    public func dismiss() {
        requests.withLock { $0.append(.dismiss) }
    }

    /// Presents the modal screen named `modal`; `body` sees it as `environment.modal`.
    /// - Parameter modal: the screen's name, which `body` matches to draw it.
    public func present(modal: String) {
        requests.withLock { $0.append(.modal(modal)) }
    }

    /// Dismisses the presented modal screen.
    public func dismissModal() {
        requests.withLock { $0.append(.modal(nil)) }
    }

    /// Fetches over HTTP, only from hosts the manifest declares.
    /// - Parameter request: the request to send.
    /// - Returns: the server's answer, whatever its status.
    /// - Throws: `.hostNotAllowed` for other hosts or schemes; `.networkFailure` when the request fails.
    public func fetch(_ request: FetchRequest) async throws -> FetchResponse {
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https", let host = request.url.host, manifest.allows(host: host) else {
            throw MessagesError(
                .hostNotAllowed,
                "\(manifest.name) may not reach \(request.url.host ?? request.url.absoluteString); its manifest allows \(manifest.allowedHosts.isEmpty ? "no hosts" : manifest.allowedHosts.joined(separator: ", ")).")
        }
        guard let httpClient else {
            throw MessagesError(.networkFailure, "This host gives apps no network access.")
        }
        do {
            return try await httpClient.send(request)
        } catch let error as MessagesError {
            throw error
        } catch {
            throw MessagesError(.networkFailure, "Could not reach \(host): \(error.localizedDescription)")
        }
    }

    /// The presentation requests made during the call, in order; read by the host afterwards.
    @_spi(Hosting) public var presentationRequests: [PresentationRequest] { requests.withLock { $0 } }
}

/// A change of presentation an app asked for.
@_spi(Hosting) public enum PresentationRequest: Sendable, Hashable {
    case style(PresentationStyle)
    case dismiss
    case modal(String?)
}

/// Decides which effects a context may cause: none once its call is over, none but reads in
/// transcript style, sends only from a user's action.
@_spi(Hosting) public final class EffectGate: Sendable {
    @_spi(Hosting) public enum Effect { case stage, send, present }

    private let state: Mutex<(open: Bool, visible: Bool, transcript: Bool, interaction: Bool)>
    private let sent = Mutex<Message?>(nil)

    @_spi(Hosting) public init(visible: Bool, transcript: Bool, interaction: Bool) {
        state = Mutex((true, visible, transcript, interaction))
    }

    /// A message was committed through this context (`Conversation.send` returned).
    @_spi(Hosting) public var hasSent: Bool { lastSent != nil }
    /// The last message committed through this context, as committed.
    @_spi(Hosting) public var lastSent: Message? { sent.withLock { $0 } }

    func recordSent(_ message: Message) { sent.withLock { $0 = message } }

    /// Ends the call: later effects through this context are refused.
    @_spi(Hosting) public func close() { state.withLock { $0.open = false } }

    func check(_ effect: Effect) throws(MessagesError) {
        let current = state.withLock { $0 }
        if current.transcript {
            throw MessagesError(.apiUnavailableInPresentationContext, "This is not available while the app is drawn inside a message bubble.")
        }
        guard current.open, current.visible else {
            throw MessagesError(.sendWhileNotVisible, "The app is not visible; it can change the conversation only while it is open.")
        }
        if effect == .send, !current.interaction {
            throw MessagesError(.sendWithoutRecentInteraction, "A message can be sent only right after the user acts in the app.")
        }
    }
}
