import Foundation
@_spi(Hosting) import ParlorKit
import Synchronization

/// The way to an app that runs in its own process (a WebSocket in the server, memory in tests).
public protocol AppLink: Sendable {
    /// Sends `call` to the app and waits for its answer. Container reads the app makes during the
    /// call are answered from `container`.
    /// - Throws: `appUnavailable` when the app is not connected, does not answer within
    ///   `AppWire.callDeadline`, disconnects or answers something unusable; the app's own refusal
    ///   as its `MessagesError`.
    /// - Parameters:
    ///   - container: the person's container, which the app may read during the call (`containerGet`).
    ///   - upload: stores an image the app uploads during the call (`upload`), for the person.
    func call(_ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result
    /// Sends a hook's `call`, made in `context`: a link that runs the app itself also answers its
    /// requests over HTTP through `context.fetch` (the manifest's hosts, the host's client).
    func call(_ call: AppWire.Call, context: AppContext, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result
}

extension AppLink {
    /// An app in its own process makes its own requests: only its container is answered.
    public func call(_ call: AppWire.Call, context: AppContext, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
        try await self.call(call, container: context.container, upload: upload)
    }
}

/// An app that runs outside the host, hosted like any `MessagesApp`: the same `AppInstance` runs
/// its lifecycle (order, gates, re-running an action on a newer session head, every limit), and
/// each hook is a call over `link`. The state is the app's JSON, kept by the host.
public struct RemoteApp: MessagesApp, RendersAsynchronously {
    public typealias State = JSONValue
    public typealias Action = JSONValue

    public let manifest: AppManifest
    let link: any AppLink
    private let views = ViewCache()

    public init(manifest: AppManifest, link: any AppLink) {
        self.manifest = manifest
        self.link = link
    }

    public var initialState: JSONValue { .null }

    /// The last view the app drew for exactly this state and environment, if any (drawing needs a
    /// call: `render(state:environment:)`).
    public func body(state: JSONValue, environment: ViewEnvironment) -> ViewNode {
        views.view(for: state, environment) ?? .empty
    }

    public func render(state: JSONValue, environment: ViewEnvironment) async throws -> ViewNode {
        if let view = views.view(for: state, environment) { return view }
        let context = AppWire.Context(
            style: environment.presentationStyle, surface: environment.surface, modal: environment.modal,
            localParticipant: environment.localParticipantIdentifier, remoteParticipants: environment.remoteParticipantIdentifiers,
            selectedMessage: environment.selectedMessage, language: environment.language)
        let result = try await link.call(AppWire.Call(id: Self.callID(), hook: .render, state: state, context: context), container: nil, upload: nil)
        guard let view = result.view else {
            throw MessagesError(.appUnavailable, "\(manifest.name) did not draw its screen; try again.")
        }
        views.keep(view, for: state, environment)
        return view
    }

    /// Asks the app to check `message` before it is committed.
    /// - Throws: the app's refusal; `messageNotChecked` when the app could not be asked.
    public func check(_ message: Message, replacing head: Message?) async throws(MessagesError) {
        do {
            _ = try await link.call(AppWire.Call(id: Self.callID(), hook: .validate, message: message, head: head), container: nil, upload: nil)
        } catch let error where error.code == .appUnavailable {
            throw MessagesError(.messageNotChecked, "\(manifest.name) could not check this message, so it was not sent; try again in a moment.")
        }
    }

    /// Asks the app to re-apply `message`, staged on an older head, to `head` (`MessagesApp.rebase`).
    /// - Returns: the message to send instead; nil when the app leaves it staged.
    /// - Throws: the app's refusal; `appUnavailable` when the app could not be asked.
    public func askToRebase(_ message: Message, onto head: Message) async throws(MessagesError) -> Message? {
        try await link.call(AppWire.Call(id: Self.callID(), hook: .rebase, message: message, head: head), container: nil, upload: nil)
            .taken(for: .rebase).message
    }

    public func handle(_ action: JSONValue, state: inout JSONValue, context: AppContext) async throws {
        try await run(.handle, state: &state, context: context, action: action)
    }

    public func willBecomeActive(state: inout JSONValue, context: AppContext) async throws {
        try await run(.willBecomeActive, state: &state, context: context)
    }

    public func didBecomeActive(state: inout JSONValue, context: AppContext) async throws {
        try await run(.didBecomeActive, state: &state, context: context)
    }

    public func willResignActive(state: inout JSONValue, context: AppContext) async throws {
        try await run(.willResignActive, state: &state, context: context)
    }

    public func didResignActive(state: inout JSONValue, context: AppContext) async throws {
        try await run(.didResignActive, state: &state, context: context)
    }

    public func willSelect(_ message: Message, state: inout JSONValue, context: AppContext) async throws {
        try await run(.willSelect, state: &state, context: context, message: message)
    }

    public func didSelect(_ message: Message, state: inout JSONValue, context: AppContext) async throws {
        try await run(.didSelect, state: &state, context: context, message: message)
    }

    public func didReceive(_ message: Message, state: inout JSONValue, context: AppContext) async throws {
        try await run(.didReceive, state: &state, context: context, message: message)
    }

    public func didStartSending(_ message: Message, state: inout JSONValue, context: AppContext) async throws {
        try await run(.didStartSending, state: &state, context: context, message: message)
    }

    public func didCancelSending(_ message: Message, state: inout JSONValue, context: AppContext) async throws {
        try await run(.didCancelSending, state: &state, context: context, message: message)
    }

    public func willTransition(to style: PresentationStyle, state: inout JSONValue, context: AppContext) async throws {
        try await run(.willTransition, state: &state, context: context, style: style)
    }

    public func didTransition(to style: PresentationStyle, state: inout JSONValue, context: AppContext) async throws {
        try await run(.didTransition, state: &state, context: context, style: style)
    }

    /// One call: the app answers with its new state and effects; the effects run in order through
    /// `context`, with every check an app in the host meets; the state is kept only when all of
    /// them pass.
    private func run(
        _ hook: AppWire.Hook, state: inout JSONValue, context: AppContext, action: JSONValue? = nil, message: Message? = nil,
        style: PresentationStyle? = nil
    ) async throws {
        let callContext = AppWire.Context(
            style: context.presentationStyle, surface: context.surface, modal: nil,
            localParticipant: context.conversation.localParticipantIdentifier,
            remoteParticipants: context.conversation.remoteParticipantIdentifiers, selectedMessage: context.conversation.selectedMessage,
            language: context.language)
        let call = AppWire.Call(id: Self.callID(), hook: hook, state: state, context: callContext, action: action, message: message, style: style)
        let conversation = context.conversation
        let upload: AppWire.ImageUpload = { image in
            guard case .upload(let id) = try await conversation.upload(image: image) else { throw MessagesError(.unknown, "The upload has no id.") }
            return id
        }
        let result = try await link.call(call, context: context, upload: upload).taken(for: hook)
        let effects = result.effects ?? []
        guard effects.count <= AppWire.maxEffectsPerAnswer else {
            throw MessagesError(.appUnavailable, "\(manifest.name) asked for \(effects.count) things at once; the limit is \(AppWire.maxEffectsPerAnswer).")
        }
        // An absent state is the one sent, which was within the limit when it was kept.
        if let newState = result.state {
            let size = newState.json.count
            guard size <= AppWire.maxStateBytes else {
                throw MessagesError(.appUnavailable, "\(manifest.name) tried to keep \(size) bytes of state; the limit is \(AppWire.maxStateBytes).")
            }
        }
        let newState = result.state ?? state
        for effect in effects {
            try await apply(effect, context: context)
        }
        state = newState
        if let view = result.view { views.keep(view, for: newState, callContext.environment) }
    }

    private func apply(_ effect: AppWire.Effect, context: AppContext) async throws {
        switch effect {
        case .insert(let message): try await context.conversation.insert(message)
        case .send(let message): try await context.conversation.send(message)
        case .insertText(let text): try await context.conversation.insertText(text)
        case .insertSticker(let sticker): try await context.conversation.insertSticker(sticker)
        case .requestStyle(let style): try context.requestPresentationStyle(style)
        case .dismiss: context.dismiss()
        case .presentModal(let name): context.present(modal: name)
        case .dismissModal: context.dismissModal()
        case .containerSet(let key, let value): try await context.container.setData(value == .null ? nil : value.json, forKey: key)
        }
    }

    static func callID() -> String { UUIDText.string(UUIDText.random()) }
}

/// An app whose view needs a call to draw (`AppInstance` awaits it instead of calling `body`):
/// what hosts implement for apps outside them; an app never needs it.
public protocol RendersAsynchronously: MessagesApp {
    func render(state: State, environment: ViewEnvironment) async throws -> ViewNode
}

/// The views an outside app drew lately, by state and environment (a view is a pure function of
/// the two, so a drawn view is reused until either changes). Bounded: 64 entries, each at most
/// a 64 KiB state and a 256 KiB answer's view.
private final class ViewCache: Sendable {
    private struct Key: Hashable {
        let state: JSONValue
        let environment: ViewEnvironment
    }

    private static let capacity = 64
    private let views = Mutex<[Key: ViewNode]>([:])

    func view(for state: JSONValue, _ environment: ViewEnvironment) -> ViewNode? {
        let key = Key(state: state, environment: environment)
        return views.withLock { $0[key] }
    }

    func keep(_ view: ViewNode, for state: JSONValue, _ environment: ViewEnvironment) {
        let key = Key(state: state, environment: environment)
        views.withLock { views in
            if views.count >= Self.capacity { views.removeAll(keepingCapacity: true) }
            views[key] = view
        }
    }
}
