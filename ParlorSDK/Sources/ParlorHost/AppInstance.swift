import Foundation
@_spi(Hosting) import ParlorKit

/// Runs one `MessagesApp` with the lifecycle of the Messages framework.
///
/// The observed orders it reproduces:
/// - open from the drawer: willBecomeActive, didBecomeActive (compact, no selected message);
/// - tap a message while inactive: the same, with the message selected, expanded;
/// - tap a message while active: willSelect (old selection), didSelect, then willTransition and
///   didTransition when the style changes to expanded;
/// - dismiss: willResignActive, didResignActive.
public actor AppInstance<App: MessagesApp>: HostedAppInstance {
    public nonisolated let manifest: AppManifest
    private let app: App
    private var configuration: InstanceConfiguration
    private var state: App.State
    private var lifecycle = InstanceLifecycle()
    private var lastView: ViewNode = .empty
    /// The app draws with a call (`RendersAsynchronously`) and `lastView` was not drawn since
    /// the instance resumed: drawn before the first call is handled, which checks actions against it.
    private var needsRender = false
    private var failure: InstanceFailure?
    /// Why the snapshot could not be resumed; reported with the first call's update too.
    private var resumeFailure: InstanceFailure?
    /// The calls, one at a time, first come first served: one call's awaits never let another in.
    private var calls = CallQueue<CheckedContinuation<Void, Never>>()
    /// What the call running now has learned about the app.
    private var findings = CallFindings()

    /// How deep hooks may chain presentation requests (a transition that requests a transition…).
    static var maxRequestDepth: Int { 8 }

    public init(app: App, configuration: InstanceConfiguration) {
        self.app = app
        self.manifest = app.manifest
        self.configuration = configuration
        self.state = app.initialState
        if let snapshot = configuration.snapshot {
            if let restored = try? CompactJSONDecoder().decode(App.State.self, from: snapshot.state) {
                state = restored
                lifecycle = InstanceLifecycle(resuming: snapshot)
                needsRender = lifecycle.isActive && app is any RendersAsynchronously
                if lifecycle.isActive {
                    // The view the user last saw: what `current()` shows and what actions are checked against.
                    lastView = app.body(state: state, environment: Self.environment(configuration: configuration, lifecycle: lifecycle))
                }
            } else {
                let failure = InstanceFailure(
                    error: MessagesError(.invalidValue, "\(app.manifest.name) could not resume where you left it and started afresh."),
                    detail: "saved state does not decode as \(App.State.self)")
                self.failure = failure
                resumeFailure = failure
            }
        }
    }

    // MARK: Entry points

    public func openFromDrawer() async -> InstanceUpdate {
        await serialized {
            guard !lifecycle.isActive else { return }
            lifecycle.select(nil)
            await becomeActive(style: .compact)
        }
    }

    public func openHome() async -> InstanceUpdate {
        await serialized {
            configuration.surface = .home
            guard !lifecycle.isActive else { return }
            await becomeActive(style: .expanded)
        }
    }

    public func tap(_ message: Message) async -> InstanceUpdate {
        await serialized {
            guard lifecycle.isInteractive else {
                lifecycle.select(message)
                await becomeActive(style: .expanded)
                return
            }
            let willSelect = await run(.willSelect) { app, state, context in
                try await app.willSelect(message, state: &state, context: context)
            }
            lifecycle.select(message)
            let didSelect = await run(.didSelect) { app, state, context in
                try await app.didSelect(message, state: &state, context: context)
            }
            await transition(to: .expanded, depth: 0)
            await apply(willSelect + didSelect, depth: 0)
        }
    }

    public func openInTranscript(_ message: Message) async -> InstanceUpdate {
        await serialized {
            lifecycle.select(message)
            await becomeActive(style: .transcript)
        }
    }

    public func receive(_ message: Message) async -> InstanceUpdate {
        await serialized(userInitiated: false) {
            guard lifecycle.isInteractive else { return }
            let requests = await run(.didReceive) { app, state, context in
                try await app.didReceive(message, state: &state, context: context)
            }
            await apply(requests, depth: 0)
        }
    }

    public func perform(_ event: ViewEvent) async -> InstanceUpdate {
        await serialized {
            switch lifecycle.state {
            case .inactive:
                fail(MessagesError(.sendWhileNotVisible, "\(manifest.name) is not open."), detail: "event while inactive", cause: .client)
                return
            case .transcript:
                fail(
                    MessagesError(.apiUnavailableInPresentationContext, "Open \(manifest.name) by tapping its message to use it."),
                    detail: "event in transcript style", cause: .client)
                return
            case .compact, .expanded:
                break
            }
            switch event.kind {
            case .dismissModal:
                lifecycle.dismissModal()
            case .insertSticker:
                await insertSticker(id: event.stickerID)
            case .action:
                await handleAction(event)
            }
        }
    }

    public func changeStyle(to style: PresentationStyle) async -> InstanceUpdate {
        await serialized {
            guard style != .transcript else { return }
            await transition(to: style, depth: 0)
        }
    }

    public func dismiss() async -> InstanceUpdate {
        await serialized { await resign(depth: 0) }
    }

    public func didStartSending(_ message: Message) async -> InstanceUpdate {
        await serialized {
            guard lifecycle.isInteractive else { return }
            let requests = await run(.didStartSending) { app, state, context in
                try await app.didStartSending(message, state: &state, context: context)
            }
            await apply(requests, depth: 0)
        }
    }

    public func didCancelSending(_ message: Message) async -> InstanceUpdate {
        await serialized {
            guard lifecycle.isInteractive else { return }
            let requests = await run(.didCancelSending) { app, state, context in
                try await app.didCancelSending(message, state: &state, context: context)
            }
            await apply(requests, depth: 0)
        }
    }

    public func updateRemoteParticipants(_ participants: [ParticipantID]) {
        configuration.remoteParticipants = participants
    }

    public func updateLanguage(_ language: String) {
        configuration.language = language
    }

    public func current() -> InstanceUpdate { update() }

    public func settle() async {
        await enterQueue()
        exitQueue()
    }

    public func snapshot() -> InstanceSnapshot {
        InstanceSnapshot(
            state: (try? InstanceSnapshot.encoder.encode(state)) ?? Data("null".utf8), isActive: lifecycle.isActive,
            presentationStyle: lifecycle.style, selectedMessage: lifecycle.selectedMessage, modal: lifecycle.modal)
    }

    /// How many calls wait for the one running to end (for tests that hold a call).
    var waitingCalls: Int { calls.waiting }

    // MARK: Lifecycle steps

    private func becomeActive(style: PresentationStyle) async {
        lifecycle.becomeActive(style)
        let will = await run(.willBecomeActive) { app, state, context in
            try await app.willBecomeActive(state: &state, context: context)
        }
        let did = await run(.didBecomeActive) { app, state, context in
            try await app.didBecomeActive(state: &state, context: context)
        }
        await apply(will + did, depth: 0)
    }

    private func resign(depth: Int) async {
        guard lifecycle.isActive else { return }
        // Presentation requests made while resigning are dropped: the app is closing, and opening
        // it again starts from the drawer's or the message's style.
        _ = await run(.willResignActive) { app, state, context in
            try await app.willResignActive(state: &state, context: context)
        }
        lifecycle.resignActive()
        _ = await run(.didResignActive) { app, state, context in
            try await app.didResignActive(state: &state, context: context)
        }
    }

    private func transition(to newStyle: PresentationStyle, depth: Int) async {
        guard lifecycle.allowsTransition(to: newStyle), depth < Self.maxRequestDepth else { return }
        let will = await run(.willTransition) { app, state, context in
            try await app.willTransition(to: newStyle, state: &state, context: context)
        }
        lifecycle.transition(to: newStyle)
        let did = await run(.didTransition) { app, state, context in
            try await app.didTransition(to: newStyle, state: &state, context: context)
        }
        await apply(will + did, depth: depth + 1)
    }

    private func apply(_ requests: [PresentationRequest], depth: Int) async {
        // A live bubble cannot change how it is shown: it cannot dismiss itself or present a modal.
        guard lifecycle.style != .transcript else { return }
        for request in requests {
            switch request {
            case .style(let requested): await transition(to: requested, depth: depth)
            case .dismiss: await resign(depth: depth)
            case .modal(let name): lifecycle.present(modal: name)
            }
        }
    }

    // MARK: Events

    private func handleAction(_ event: ViewEvent) async {
        guard let template = event.action, lastView.actionPayloads.contains(template) else {
            fail(MessagesError(.actionRefused, "That control is no longer on the screen."), detail: "unknown action payload", cause: .client)
            return
        }
        var payload = template
        if template.isTemplate {
            let value = event.value ?? ""
            let limit = maxLength(ofFieldWith: template)
            guard Limits.length(of: value) <= limit else {
                fail(MessagesError(.textExceedsMaxSize, "The text is \(Limits.length(of: value)) characters; the limit is \(limit)."), detail: "input too long", cause: .client)
                return
            }
            payload = template.filling(value)
        }
        let action: App.Action
        do {
            action = try CompactJSONDecoder().decode(App.Action.self, from: payload.json)
        } catch {
            fail(MessagesError(.invalidValue, "\(manifest.name) did not understand that action."), detail: "\(error)")
            return
        }
        for attempt in 1...MessageRules.maxRebases {
            do {
                let requests = try await call(interaction: true) { app, state, context in
                    try await app.handle(action, state: &state, context: context)
                }
                await apply(requests, depth: 0)
                return
            } catch let error as MessagesError where error.code == .sessionConflict && error.sessionHead != nil {
                // Someone replaced the session head first: re-run the action on the new head.
                lifecycle.select(error.sessionHead)
                if attempt == MessageRules.maxRebases { record(error, from: .hook(.handle)) }
            } catch {
                record(error, from: .hook(.handle))
                return
            }
        }
    }

    private func insertSticker(id: String?) async {
        let stickers = lastView.allNodes.flatMap { node -> [Sticker] in
            if case .stickerBrowser(let browser) = node { return browser.stickers }
            return []
        }
        guard let sticker = stickers.first(where: { $0.id == id }) else {
            fail(MessagesError(.fileNotFound, "That sticker is not in this app's browser."), detail: "unknown sticker \(id ?? "nil")", cause: .client)
            return
        }
        do {
            _ = try await call(interaction: true) { _, _, context in
                try await context.conversation.insertSticker(sticker)
            }
        } catch {
            record(error, from: .insertSticker)
        }
    }

    private func maxLength(ofFieldWith payload: ActionPayload) -> Int {
        for node in lastView.allNodes {
            if case .textField(let field) = node, field.onChange == payload || field.onSubmit == payload {
                return min(field.maxLength, Limits.maxTextLength)
            }
        }
        return Limits.maxTextLength
    }

    // MARK: Running app code

    private typealias HookBody = @Sendable (App, inout App.State, AppContext) async throws -> Void

    /// Runs a lifecycle hook; a failure is recorded and leaves the state unchanged. Not run once
    /// the app proved unreachable in this call.
    private func run(_ name: AppWire.Hook, _ hook: HookBody) async -> [PresentationRequest] {
        guard findings.unreachable == nil else { return [] }
        do {
            return try await call(interaction: false, hook)
        } catch {
            record(error, from: .hook(name))
            return []
        }
    }

    /// Runs app code with a fresh context; commits the state only when the code returns normally.
    private func call(interaction: Bool, _ hook: HookBody) async throws -> [PresentationRequest] {
        if let unreachable = findings.unreachable { throw unreachable }
        let gate = EffectGate(visible: lifecycle.isActive, transcript: lifecycle.style == .transcript, interaction: interaction)
        defer { gate.close() }
        let context = makeContext(gate: gate)
        var working = state
        // What the app sent in the session of the selected message replaced it: the new head is
        // the selected message now (its bubble is the one on screen), so the app's next change
        // starts from what it just sent, not from the message it was opened on.
        defer {
            if let sent = gate.lastSent, let session = sent.session, session == lifecycle.selectedMessage?.session {
                lifecycle.select(sent)
            }
        }
        do {
            try await hook(app, &working, context)
        } catch {
            // The state stays as before the hook, and so before what it sent.
            findings.threw(sent: gate.hasSent)
            throw error
        }
        findings.returned(sent: gate.hasSent)
        state = working
        return context.presentationRequests
    }

    private func makeContext(gate: EffectGate) -> AppContext {
        let conversation = Conversation(
            localParticipantIdentifier: configuration.localParticipant,
            remoteParticipantIdentifiers: configuration.remoteParticipants,
            selectedMessage: lifecycle.selectedMessage, appID: manifest.id,
            host: configuration.surface == .home ? NoConversationHost() : configuration.conversationHost, gate: gate)
        return AppContext(
            conversation: conversation, presentationStyle: lifecycle.style, surface: configuration.surface,
            container: manifest.keepsData ? configuration.container : RefusingContainer(appName: manifest.name), manifest: manifest,
            httpClient: configuration.httpClient, gate: gate, language: configuration.language)
    }

    private func record(_ error: any Error, from source: FailureSource) {
        if let error = error as? MessagesError {
            if error.code == .appUnavailable { findings.appUnreachable(error) }
            fail(error, detail: "\(source): \(error)")
        } else {
            fail(MessagesError(.unknown, "\(manifest.name) ran into a problem and could not finish that."), detail: "\(source): \(error)")
        }
    }

    private func fail(_ error: MessagesError, detail: String, cause: InstanceFailure.Cause = .app) {
        failure = InstanceFailure(error: error, detail: detail, cause: cause)
    }

    // MARK: Rendering

    private func update() -> InstanceUpdate {
        InstanceUpdate(
            appID: manifest.id, isActive: lifecycle.isActive, presentationStyle: lifecycle.style, modal: lifecycle.modal, view: lastView,
            error: failure)
    }

    private func render() async {
        guard lifecycle.isActive else {
            lastView = .empty
            return
        }
        // The last view stays, with the reason the app could not be reached.
        guard findings.unreachable == nil else { return }
        let environment = Self.environment(configuration: configuration, lifecycle: lifecycle)
        guard let drawer = app as? any RendersAsynchronously else {
            lastView = app.body(state: state, environment: environment)
            return
        }
        do {
            lastView = try await Self.draw(drawer, state: state, environment: environment)
        } catch {
            // The last view stays, with the reason it could not be drawn again.
            record(error, from: .hook(.render))
        }
    }

    private static func draw<Drawer: RendersAsynchronously>(
        _ drawer: Drawer, state: any Sendable, environment: ViewEnvironment
    ) async throws -> ViewNode {
        guard let state = state as? Drawer.State else { return .empty }
        return try await drawer.render(state: state, environment: environment)
    }

    private static func environment(configuration: InstanceConfiguration, lifecycle: InstanceLifecycle) -> ViewEnvironment {
        ViewEnvironment(
            presentationStyle: lifecycle.style, surface: configuration.surface, modal: lifecycle.modal,
            localParticipantIdentifier: configuration.localParticipant,
            remoteParticipantIdentifiers: configuration.surface == .home ? [] : configuration.remoteParticipants,
            selectedMessage: lifecycle.selectedMessage, language: configuration.language)
    }

    /// Runs `body` alone (one call at a time), then renders, shows (`InstanceConfiguration.show`),
    /// saves (`InstanceConfiguration.save`) and reports. A call the user did not cause
    /// (`userInitiated: false`, a delivery) keeps the error the user has not seen yet.
    private func serialized(userInitiated: Bool = true, _ body: () async -> Void) async -> InstanceUpdate {
        await enterQueue()
        findings = CallFindings()
        if userInitiated || resumeFailure != nil {
            failure = resumeFailure
        }
        resumeFailure = nil
        if needsRender {
            needsRender = false
            await render()
        }
        await body()
        await render()
        let result = update()
        await configuration.show?(result)
        // Saved before the next call's turn: a later call's send drops what this one saved, never
        // the reverse.
        if let save = configuration.save {
            await save(snapshot(), findings.stateOlderThanItsMessage)
        }
        exitQueue()
        return result
    }

    /// Returns when it is this call's turn: at once when no call runs, else once the calls that
    /// arrived before it have ended.
    private func enterQueue() async {
        guard calls.enter() == .wait else { return }
        await withCheckedContinuation { calls.wait($0) }  // resumed by the call before it, in `exitQueue`
    }

    /// Ends this call's turn, handing it to the oldest waiting call.
    private func exitQueue() {
        switch calls.exit() {
        case .idle: break
        case .resume(let next): next.resume()
        }
    }
}

