import Foundation
@_spi(Hosting) import ParlorHost
import ParlorKit
import Synchronization
import Testing

/// Hooks an app leaves to ParlorKit's defaults cost no round trip after the first: the app side
/// (`AppResponder`) answers `unimplemented`, and the link (`PendingCalls`) stops asking.
@Suite("Hooks an app outside the host has no code for")
struct UnimplementedHookTests {
    /// Counts its openings in `willBecomeActive` (which also runs the default `didBecomeActive`,
    /// which must not make its own hook look unimplemented); every other hook is ParlorKit's default.
    struct Opener: MessagesApp {
        var manifest: AppManifest { AppManifest(id: "org.parlor.test.opener", name: "Opener", icon: .asset("icon.png")) }
        struct State: Codable, Sendable { var opened = 0 }
        enum Action: Codable, Sendable { case nothing }
        var initialState: State { State() }
        func body(state: State, environment: ViewEnvironment) -> ViewNode { Text("opened \(state.opened)", id: "opened") }
        func handle(_ action: Action, state: inout State, context: AppContext) async throws {}
        func willBecomeActive(state: inout State, context: AppContext) async throws {
            try await didBecomeActive(state: &state, context: context)
            state.opened += 1
        }
    }

    /// Refuses every message: its `validate` is its own.
    struct Refuser: MessagesApp {
        var manifest: AppManifest { AppManifest(id: "org.parlor.test.refuser", name: "Refuser", icon: .asset("icon.png")) }
        struct State: Codable, Sendable {}
        enum Action: Codable, Sendable { case nothing }
        var initialState: State { State() }
        func body(state: State, environment: ViewEnvironment) -> ViewNode { Text("no") }
        func handle(_ action: Action, state: inout State, context: AppContext) async throws {}
        func validate(_ message: Message, replacing head: Message?) throws {
            throw MessagesError(.actionRefused, "Never.")
        }
    }

    /// A link to `AppResponder` through `PendingCalls`, as the server's and the simulator's are,
    /// that records each call reaching the app.
    final class CountingLink<App: MessagesApp>: AppLink {
        let responder: AppResponder<App>
        let calls = PendingCalls(appName: "Test", deadline: .seconds(30))
        let reached = Mutex<[AppWire.Hook]>([])

        init(_ app: App) { responder = AppResponder(app: app) }

        func call(_ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
            try await calls.call(call, container: container) { sent in
                reached.withLock { $0.append(sent.hook) }
                Task {
                    switch await responder.answer(sent, readContainer: { _ in .null }) {
                    case .result(let result): calls.answer(result)
                    case .refuse(let refusal): calls.refuse(refusal)
                    case .containerGet, .upload: break
                    }
                }
            }
        }

        var hooksReached: [AppWire.Hook] { reached.withLock { $0 } }
    }

    static func call(_ hook: AppWire.Hook, state: JSONValue = .null, message: Message? = nil) -> AppWire.Call {
        let context = AppWire.Context(
            style: .expanded, surface: .messages, modal: nil, localParticipant: ParticipantID(), remoteParticipants: [], selectedMessage: nil)
        let hasContext = hook != .validate && hook != .rebase
        return AppWire.Call(id: UUID().uuidString, hook: hook, state: hasContext ? state : nil, context: hasContext ? context : nil, message: message)
    }

    static let message = Message(url: URL(string: "https://example.org/poll?q=1"), layout: .template(TemplateLayout(caption: "Poll")))

    @Test("A default hook is asked once per connection, then answered by the link; the app's own hooks are asked every time")
    func defaultHooksAreAskedOnce() async throws {
        let link = CountingLink(Opener())
        let first = try await link.call(Self.call(.didBecomeActive), container: nil, upload: nil)
        #expect(first.unimplemented == true)
        #expect(first.state == nil && first.effects == nil, "a default hook changes nothing")
        let again = try await link.call(Self.call(.didBecomeActive), container: nil, upload: nil)
        #expect(again.unimplemented == nil && again.state == nil && again.effects == nil)

        var state = JSONValue.null
        for expected in 1...2 {
            let opened = try await link.call(Self.call(.willBecomeActive, state: state), container: nil, upload: nil)
            #expect(opened.unimplemented == nil, "willBecomeActive is the app's own")
            state = try #require(opened.state)
            #expect(opened.view?.visibleTexts == ["opened \(expected)"])
        }
        // validate and rebase left to the defaults: accepted, and left staged, without asking again.
        for _ in 1...3 {
            let checked = try await link.call(Self.call(.validate, message: Self.message), container: nil, upload: nil)
            #expect(checked.message == nil && checked.state == nil)
        }
        #expect(link.hooksReached == [.didBecomeActive, .willBecomeActive, .willBecomeActive, .validate])
        #expect(link.calls.unimplementedHooks == [.didBecomeActive, .validate])
    }

    @Test("An app's own validate is asked about every message, and its refusal stands each time")
    func ownValidateIsAlwaysAsked() async throws {
        let link = CountingLink(Refuser())
        for _ in 1...2 {
            await #expect(throws: MessagesError.self) { try await link.call(Self.call(.validate, message: Self.message), container: nil, upload: nil) }
        }
        #expect(link.hooksReached == [.validate, .validate])
        #expect(link.calls.unimplementedHooks.isEmpty)
    }

    @Test("handle and render are always asked, even when an app claims it has no code for them; a new connection asks again")
    func handleAndRenderAreAlwaysAsked() async throws {
        let calls = PendingCalls(appName: "Liar", deadline: .seconds(30))
        let sent = Mutex<[AppWire.Hook]>([])
        for hook in [AppWire.Hook.handle, .render, .handle, .render, .didSelect, .didSelect] {
            _ = try await calls.call(Self.call(hook), container: nil) { call in
                sent.withLock { $0.append(call.hook) }
                calls.answer(AppWire.Result(id: call.id, view: .empty, unimplemented: true))
            }
        }
        #expect(sent.withLock { $0 } == [.handle, .render, .handle, .render, .didSelect])

        // Another connection of the same app (perhaps an upgraded copy) is asked again.
        let upgraded = PendingCalls(appName: "Liar", deadline: .seconds(30))
        let reached = Mutex(0)
        _ = try await upgraded.call(Self.call(.didSelect), container: nil) { call in
            reached.withLock { $0 += 1 }
            upgraded.answer(AppWire.Result(id: call.id))
        }
        #expect(reached.withLock { $0 } == 1)
    }
}
