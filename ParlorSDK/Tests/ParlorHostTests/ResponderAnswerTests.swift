import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Testing

/// An app outside the host answers with only what Parlor will use: no state when it did not
/// change, and no view once the app is closed. The host shows the same thing either way.
@Suite("What an answer from an app outside the host carries")
struct ResponderAnswerTests {
    /// Counts its bumps and its closings; `close` dismisses it, as Tic-Tac-Toe does after a move;
    /// opened on a message, it adds ten bumps.
    struct Closer: MessagesApp {
        var manifest: AppManifest { AppManifest(id: "org.parlor.test.closer", name: "Closer", icon: .asset("icon.png")) }
        struct State: Codable, Sendable, Equatable {
            var bumps = 0
            var closings = 0
        }
        enum Action: Codable, Sendable { case bump, stay, close }
        var initialState: State { State() }

        func body(state: State, environment: ViewEnvironment) -> ViewNode {
            VStack {
                Text("bumps \(state.bumps)")
                Button("Bump", action: Action.bump)
                Button("Stay", action: Action.stay)
                Button("Close", action: Action.close)
            }
        }

        func handle(_ action: Action, state: inout State, context: AppContext) async throws {
            switch action {
            case .bump: state.bumps += 1
            case .stay: break
            case .close: context.dismiss()
            }
        }

        func didResignActive(state: inout State, context: AppContext) async throws {
            state.closings += 1
        }

        func willBecomeActive(state: inout State, context: AppContext) async throws {
            if context.conversation.selectedMessage != nil { state.bumps += 10 }
        }
    }

    static func call(_ hook: AppWire.Hook, state: JSONValue?, action: Closer.Action? = nil, style: PresentationStyle = .expanded) throws -> AppWire.Call {
        let context = AppWire.Context(
            style: style, surface: .messages, modal: nil, localParticipant: ParticipantID(), remoteParticipants: [], selectedMessage: nil)
        let action = try action.map { try JSONValue(json: try JSONEncoder().encode($0)) }
        return AppWire.Call(id: UUID().uuidString, hook: hook, state: state, context: context, action: action)
    }

    static func decoded(_ state: JSONValue?) throws -> Closer.State? {
        try state.map { try JSONDecoder().decode(Closer.State.self, from: $0.json) }
    }

    @Test("The state is sent only when it changed, the view only while the app stays on screen")
    func answersCarryWhatIsUsed() async throws {
        let link = UnimplementedHookTests.CountingLink(Closer())
        let bumped = try await link.call(Self.call(.handle, state: .null, action: .bump), container: nil, upload: nil)
        #expect(try Self.decoded(bumped.state) == Closer.State(bumps: 1))
        #expect(bumped.view?.visibleTexts.contains("bumps 1") == true)
        let state = try #require(bumped.state)

        let stayed = try await link.call(Self.call(.handle, state: state, action: .stay), container: nil, upload: nil)
        #expect(stayed.state == nil, "an unchanged state is not sent back")
        #expect(stayed.view?.visibleTexts.contains("bumps 1") == true, "the app is still on screen")

        let closed = try await link.call(Self.call(.handle, state: state, action: .close), container: nil, upload: nil)
        #expect(closed.effects == [.dismiss])
        #expect(closed.view == nil, "a dismissed app is not shown")

        let live = try await link.call(Self.call(.handle, state: state, action: .close, style: .transcript), container: nil, upload: nil)
        #expect(live.view != nil, "a live bubble cannot dismiss itself, so it stays on screen")

        let resigning = try await link.call(Self.call(.willResignActive, state: state), container: nil, upload: nil)
        #expect(resigning.state == nil, "the app has no willResignActive: nothing changed")
        #expect(resigning.view == nil, "an app about to close is not shown")

        let resigned = try await link.call(Self.call(.didResignActive, state: state), container: nil, upload: nil)
        #expect(try Self.decoded(resigned.state) == Closer.State(bumps: 1, closings: 1))
        #expect(resigned.view == nil, "a resigned app is not shown")
    }

    /// What the host shows was already so before answers were trimmed; this keeps it so.
    @Test("Hosted, the app shows the same screens; closing it costs no render call, and a tap one call")
    func hostShowsTheSameScreens() async throws {
        let link = UnimplementedHookTests.CountingLink(Closer())
        let app = RemoteApp(manifest: Closer().manifest, link: link)
        let instance = AppInstance(
            app: app,
            configuration: InstanceConfiguration(
                localParticipant: ParticipantID(), remoteParticipants: [ParticipantID()], conversationHost: FakeConversationHost(),
                container: InMemoryContainer()))
        let opened = await instance.openFromDrawer()
        #expect(opened.error == nil)
        #expect(opened.view.visibleTexts.contains("bumps 0"))

        let bumped = await instance.perform(.action(try opened.action("Bump")))
        #expect(bumped.view.visibleTexts.contains("bumps 1"))
        let stayed = await instance.perform(.action(try bumped.action("Stay")))
        #expect(stayed.error == nil)
        #expect(stayed.view.visibleTexts.contains("bumps 1"), "an answer without a state keeps the state and its view")

        let before = link.hooksReached.count
        let closed = await instance.perform(.action(try stayed.action("Close")))
        #expect(closed.error == nil)
        #expect(!closed.isActive)
        #expect(closed.view == .empty)
        #expect(!link.hooksReached.dropFirst(before).contains(.render), "\(link.hooksReached.dropFirst(before))")

        let reopened = await instance.openFromDrawer()
        #expect(reopened.error == nil)
        #expect(reopened.view.visibleTexts.contains("bumps 1"), "the state the app kept while closing")
        _ = await instance.dismiss()
        let beforeTap = link.hooksReached.count
        var message = Message(url: URL(string: "https://example.org/closer?n=1"), layout: .template(TemplateLayout(caption: "Closer")))
        message.appID = Closer().manifest.id
        message.senderParticipantIdentifier = ParticipantID()
        message.isPending = false
        let tapped = await instance.tap(message)
        #expect(tapped.error == nil)
        #expect(tapped.view.visibleTexts.contains("bumps 11"))
        #expect(Array(link.hooksReached.dropFirst(beforeTap)) == [.willBecomeActive], "a tap is one call: its answer's view is shown")
    }
}
