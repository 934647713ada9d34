import Foundation
import ParlorKit
import ParlorServer
import Synchronization
import Testing

/// An app outside the server that sends a message again with the same id (a retry) gets the
/// message already sent: committed once, checked by the app once, and no conflict even when the
/// session has moved on since.
@Suite("Apps outside the server: a message sent again")
struct RemoteAppResendTests {
    /// The URLs of the messages the app was asked to check, in order.
    final class Checks: Sendable {
        private let urls = Mutex<[URL]>([])
        func record(_ url: URL?) { if let url { urls.withLock { $0.append(url) } } }
        var all: [URL] { urls.withLock { $0 } }
    }

    /// "Send twice" sends `first` twice; opened on `first`, "Move on" sends `second` in its place,
    /// then `first` again.
    struct Resender: MessagesApp {
        let checks: Checks
        let first: Message
        let second: Message

        var manifest: AppManifest {
            AppManifest(id: Probe.id, name: "Probe", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#))
        }
        struct State: Codable, Sendable {}
        enum Action: Codable, Sendable { case sendTwice, moveOn }
        var initialState: State { State() }

        func body(state: State, environment: ViewEnvironment) -> ViewNode {
            VStack {
                Button("Send twice", action: Action.sendTwice)
                Button("Move on", action: Action.moveOn)
            }
        }

        func handle(_ action: Action, state: inout State, context: AppContext) async throws {
            switch action {
            case .sendTwice:
                _ = try await context.conversation.send(first)
                _ = try await context.conversation.send(first)
            case .moveOn:
                _ = try await context.conversation.send(second)
                _ = try await context.conversation.send(first)
            }
        }

        func validate(_ message: Message, replacing head: Message?) throws {
            checks.record(message.url)
        }
    }

    @Test("A message an outside app sends again is the one already sent: committed once, checked once, even after its session moved on")
    func resentMessageIsTheOneSent() async throws {
        let session = Session()
        let first = Message(session: session, url: URL(string: "https://resender.example/?n=1"), layout: .template(TemplateLayout(caption: "first")))
        let second = Message(session: session, url: URL(string: "https://resender.example/?n=2"), layout: .template(TemplateLayout(caption: "second")))
        let checks = Checks()
        let app = Resender(checks: checks, first: first, second: second)
        try await RemoteAppTests.withRegisteredProbe(manifest: app.manifest) { setting in
            let (api, port, alice, bob, direct) = (setting.api, setting.port, setting.alice, setting.bob, setting.direct)
            try await RemoteAppTests.withRunner(app, port: port, secret: setting.secret) {
                let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
                let opened = try await socket.openApp(RemoteAppTests.probe, in: direct.id)
                try await socket.activate("Send twice", in: opened, conversation: direct.id)
                let sentTwice = try await socket.appUpdate()
                #expect(sentTwice.error == nil, "\(String(describing: sentTwice.error))")
                #expect(try await api.messages(in: direct.id, as: bob).map(\.id) == [first.id])
                #expect(checks.all == [first.url].compactMap { $0 }, "the copy was not checked again")

                let tapped = try await socket.tapMessage(first.id, in: direct.id)
                try await socket.activate("Move on", in: tapped, conversation: direct.id)
                let movedOn = try await socket.appUpdate()
                #expect(movedOn.error == nil, "a copy of a message the session moved past is no conflict: \(String(describing: movedOn.error))")
                #expect(try await api.messages(in: direct.id, as: bob).map(\.id) == [first.id, second.id])
                #expect(checks.all == [first.url, second.url].compactMap { $0 })
                await socket.disconnect()
            }
        }
    }
}
