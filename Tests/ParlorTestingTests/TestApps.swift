import Foundation
import ParlorKit
import Synchronization

/// One hook or action call, as an app saw it.
struct AppEvent: Sendable, Equatable {
    var participant: ParticipantID
    var hook: String
    var message: MessageID?
    var remotes: [ParticipantID]
}

/// Every call the test apps see, in order, across participants.
final class EventLog: Sendable {
    private let events = Mutex<[AppEvent]>([])

    func record(_ hook: String, _ message: Message? = nil, context: AppContext) {
        let event = AppEvent(
            participant: context.conversation.localParticipantIdentifier, hook: hook, message: message?.id,
            remotes: context.conversation.remoteParticipantIdentifiers)
        events.withLock { $0.append(event) }
    }

    var all: [AppEvent] { events.withLock { $0 } }
    func hooks(of participant: ParticipantID) -> [String] { all.filter { $0.participant == participant }.map(\.hook) }
    func clear() { events.withLock { $0.removeAll() } }
}

/// A shared counter in one session: each participant adds to the number carried by the message
/// they tapped, so every update replaces the session's head.
struct CounterApp: MessagesApp {
    let log: EventLog

    var manifest: AppManifest { AppManifest(id: "org.parlor.test.counter", name: "Counter", icon: .asset("counter.png"), sendsExpiringMessages: true) }

    struct State: Codable, Sendable {
        var count = 0
        var loud = false
        var size = "S"
    }
    enum Action: Codable, Sendable { case add(Int), sendNow, sendTwice, expiring, cheat, setLoud(Bool), setSize(String) }
    var initialState: State { State() }

    static func count(of message: Message?) -> Int? {
        guard let url = message?.url else { return nil }
        return try? QueryItems(url: url).int("n")
    }

    static func message(_ count: Int, session: Session?, expiring: Bool = false) -> Message {
        Message(
            session: session ?? Session(), url: URL(string: "https://parlor.example/counter?n=\(count)"),
            layout: .template(TemplateLayout(caption: "Count \(count)")), summaryText: "Counted to \(count)", shouldExpire: expiring)
    }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            Text("count \(state.count)", id: "count")
            Button("Add", action: Action.add(1))
            Button("Add 10", action: Action.add(10))
            Button("Send now", action: Action.sendNow)
            Button("Send twice", action: Action.sendTwice)
            Button("Expiring", action: Action.expiring)
            Button("Cheat", action: Action.cheat)
            Toggle("Loud", isOn: state.loud, id: "loud", onChange: Action.setLoud)
            Picker("Size", selection: state.size, options: [("Small", "S"), ("Large", "L")], id: "size", onChange: Action.setSize)
            Text("loud \(state.loud), size \(state.size)", id: "settings")
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        log.record("handle", context: context)
        let selected = context.conversation.selectedMessage
        // Computed from the selected message, so a re-run on a newer head counts on from it.
        let base = Self.count(of: selected) ?? state.count
        switch action {
        case .add(let amount):
            try await context.conversation.insert(Self.message(base + amount, session: selected?.session))
        case .sendNow:
            let sent = try await context.conversation.send(Self.message(base + 1, session: selected?.session))
            state.count = Self.count(of: sent) ?? state.count
        case .sendTwice:
            let message = Self.message(base + 1, session: selected?.session)
            let first = try await context.conversation.send(message)
            let second = try await context.conversation.send(message)
            log.record(first == second ? "same message twice" : "two different messages", second, context: context)
        case .expiring:
            try await context.conversation.insert(Self.message(1, session: nil, expiring: true))
        case .cheat:
            try await context.conversation.insert(Self.message(base + 5, session: selected?.session))
        case .setLoud(let loud):
            state.loud = loud
        case .setSize(let size):
            state.size = size
        }
    }

    /// A count goes up by 1 or 10 from the head it replaces; anything else is forged.
    func validate(_ message: Message, replacing head: Message?) throws {
        guard let count = Self.count(of: message) else { throw MessagesError(.actionRefused, "A count needs a number.") }
        let previous = Self.count(of: head) ?? 0
        guard count == previous + 1 || count == previous + 10 else {
            throw MessagesError(.actionRefused, "A count goes up by 1 or 10, not from \(previous) to \(count).")
        }
    }

    func willBecomeActive(state: inout State, context: AppContext) async throws {
        log.record("willBecomeActive", context.conversation.selectedMessage, context: context)
        state.count = Self.count(of: context.conversation.selectedMessage) ?? 0
    }
    func didBecomeActive(state: inout State, context: AppContext) async throws { log.record("didBecomeActive", context: context) }
    func willResignActive(state: inout State, context: AppContext) async throws { log.record("willResignActive", context: context) }
    func didResignActive(state: inout State, context: AppContext) async throws { log.record("didResignActive", context: context) }
    func willSelect(_ message: Message, state: inout State, context: AppContext) async throws { log.record("willSelect", message, context: context) }
    func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        log.record("didSelect", message, context: context)
        state.count = Self.count(of: message) ?? state.count
    }
    func didReceive(_ message: Message, state: inout State, context: AppContext) async throws { log.record("didReceive", message, context: context) }
    func didStartSending(_ message: Message, state: inout State, context: AppContext) async throws {
        log.record("didStartSending", message, context: context)
    }
    func didCancelSending(_ message: Message, state: inout State, context: AppContext) async throws {
        log.record("didCancelSending", message, context: context)
    }
}

/// An app whose messages use a live layout: it draws the bubble itself.
struct LiveApp: MessagesApp {
    var manifest: AppManifest { AppManifest(id: "org.parlor.test.live", name: "Live", icon: .asset("live.png"), drawsLiveMessages: true) }

    struct State: Codable, Sendable { var shown: String? }
    enum Action: Codable, Sendable { case post }
    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            Text("live \(state.shown ?? "none") in \(environment.presentationStyle.rawValue)")
            Button("Post", action: Action.post)
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        let session = context.conversation.selectedMessage?.session
        let alternate = TemplateLayout(caption: "Live update")
        try await context.conversation.insert(Message(
            session: session ?? Session(), url: URL(string: "https://parlor.example/live?v=\(UUID().uuidString)"),
            layout: .live(LiveLayout(alternateLayout: alternate)), summaryText: "Live updated"))
    }

    func willBecomeActive(state: inout State, context: AppContext) async throws {
        state.shown = context.conversation.selectedMessage?.url.flatMap { try? QueryItems(url: $0)["v"] }.map { String($0.prefix(8)) }
    }
}
