import Foundation
import ParlorKit
import Synchronization

/// One call of app code as the app saw it.
struct HookCall: Sendable, Equatable, CustomStringConvertible {
    /// The hook's name, or `handle(<action>)`.
    var name: String
    /// `context.presentationStyle` during the call.
    var style: PresentationStyle
    /// `context.conversation.selectedMessage?.id` during the call.
    var selected: MessageID?
    /// The message or style the hook was called with.
    var argument: String?

    var description: String { "\(name)(\(argument ?? ""))" }
}

/// Every call of a `RecordingApp`, in order, and the contexts they were given.
final class HookLog: Sendable {
    private let calls = Mutex<[HookCall]>([])
    private let contexts = Mutex<[AppContext]>([])

    func record(_ name: String, _ argument: String? = nil, context: AppContext) {
        calls.withLock {
            $0.append(HookCall(name: name, style: context.presentationStyle, selected: context.conversation.selectedMessage?.id, argument: argument))
        }
        contexts.withLock { $0.append(context) }
    }

    var all: [HookCall] { calls.withLock { $0 } }
    var names: [String] { all.map(\.name) }
    var lastContext: AppContext? { contexts.withLock { $0.last } }
    func clear() { calls.withLock { $0.removeAll() } }
}

/// Suspends callers until opened: lets a test hold an action in the middle of its work.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

/// A test app that records every hook and action call into a `HookLog` and lets a test add
/// behaviour to any hook through `script`.
struct RecordingApp: MessagesApp {
    let log: HookLog
    var gate: Gate
    /// Runs inside every hook and action after it is recorded, with the hook's name.
    var script: @Sendable (String, inout State, AppContext) async throws -> Void = { _, _, _ in }

    var manifest: AppManifest {
        AppManifest(id: "org.parlor.test.recording", name: "Recorder", icon: .asset("icon.png"), allowedHosts: ["api.example.org"], keepsData: true)
    }

    struct State: Codable, Sendable, Equatable {
        var count = 0
        var title = ""
    }

    enum Action: Codable, Sendable {
        case start, increment, typed(String), stage, sendUpdate, slow, fast, crash, showModal, locked
    }

    struct Crash: Error {}

    var initialState: State { State() }

    static let sticker: Sticker = {
        do {
            return try Sticker(id: "pack/star.png", image: .asset("star.png"), localizedDescription: "A star")
        } catch {
            preconditionFailure("the test sticker is valid: \(error)")
        }
    }()

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            Text("count \(state.count)", id: "count")
            Text("title \(state.title)", id: "title-text")
            if state.count == 0 { Button("Start", action: Action.start) }
            Button("Increment", action: Action.increment)
            Button("Disabled", action: Action.locked, disabled: true, id: "disabled")
            Button("Stage", action: Action.stage)
            Button("Send", action: Action.sendUpdate)
            Button("Slow", action: Action.slow)
            Button("Fast", action: Action.fast)
            Button("Crash", action: Action.crash)
            Button("Modal", action: Action.showModal)
            Button("Foreign", action: "not an Action")
            TextField("Title", text: state.title, id: "title", maxLength: 10, onChange: Action.typed)
            StickerBrowser(label: "Stickers", stickers: [Self.sticker])
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        log.record("handle(\(action))", context: context)
        try await script("handle", &state, context)
        switch action {
        case .start, .increment:
            state.count += 1
        case .typed(let text):
            state.title = text
        case .stage:
            try await context.conversation.insert(Self.message(in: context.conversation.selectedMessage?.session, count: state.count))
        case .sendUpdate:
            state.count += 1
            try await context.conversation.send(Self.message(in: context.conversation.selectedMessage?.session, count: state.count))
        case .slow:
            log.record("slow started", context: context)
            state.count += 1
            await gate.wait()
            log.record("slow finished", context: context)
        case .fast:
            log.record("fast", context: context)
            state.count += 1
        case .crash:
            state.count += 100
            throw Crash()
        case .showModal:
            context.present(modal: "details")
        case .locked:
            state.count = -1
        }
    }

    static func message(in session: Session?, count: Int) -> Message {
        Message(
            session: session ?? Session(), url: URL(string: "https://parlor.example/count?n=\(count)"),
            layout: .template(TemplateLayout(caption: "Count \(count)")), summaryText: "Counted \(count)")
    }

    private func hook(_ name: String, _ argument: String? = nil, _ state: inout State, _ context: AppContext) async throws {
        log.record(name, argument, context: context)
        try await script(name, &state, context)
    }

    func willBecomeActive(state: inout State, context: AppContext) async throws { try await hook("willBecomeActive", nil, &state, context) }
    func didBecomeActive(state: inout State, context: AppContext) async throws { try await hook("didBecomeActive", nil, &state, context) }
    func willResignActive(state: inout State, context: AppContext) async throws { try await hook("willResignActive", nil, &state, context) }
    func didResignActive(state: inout State, context: AppContext) async throws { try await hook("didResignActive", nil, &state, context) }
    func willSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        try await hook("willSelect", message.id.description, &state, context)
    }
    func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        try await hook("didSelect", message.id.description, &state, context)
    }
    func didReceive(_ message: Message, state: inout State, context: AppContext) async throws {
        try await hook("didReceive", message.id.description, &state, context)
    }
    func didStartSending(_ message: Message, state: inout State, context: AppContext) async throws {
        try await hook("didStartSending", message.id.description, &state, context)
    }
    func didCancelSending(_ message: Message, state: inout State, context: AppContext) async throws {
        try await hook("didCancelSending", message.id.description, &state, context)
    }
    func willTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws {
        try await hook("willTransition", style.rawValue, &state, context)
    }
    func didTransition(to style: PresentationStyle, state: inout State, context: AppContext) async throws {
        try await hook("didTransition", style.rawValue, &state, context)
    }
}
