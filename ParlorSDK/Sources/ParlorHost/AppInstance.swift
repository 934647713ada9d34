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
    private var isActive = false
    private var style: PresentationStyle = .compact
    private var selectedMessage: Message?
    private var modal: String?
    private var lastView: ViewNode = .empty
    /// The app draws with a call (`RendersAsynchronously`) and `lastView` was not drawn since
    /// the instance resumed: drawn before the first call is handled, which checks actions against it.
    private var needsRender = false
    private var failure: InstanceFailure?
    /// The state is older than a message the instance sent during the call running now: a hook
    /// that sent then threw, and no hook that sent has returned since.
    private var stateOlderThanItsMessage = false
    /// Why the snapshot could not be resumed; reported with the first call's update too.
    private var resumeFailure: InstanceFailure?
    /// A first-come first-served lock, so one call's awaits never let another call interleave.
    /// The app could not be reached during this call (`appUnavailable`: an app outside the
    /// process that is gone, late or unreadable): the call's other hooks and its render are not
    /// tried, so a hung app costs its user one deadline, not one per hook.
    private var unreachable = false
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

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
                isActive = snapshot.isActive
                style = snapshot.presentationStyle
                selectedMessage = snapshot.selectedMessage
                modal = snapshot.modal
                needsRender = isActive && app is any RendersAsynchronously
                if isActive {
                    // The view the user last saw: what `current()` shows and what actions are checked against.
                    lastView = app.body(
                        state: state,
                        environment: Self.environment(configuration: configuration, style: style, modal: modal, selectedMessage: selectedMessage))
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
            guard !isActive else { return }
            selectedMessage = nil
            await becomeActive(style: .compact)
        }
    }

    public func openHome() async -> InstanceUpdate {
        await serialized {
            configuration.surface = .home
            guard !isActive else { return }
            await becomeActive(style: .expanded)
        }
    }

    public func tap(_ message: Message) async -> InstanceUpdate {
        await serialized {
            guard isActive, style != .transcript else {
                selectedMessage = message
                await becomeActive(style: .expanded)
                return
            }
            let willSelect = await run(.willSelect) { app, state, context in
                try await app.willSelect(message, state: &state, context: context)
            }
            selectedMessage = message
            let didSelect = await run(.didSelect) { app, state, context in
                try await app.didSelect(message, state: &state, context: context)
            }
            await transition(to: .expanded, depth: 0)
            await apply(willSelect + didSelect, depth: 0)
        }
    }

    public func openInTranscript(_ message: Message) async -> InstanceUpdate {
        await serialized {
            selectedMessage = message
            await becomeActive(style: .transcript)
        }
    }

    public func receive(_ message: Message) async -> InstanceUpdate {
        await serialized(userInitiated: false) {
            guard isActive, style != .transcript else { return }
            let requests = await run(.didReceive) { app, state, context in
                try await app.didReceive(message, state: &state, context: context)
            }
            await apply(requests, depth: 0)
        }
    }

    public func perform(_ event: ViewEvent) async -> InstanceUpdate {
        await serialized {
            guard isActive else {
                fail(MessagesError(.sendWhileNotVisible, "\(manifest.name) is not open."), detail: "event while inactive", cause: .client)
                return
            }
            guard style != .transcript else {
                fail(
                    MessagesError(.apiUnavailableInPresentationContext, "Open \(manifest.name) by tapping its message to use it."),
                    detail: "event in transcript style", cause: .client)
                return
            }
            switch event.kind {
            case .dismissModal:
                modal = nil
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
            guard isActive, style != .transcript else { return }
            let requests = await run(.didStartSending) { app, state, context in
                try await app.didStartSending(message, state: &state, context: context)
            }
            await apply(requests, depth: 0)
        }
    }

    public func didCancelSending(_ message: Message) async -> InstanceUpdate {
        await serialized {
            guard isActive, style != .transcript else { return }
            let requests = await run(.didCancelSending) { app, state, context in
                try await app.didCancelSending(message, state: &state, context: context)
            }
            await apply(requests, depth: 0)
        }
    }

    public func updateRemoteParticipants(_ participants: [ParticipantID]) {
        configuration.remoteParticipants = participants
    }

    public func current() -> InstanceUpdate { update() }

    public func settle() async {
        await acquire()
        release()
    }

    public func snapshot() -> InstanceSnapshot {
        InstanceSnapshot(
            state: (try? InstanceSnapshot.encoder.encode(state)) ?? Data("null".utf8), isActive: isActive,
            presentationStyle: style, selectedMessage: selectedMessage, modal: modal)
    }

    // MARK: Lifecycle steps

    private func becomeActive(style newStyle: PresentationStyle) async {
        style = newStyle
        modal = nil
        isActive = true
        let will = await run(.willBecomeActive) { app, state, context in
            try await app.willBecomeActive(state: &state, context: context)
        }
        let did = await run(.didBecomeActive) { app, state, context in
            try await app.didBecomeActive(state: &state, context: context)
        }
        await apply(will + did, depth: 0)
    }

    private func resign(depth: Int) async {
        guard isActive else { return }
        // Presentation requests made while resigning are dropped: the app is closing, and opening
        // it again starts from the drawer's or the message's style.
        _ = await run(.willResignActive) { app, state, context in
            try await app.willResignActive(state: &state, context: context)
        }
        isActive = false
        modal = nil
        _ = await run(.didResignActive) { app, state, context in
            try await app.didResignActive(state: &state, context: context)
        }
    }

    private func transition(to newStyle: PresentationStyle, depth: Int) async {
        guard isActive, newStyle != style, style != .transcript, depth < Self.maxRequestDepth else { return }
        let will = await run(.willTransition) { app, state, context in
            try await app.willTransition(to: newStyle, state: &state, context: context)
        }
        style = newStyle
        let did = await run(.didTransition) { app, state, context in
            try await app.didTransition(to: newStyle, state: &state, context: context)
        }
        await apply(will + did, depth: depth + 1)
    }

    private func apply(_ requests: [PresentationRequest], depth: Int) async {
        // A live bubble cannot change how it is shown: it cannot dismiss itself or present a modal.
        guard style != .transcript else { return }
        for request in requests {
            switch request {
            case .style(let requested): await transition(to: requested, depth: depth)
            case .dismiss: await resign(depth: depth)
            case .modal(let name): modal = name
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
                selectedMessage = error.sessionHead
                if attempt == MessageRules.maxRebases { record(error, hook: AppWire.Hook.handle.rawValue) }
            } catch {
                record(error, hook: AppWire.Hook.handle.rawValue)
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
            record(error, hook: "insertSticker")
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
        guard !unreachable else { return [] }
        do {
            return try await call(interaction: false, hook)
        } catch {
            record(error, hook: name.rawValue)
            return []
        }
    }

    /// Runs app code with a fresh context; commits the state only when the code returns normally.
    private func call(interaction: Bool, _ hook: HookBody) async throws -> [PresentationRequest] {
        if unreachable, let failure { throw failure.error }
        let gate = EffectGate(visible: isActive, transcript: style == .transcript, interaction: interaction)
        defer { gate.close() }
        let context = makeContext(gate: gate)
        var working = state
        do {
            try await hook(app, &working, context)
        } catch {
            // The state stays as before the hook, and so before what it sent.
            if gate.hasSent { stateOlderThanItsMessage = true }
            throw error
        }
        if gate.hasSent { stateOlderThanItsMessage = false }
        state = working
        return context.presentationRequests
    }

    private func makeContext(gate: EffectGate) -> AppContext {
        let conversation = Conversation(
            localParticipantIdentifier: configuration.localParticipant,
            remoteParticipantIdentifiers: configuration.remoteParticipants,
            selectedMessage: selectedMessage, appID: manifest.id,
            host: configuration.surface == .home ? NoConversationHost() : configuration.conversationHost, gate: gate)
        return AppContext(
            conversation: conversation, presentationStyle: style, surface: configuration.surface,
            container: manifest.keepsData ? configuration.container : RefusingContainer(appName: manifest.name), manifest: manifest,
            httpClient: configuration.httpClient, gate: gate)
    }

    private func record(_ error: any Error, hook: String) {
        if let error = error as? MessagesError {
            if error.code == .appUnavailable { unreachable = true }
            fail(error, detail: "\(hook): \(error)")
        } else {
            fail(MessagesError(.unknown, "\(manifest.name) ran into a problem and could not finish that."), detail: "\(hook): \(error)")
        }
    }

    private func fail(_ error: MessagesError, detail: String, cause: InstanceFailure.Cause = .app) {
        failure = InstanceFailure(error: error, detail: detail, cause: cause)
    }

    // MARK: Rendering

    private func update() -> InstanceUpdate {
        InstanceUpdate(
            appID: manifest.id, isActive: isActive, presentationStyle: style, modal: modal, view: lastView, error: failure)
    }

    private func render() async {
        guard isActive else {
            lastView = .empty
            return
        }
        // The last view stays, with the reason the app could not be reached.
        guard !unreachable else { return }
        let environment = Self.environment(configuration: configuration, style: style, modal: modal, selectedMessage: selectedMessage)
        guard let drawer = app as? any RendersAsynchronously else {
            lastView = app.body(state: state, environment: environment)
            return
        }
        do {
            lastView = try await Self.draw(drawer, state: state, environment: environment)
        } catch {
            // The last view stays, with the reason it could not be drawn again.
            record(error, hook: AppWire.Hook.render.rawValue)
        }
    }

    private static func draw<Drawer: RendersAsynchronously>(
        _ drawer: Drawer, state: any Sendable, environment: ViewEnvironment
    ) async throws -> ViewNode {
        guard let state = state as? Drawer.State else { return .empty }
        return try await drawer.render(state: state, environment: environment)
    }

    private static func environment(
        configuration: InstanceConfiguration, style: PresentationStyle, modal: String?, selectedMessage: Message?
    ) -> ViewEnvironment {
        ViewEnvironment(
            presentationStyle: style, surface: configuration.surface, modal: modal,
            localParticipantIdentifier: configuration.localParticipant,
            remoteParticipantIdentifiers: configuration.surface == .home ? [] : configuration.remoteParticipants,
            selectedMessage: selectedMessage)
    }

    /// Runs `body` alone (one call at a time), then renders, shows (`InstanceConfiguration.show`),
    /// saves (`InstanceConfiguration.save`) and reports. A call the user did not cause
    /// (`userInitiated: false`, a delivery) keeps the error the user has not seen yet.
    private func serialized(userInitiated: Bool = true, _ body: () async -> Void) async -> InstanceUpdate {
        await acquire()
        stateOlderThanItsMessage = false
        unreachable = false
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
        // Saved before the lock passes on: a later call's send drops what this one saved, never
        // the reverse.
        if let save = configuration.save {
            await save(snapshot(), stateOlderThanItsMessage)
        }
        release()
        return result
    }

    /// Takes the one-call lock, first come first served.
    private func acquire() async {
        if busy {
            await withCheckedContinuation { waiters.append($0) }  // handed over with `busy` still true
        }
        busy = true
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()  // hands the lock over: `busy` stays true
        }
    }
}

