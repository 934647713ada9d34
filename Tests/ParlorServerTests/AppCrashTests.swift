import Foundation
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import ParlorStoreSQLite
import Testing

/// A crash between an app's message and its saved state: the message an app sends from a hook is
/// committed before the hook returns, and the state that produced it is saved only after.
@Suite("An app that sends from a hook, and a crash before its state is saved")
struct AppCrashTests {
    @Test("A crash image taken while the hook still runs after its send reopens the app afresh, never with the state from before the message")
    func crashBetweenMessageAndState() async throws {
        let gate = Gate()
        let server = try Self.server(gate: gate)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-crash-\(UUID().uuidString)", isDirectory: true)
        let crashed = folder.appendingPathComponent("crashed", isDirectory: true)
        try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("parlor.sqlite")

        let (alice, direct) = try await server.run(.live, database: database) { api, store in
            let (alice, direct, socket, started) = try await Self.start(api)
            #expect(started.view.text(id: "sent") == "Sent 0", "saved before the crash: the state from before the message")

            await gate.arm()
            try await socket.activate("Count", in: started, conversation: direct.id)
            #expect(try await socket.messages(1).first?.app?.layout.caption == "Count 1", "committed while the hook still runs")
            try await gate.waitUntilHolding()
            // What a kill -9 leaves on disk at this moment: every committed transaction, in one consistent copy.
            try SQLiteStore.backup(databaseAt: database.path, to: crashed.appendingPathComponent("parlor.sqlite").path)
            await gate.release()
            let counted = try await socket.appUpdate()
            #expect(counted.view.text(id: "sent") == "Sent 1")

            // A send that leaves the state as it was still saves it again once the hook returns.
            try await socket.activate("Send again", in: counted, conversation: direct.id)
            #expect(try await socket.messages(1).first?.app?.layout.caption == "Count 1")
            #expect(try await socket.appUpdate().view.text(id: "sent") == "Sent 1")
            try await socket.settle(in: direct.id)
            let saved = try await store.instance(user: alice.id, scope: .conversation(direct.id), app: Counter.id)
            #expect(saved != nil, "the snapshot the send dropped is saved again")
            await socket.disconnect()
            return (alice, direct)
        }

        try await server.run(.live, database: crashed.appendingPathComponent("parlor.sqlite")) { api, _ in
            let port = try #require(api.port)
            #expect(try await api.messages(in: direct.id, as: alice).compactMap(\.app?.layout.caption) == ["Count 1"])
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 1])
            let reopened = try await socket.openApp(Counter.id.rawValue, in: direct.id)
            #expect(reopened.view.text(id: "sent") == "Not started", "afresh, not 'Sent 0' beside the message 'Count 1' it sent")
            await socket.disconnect()
        }

        try await server.run(.live, database: database) { api, _ in
            let port = try #require(api.port)
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 2])
            let resumed = try await socket.openApp(Counter.id.rawValue, in: direct.id)
            #expect(resumed.view.text(id: "sent") == "Sent 1", "a clean restart resumes where the app was left")
            await socket.disconnect()
        }
    }

    @Test("A hook that fails after its send keeps its state from before the message; that state is not saved, so the app opens afresh rather than with it")
    func failedHookAfterSend() async throws {
        let server = try Self.server()
        try await server.run(.live) { api, store in
            let (alice, direct, socket, started) = try await Self.start(api)
            let scope = InstanceScope.conversation(direct.id)
            try await socket.settle(in: direct.id)
            #expect(try await store.instance(user: alice.id, scope: scope, app: Counter.id) != nil)

            try await socket.activate("Send and fail", in: started, conversation: direct.id)
            #expect(try await socket.messages(1).first?.app?.layout.caption == "Count 1")
            let failed = try await socket.appUpdate()
            #expect(failed.error != nil, "the person is told the action failed")
            #expect(failed.view.text(id: "sent") == "Sent 0", "a failed hook keeps the state it had")
            try await socket.settle(in: direct.id)
            #expect(try await store.instance(user: alice.id, scope: scope, app: Counter.id) == nil,
                    "'Sent 0' is older than the 'Count 1' it sent: not saved")

            // The next call that ends well saves again.
            try await socket.activate("Start", in: failed, conversation: direct.id)
            _ = try await socket.appUpdate()
            try await socket.settle(in: direct.id)
            #expect(try await store.instance(user: alice.id, scope: scope, app: Counter.id) != nil)
            await socket.disconnect()
        }
    }

    @Test("A send from a hook tells the other nodes that the app's snapshot is dropped, before its new state is announced")
    func dropAnnouncedToOtherNodes() async throws {
        let bus = ScriptedBus()
        let server = try Self.server(bus: bus)
        try await server.run(.live) { api, _ in
            let (alice, direct, socket, started) = try await Self.start(api)
            // "Start" is shown before it is saved: its own announcement comes before the count.
            try await socket.settle(in: direct.id)
            let before = bus.published.count
            try await socket.activate("Count", in: started, conversation: direct.id)
            #expect(try await socket.appUpdate().view.text(id: "sent") == "Sent 1")
            try await socket.settle(in: direct.id)
            let instanceEvents = bus.published.dropFirst(before).filter {
                switch $0 {
                case .instanceChanged, .instanceDropped: true
                default: false
                }
            }
            #expect(instanceEvents == [
                .instanceDropped(user: alice.id, conversation: direct.id, app: Counter.id),  // "Count 1" sent
                .instanceChanged(user: alice.id, conversation: direct.id, app: Counter.id),  // "Sent 1" saved
            ])
            await socket.disconnect()
        }
    }

    @Test("When another node's send drops the app's snapshot, this node forgets its copy: a crash there before the save reopens the app afresh here too")
    func dropHeardFromAnotherNode() async throws {
        let bus = ScriptedBus()
        let server = try Self.server(bus: bus)
        try await server.run(.live) { api, store in
            let (alice, direct, socket, started) = try await Self.start(api)
            #expect(started.view.text(id: "sent") == "Sent 0")
            // Alice's other tab, on another node, sends "Count 1" from the app: the message and the
            // drop commit together, and that node stops before it saves "Sent 1".
            let scope = InstanceScope.conversation(direct.id)
            let message = NewMessage(id: MessageID(), conversationID: direct.id, sender: alice.id, content: .text("Count 1"))
            _ = try await store.append(message, validate: { _, _ in }, alongside: [.instance(nil, user: alice.id, scope: scope, app: Counter.id)])
            bus.announce(.instanceDropped(user: alice.id, conversation: direct.id, app: Counter.id))

            var shown: String?
            for _ in 0..<100 {
                // Opening an app that is open already changes nothing on a remembered copy.
                shown = try await socket.openApp(Counter.id.rawValue, in: direct.id).view.text(id: "sent")
                if shown == "Not started" { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(shown == "Not started", "not 'Sent 0', the state from before the message sent elsewhere")
            await socket.disconnect()
        }
    }

    @Test("Sending what an app staged waits for the app's call that staged it to end with its state saved: the message's sync covers both")
    func sendStagedWaitsForTheStagingCall() async throws {
        let gate = Gate()
        let server = try Self.server(gate: gate)
        try await server.run(.live) { api, store in
            let (alice, direct, socket, started) = try await Self.start(api)
            await gate.arm()
            try await socket.activate("Stage", in: started, conversation: direct.id)
            #expect(try await socket.staged() != nil, "shown while the call that staged it still runs")
            try await gate.waitUntilHolding()

            // Alice's other tab sends it (her first tab waits for its own call).
            let otherTab = try await TestSocket.session(port: try #require(api.port), as: alice, since: [direct.id: 0])
            let request = UUID().uuidString
            try await otherTab.send("sendStaged", ["conversation": .string(direct.id.description), "requestId": .string(request)])
            // The tab's frames are read in order: once its later ping is answered, sendStaged was handed on.
            try await otherTab.send("ping", ["requestId": "after"])
            _ = try await otherTab.next("pong") { $0.requestId == "after" }
            // Time for a send that did not wait to commit (a wrong one does within this; a right
            // one never does before the release, which the order below shows however slow it is).
            try await Task.sleep(for: .milliseconds(300))
            await gate.release()
            // The other tab hears the staging call's answer ("Sent 1") and the message in the order the
            // server wrote them: a message committed before that call ended would come first.
            // (The tab's replay showed the app as it was before that call: "Sent 0".)
            let first = try await otherTab.next(timeout: .seconds(15)) { frame in
                frame.update?.view.text(id: "sent") == "Sent 1" || frame.type == "message" || frame.requestId == request
            }
            #expect(first.type == "app", "not committed while the app's state for it is not saved (\(first.type) came first)")
            let ack = try await otherTab.reply(to: request)
            #expect(ack.type == "ack")
            let saved = try #require(try await store.instance(user: alice.id, scope: .conversation(direct.id), app: Counter.id))
            let snapshot = try JSONDecoder().decode(InstanceSnapshot.self, from: saved)
            #expect(String(decoding: snapshot.state, as: UTF8.self).contains(#""sent":1"#), "saved before the message it staged was committed")
            await otherTab.disconnect()
            await socket.disconnect()
        }
    }

    @Test("A call that ends after another node saved a newer state of the same instance does not write its older state over it")
    func replacedInstanceDoesNotOverwrite() async throws {
        let gate = Gate()
        let bus = ScriptedBus()
        let server = try Self.server(gate: gate, bus: bus)
        try await server.run(.live) { api, store in
            let (alice, direct, socket, started) = try await Self.start(api)
            await gate.arm()
            try await socket.activate("Count", in: started, conversation: direct.id)
            #expect(try await socket.messages(1).first?.app?.layout.caption == "Count 1")
            try await gate.waitUntilHolding()

            // Meanwhile Alice's tab on another node saves a newer state and says so.
            let scope = InstanceScope.conversation(direct.id)
            let newer = InstanceSnapshot(state: Data(#"{"sent":7}"#.utf8), isActive: true, presentationStyle: .compact, selectedMessage: nil, modal: nil)
            try await store.saveInstance(try newer.encoded(), user: alice.id, scope: scope, app: Counter.id)
            bus.announce(.instanceChanged(user: alice.id, conversation: direct.id, app: Counter.id))
            #expect(try await socket.appUpdate().view.text(id: "sent") == "Sent 7", "this node shows the other node's state")

            await gate.release()
            _ = try await socket.appUpdate()
            try await socket.settle(in: direct.id)
            let stored = try #require(try await store.instance(user: alice.id, scope: scope, app: Counter.id))
            #expect(try JSONDecoder().decode(InstanceSnapshot.self, from: stored).state == newer.state,
                    "the replaced instance's 'Sent 1' is not written over the newer 'Sent 7'")
            await socket.disconnect()
        }
    }

    /// A server with Counter, which holds at `gate`; it hears "other nodes" through `bus` when given.
    private static func server(gate: Gate = Gate(), bus: ScriptedBus? = nil) throws -> TestServer {
        var server = try TestServer(directory: TestServer.builtIn(adding: [AnyMessagesApp(Counter(gate: gate))]))
        if let bus { server.bus = bus }
        return server
    }

    /// Alice and Bob in a conversation, Alice's Counter open and started ("Sent 0", saved).
    private static func start(_ api: API) async throws -> (alice: Person, direct: Wire.Conversation, socket: TestSocket, started: Wire.AppUpdate) {
        let port = try #require(api.port)
        let alice = try await api.signUp("alice")
        let bob = try await api.signUp("bob")
        let direct = try await api.conversation(of: alice, with: [bob])
        let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
        let opened = try await socket.openApp(Counter.id.rawValue, in: direct.id)
        try await socket.activate("Start", in: opened, conversation: direct.id)
        return (alice, direct, socket, try await socket.appUpdate())
    }
}

/// Counts out loud: Count sends "Count N" from its hook, then waits at `gate` while a test holds it.
private struct Counter: MessagesApp {
    static let id: AppID = "org.parlor.test.counter"
    let gate: Gate

    var manifest: AppManifest {
        AppManifest(id: Self.id, name: "Counter", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#))
    }

    struct State: Codable, Sendable { var sent: Int? }

    enum Action: Codable, Sendable { case start, count, again, sendThenFail, stage }

    struct Failure: Error {}

    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            Text(state.sent.map { "Sent \($0)" } ?? "Not started", id: "sent")
            Button("Start", action: Action.start)
            Button("Count", action: Action.count)
            Button("Send again", action: Action.again)
            Button("Send and fail", action: Action.sendThenFail)
            Button("Stage", action: Action.stage)
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .start:
            state.sent = 0
        case .count:
            let next = (state.sent ?? 0) + 1
            try await context.conversation.send(Self.message(next))
            state.sent = next
            await gate.pass()
        case .again:
            try await context.conversation.send(Self.message(state.sent ?? 0))
        case .sendThenFail:
            let next = (state.sent ?? 0) + 1
            try await context.conversation.send(Self.message(next))
            state.sent = next
            throw Failure()
        case .stage:
            let next = (state.sent ?? 0) + 1
            try await context.conversation.insert(Self.message(next))
            state.sent = next
            await gate.pass()
        }
    }

    static func message(_ count: Int) throws -> Message {
        Message(
            session: Session(), url: try QueryItems(["count": "\(count)"]).url(base: "https://counter.example/"),
            layout: .template(TemplateLayout(caption: "Count \(count)")), summaryText: "Count \(count)")
    }
}

/// Holds the next hook that passes it once armed, until released.
private actor Gate {
    private var armed = false
    private var held: CheckedContinuation<Void, Never>?

    func arm() { armed = true }

    func pass() async {
        guard armed else { return }
        armed = false
        await withCheckedContinuation { held = $0 }
    }

    func waitUntilHolding() async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while held == nil {
            guard ContinuousClock.now < deadline else { throw SocketError(description: "the hook never reached the gate") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func release() {
        held?.resume()
        held = nil
    }
}
