import Foundation
@_spi(Hosting) import ParlorKit
import Synchronization

/// The app side of the app connection protocol for a `MessagesApp`: answers each call by running
/// the app's own hook on the state Parlor sent, and reports what the hook did as effects. This is
/// what lets a ParlorKit app run out of process with no change to its code (`AppRunner` puts it on
/// a WebSocket; tests put it behind an in-memory link).
///
/// What differs from running in the host, and why it does not matter to an app written for the
/// SDK: `send` returns the message as the app made it (the host commits it when the answer
/// arrives, with every check), and an effect the host refuses makes the whole call fail, which
/// leaves the state as it was, as a throwing hook does in the host.
public struct AppResponder<App: MessagesApp>: Sendable {
    public let app: App
    /// The app's manifest, read once: an app may build it on each access (an icon drawn as an
    /// SVG data URL costs a percent-encoding pass), and every call needs it.
    public let manifest: AppManifest
    /// What `context.fetch` uses (the app's own process reaches the network itself).
    public let httpClient: (any FetchClient)?

    public init(app: App, httpClient: (any FetchClient)? = nil) {
        self.app = app
        manifest = app.manifest
        self.httpClient = httpClient
    }

    /// The answer to `call`: a result, or a refusal when the app throws.
    /// - Parameters:
    ///   - readContainer: reads a key of the person's container from Parlor.
    ///   - upload: uploads an image for the person through Parlor (`conversation.upload(image:)`);
    ///     nil where the app cannot (it then says so to the app).
    public func answer(
        _ call: AppWire.Call, readContainer: @escaping @Sendable (String) async throws -> JSONValue, upload: AppWire.ImageUpload? = nil
    ) async -> AppWire.AppFrame {
        do {
            // A hook the app left to ParlorKit's default did nothing: say so, and Parlor stops asking.
            let marker = DefaultHook.Marker()
            var result = try await DefaultHook.$marker.withValue(marker) { try await self.result(of: call, readContainer: readContainer, upload: upload) }
            if marker.ranDefault(of: call.hook.rawValue) { result.unimplemented = true }
            return .result(result.taken(for: call.hook))
        } catch let error as MessagesError {
            return .refuse(AppWire.Refusal(id: call.id, code: error.code.name, message: error.message))
        } catch {
            return .refuse(AppWire.Refusal(id: call.id, code: MessagesError.Code.unknown.name, message: "\(manifest.name) ran into a problem: \(error)"))
        }
    }

    private func result(
        of call: AppWire.Call, readContainer: @escaping @Sendable (String) async throws -> JSONValue, upload: AppWire.ImageUpload?
    ) async throws -> AppWire.Result {
        if call.hook == .validate {
            guard let message = call.message else { throw MessagesError(.invalidValue, "validate needs a message.") }
            try app.validate(message, replacing: call.head)
            return AppWire.Result(id: call.id)
        }
        if call.hook == .rebase {
            guard let message = call.message, let head = call.head else { throw MessagesError(.invalidValue, "rebase needs a message and a head.") }
            return AppWire.Result(id: call.id, message: try app.rebase(message, onto: head))
        }
        guard let callContext = call.context else { throw MessagesError(.invalidValue, "\(call.hook) needs a context.") }
        var state = try decodeState(call.state)
        if call.hook == .render {
            return AppWire.Result(id: call.id, view: app.body(state: state, environment: callContext.environment))
        }
        let recorder = EffectRecorder()
        let gate = EffectGate(visible: true, transcript: callContext.style == .transcript, interaction: call.hook == .handle)
        defer { gate.close() }
        let conversation = Conversation(
            localParticipantIdentifier: callContext.localParticipant, remoteParticipantIdentifiers: callContext.remoteParticipants ?? [],
            selectedMessage: callContext.selectedMessage, appID: manifest.id, host: RecordingHost(recorder: recorder, uploader: upload), gate: gate)
        let context = AppContext(
            conversation: conversation, presentationStyle: callContext.style, surface: callContext.surface,
            container: RelayedContainer(recorder: recorder, read: readContainer), manifest: manifest, httpClient: httpClient, gate: gate,
            language: callContext.environment.language)
        try await run(call, state: &state, context: context)
        let presentation: [AppWire.Effect] = context.presentationRequests.map { request in
            switch request {
            case .style(let style): .requestStyle(style)
            case .dismiss: .dismiss
            case .modal(let name?): .presentModal(name)
            case .modal(nil): .dismissModal
            }
        }
        let newState = try JSONValue(json: try CompactJSONEncoder().encode(state))
        return AppWire.Result(
            id: call.id, state: newState == call.state ? nil : newState, effects: recorder.effects + presentation,
            view: Self.isShown(after: call.hook, presentation, in: callContext.style)
                ? app.body(state: state, environment: callContext.environment) : nil)
    }

    /// Whether the instance is still on screen once Parlor has applied an answer: not after a
    /// resign hook, nor after a dismiss (which a live bubble in the transcript cannot do). A view
    /// Parlor will not show is not drawn; should it need one after all, it asks with `render`.
    static func isShown(after hook: AppWire.Hook, _ presentation: [AppWire.Effect], in style: PresentationStyle) -> Bool {
        if hook == .willResignActive || hook == .didResignActive { return false }
        return style == .transcript || !presentation.contains(.dismiss)
    }

    private func run(_ call: AppWire.Call, state: inout App.State, context: AppContext) async throws {
        func message() throws -> Message {
            guard let message = call.message else { throw MessagesError(.invalidValue, "\(call.hook) needs a message.") }
            return message
        }
        func style() throws -> PresentationStyle {
            guard let style = call.style else { throw MessagesError(.invalidValue, "\(call.hook) needs a style.") }
            return style
        }
        switch call.hook {
        case .handle:
            let action: App.Action
            do {
                action = try CompactJSONDecoder().decode(App.Action.self, from: (call.action ?? .null).json)
            } catch {
                throw MessagesError(.invalidValue, "\(manifest.name) did not understand that action.")
            }
            try await app.handle(action, state: &state, context: context)
        case .willBecomeActive: try await app.willBecomeActive(state: &state, context: context)
        case .didBecomeActive: try await app.didBecomeActive(state: &state, context: context)
        case .willResignActive: try await app.willResignActive(state: &state, context: context)
        case .didResignActive: try await app.didResignActive(state: &state, context: context)
        case .willSelect: try await app.willSelect(try message(), state: &state, context: context)
        case .didSelect: try await app.didSelect(try message(), state: &state, context: context)
        case .didReceive: try await app.didReceive(try message(), state: &state, context: context)
        case .didStartSending: try await app.didStartSending(try message(), state: &state, context: context)
        case .didCancelSending: try await app.didCancelSending(try message(), state: &state, context: context)
        case .willTransition: try await app.willTransition(to: try style(), state: &state, context: context)
        case .didTransition: try await app.didTransition(to: try style(), state: &state, context: context)
        case .render, .validate, .rebase: break
        }
    }

    /// The app's state from Parlor's JSON; null (a new instance) is the initial state.
    private func decodeState(_ json: JSONValue?) throws -> App.State {
        guard let json, json != .null else { return app.initialState }
        do {
            return try CompactJSONDecoder().decode(App.State.self, from: json.json)
        } catch {
            throw MessagesError(.invalidValue, "\(manifest.name) could not read its saved state.")
        }
    }
}

/// The effects of one call, in the order the app caused them.
private final class EffectRecorder: Sendable {
    private let recorded = Mutex<[AppWire.Effect]>([])
    /// Container values written during the call, so a read after a write sees it.
    private let written = Mutex<[String: JSONValue]>([:])

    var effects: [AppWire.Effect] { recorded.withLock { $0 } }
    func record(_ effect: AppWire.Effect) { recorded.withLock { $0.append(effect) } }

    func write(_ value: JSONValue, forKey key: String) {
        written.withLock { $0[key] = value }
        record(.containerSet(key: key, value: value))
    }

    func written(forKey key: String) -> JSONValue? { written.withLock { $0[key] } }
}

/// Stands in for the conversation: records what the app does with it.
private struct RecordingHost: ConversationHost {
    let recorder: EffectRecorder
    let uploader: AppWire.ImageUpload?

    func upload(image: Data) async throws -> String {
        guard let uploader else { throw MessagesError(.apiUnavailableInPresentationContext, "Uploading an image is not available here.") }
        return try await uploader(image)
    }

    func stage(_ message: Message, replacing: MessageID?) async throws { recorder.record(.insert(message)) }

    func send(_ message: Message, replacing: MessageID?) async throws -> Message {
        recorder.record(.send(message))
        var sent = message
        sent.isPending = false
        return sent
    }

    func insertText(_ text: String) async throws { recorder.record(.insertText(text)) }
    func insertSticker(_ sticker: Sticker) async throws { recorder.record(.insertSticker(sticker)) }
}

/// The person's container in Parlor: reads are asked for, writes are effects.
private struct RelayedContainer: AppContainer {
    let recorder: EffectRecorder
    let read: @Sendable (String) async throws -> JSONValue

    func data(forKey key: String) async throws -> Data? {
        let value: JSONValue
        if let written = recorder.written(forKey: key) { value = written } else { value = try await read(key) }
        return value == .null ? nil : value.json
    }

    func setData(_ data: Data?, forKey key: String) async throws {
        let value = try data.map { data throws(MessagesError) in try JSONValue(json: data) } ?? .null
        recorder.write(value, forKey: key)
    }
}
