import Foundation
import HTTPTypes
import NIOWebSocket
import ParlorAppRunner
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStickers
import ParlorStore
import Synchronization
import Testing

/// Apps outside the server (issue: "Apps outside the server"): added to a running server, run in
/// their own connection with the same code, and kept from hurting anyone when they misbehave.
@Suite("Apps outside the server")
struct RemoteAppTests {
    static let probe = Probe.id.rawValue

    /// A server whose calls to apps give up after `deadline`.
    static func server(deadline: Duration = .seconds(5)) throws -> TestServer {
        try TestServer {
            $0.appCallDeadline = deadline
            $0.adminToken(OperationsTests.token)
        }
    }

    /// Registers Probe's manifest as `parlor apps add` does; returns its credential.
    static func register(_ store: any ParlorStore) async throws -> String {
        try await AppRegistrations(store: store).add(Probe().manifest, builtIn: [])
    }

    /// Waits until `person`'s store lists the app (the server reads registrations every second).
    static func waitUntilListed(_ api: API, as person: Person, app: String = probe, listed: Bool = true) async throws {
        for _ in 0..<100 {
            let apps = try await api.get("/api/apps", as: person).decode(Wire.Directory.self).apps
            if apps.contains(where: { $0.id.rawValue == app }) == listed { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("\(app) was \(listed ? "never listed" : "still listed") after 5 s")
    }

    /// Where most tests here start: Alice and Bob in a 1:1 conversation on a running server where
    /// Probe is registered (as `manifest`) and already in the store.
    struct Registered: Sendable {
        let api: API
        let store: any ParlorStore
        let port: Int
        let alice: Person
        let bob: Person
        let direct: Wire.Conversation
        let secret: String
    }

    static func withRegisteredProbe(
        deadline: Duration = .seconds(5), manifest: AppManifest = Probe().manifest, _ body: @Sendable (Registered) async throws -> Void
    ) async throws {
        try await server(deadline: deadline).run(.live) { api, store in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let secret = try await AppRegistrations(store: store).add(manifest, builtIn: [])
            try await waitUntilListed(api, as: alice, app: manifest.id.rawValue)
            try await body(Registered(api: api, store: store, port: port, alice: alice, bob: bob, direct: direct, secret: secret))
        }
    }

    /// Runs Probe with `AppRunner` (the app's own code, unchanged) until `body` returns.
    static func withRunner<T: Sendable>(port: Int, secret: String, _ body: () async throws -> T) async throws -> T {
        try await withRunner(Probe(), port: port, secret: secret, body)
    }

    /// Runs `app` with `AppRunner` until `body` returns.
    static func withRunner<T: Sendable, App: MessagesApp>(_ app: App, port: Int, secret: String, _ body: () async throws -> T) async throws -> T {
        let (connected, signal) = AsyncStream.makeStream(of: Void.self)
        // The stream ends with the runner, so a runner that stops for good cannot leave the wait hanging.
        let runner = Task {
            defer { signal.finish() }
            try await AppRunner(app: app, server: URL(string: "http://127.0.0.1:\(port)"), secret: secret).run { signal.yield() }
        }
        defer { runner.cancel() }
        var iterator = connected.makeAsyncIterator()
        _ = await iterator.next()
        return try await body()
    }

    @Test("An app added to a running server appears in the store at once; run out of process by AppRunner, it works as in process")
    func addedAtRuntimeAndRunByRunner() async throws {
        try await Self.server().run(.live) { api, store in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol])
            try await Self.waitUntilListed(api, as: alice, listed: false)
            let secret = try await Self.register(store)
            #expect(secret.hasPrefix("parlor_app_"))
            try await Self.waitUntilListed(api, as: alice)
            let stored = try #require(try await store.registeredApps().first?.secretHash)
            #expect(stored.count == 64 && !stored.contains(secret) && !secret.contains(stored), "only the credential's hash is stored")

            try await Self.withRunner(port: port, secret: secret) {
                let since = [group.id: Int64(0)]
                let aliceSocket = try await TestSocket.session(port: port, as: alice, since: since)
                let bobSocket = try await TestSocket.session(port: port, as: bob, since: since)
                let opened = try await aliceSocket.openApp(Self.probe, in: group.id)
                #expect(opened.error == nil, "\(String(describing: opened.error))")
                #expect(opened.view.visibleTexts.contains("Nothing selected"), "the app drew its view: \(opened.view.visibleTexts)")
                // A live bubble: sent from an action, drawn by the app for each viewer.
                try await aliceSocket.activate("Send live", in: opened, conversation: group.id)
                for (socket, name) in [(aliceSocket, "Alice"), (bobSocket, "Bob")] {
                    let message = try #require(try await socket.messages(1).first)
                    let app = try #require(message.app)
                    let viewer = try #require(app.participant(named: name))
                    #expect(app.liveView?.text(id: "live") == "live seen by $\(viewer)", "\(name)'s bubble is drawn for \(name)")
                }
                // insertText reaches the compose field, as in process.
                try await aliceSocket.activate("Compose", in: try await aliceSocket.appUpdate(), conversation: group.id)
                #expect(try await aliceSocket.next("composeText").text == "typed by Probe")
                for socket in [aliceSocket, bobSocket] { await socket.disconnect() }
            }
        }
    }

    @Test("After a restart, an app added with `parlor apps` is listed from the first request: the server reads the registrations before it takes connections")
    func listedFromTheFirstRequest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-restart-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("parlor.sqlite")
        try await Self.server().run(.live, database: database) { _, store in
            _ = try await Self.register(store)
        }
        try await Self.server().run(.live, database: database) { api, _ in
            let alice = try await api.signUp("alice")
            let apps = try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).apps
            #expect(apps.contains { $0.id.rawValue == Self.probe }, "listed at once, not a second later")
        }
    }

    @Test("Given the nodes of one Parlor, AppRunner keeps a connection to each, so people on every node use the app")
    func runnerServesEveryNode() async throws {
        try await Self.server().run(.live) { first, firstStore in
            try await Self.server().run(.live) { second, secondStore in
                // Two nodes share their registrations (here copied, as a shared database would have them).
                let secret = try await Self.register(firstStore)
                let registration = try #require(try await firstStore.registeredApps().first)
                try await secondStore.saveRegisteredApp(registration)
                let ports = [try #require(first.port), try #require(second.port)]

                let (connected, signal) = AsyncStream.makeStream(of: Void.self)
                let servers = ports.compactMap { URL(string: "http://127.0.0.1:\($0)") }
                let runner = Task {
                    defer { signal.finish() }
                    try await AppRunner(app: Probe(), servers: servers, secret: secret).run { signal.yield() }
                }
                defer { runner.cancel() }
                var welcomes = connected.makeAsyncIterator()
                for _ in ports { _ = await welcomes.next() }

                for api in [first, second] {
                    try await Self.waitUntilListed(api, as: try await api.signUp("alice"), listed: true)
                }
                for (api, port) in zip([first, second], ports) {
                    let bob = try await api.signUp("bob")
                    let carol = try await api.signUp("carol")
                    let direct = try await api.conversation(of: bob, with: [carol])
                    let socket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
                    let opened = try await socket.openApp(Self.probe, in: direct.id)
                    #expect(opened.error == nil, "on the node at \(port): \(String(describing: opened.error))")
                    try await socket.activate("Send live", in: opened, conversation: direct.id)
                    #expect(try await socket.messages(1).first?.app != nil, "the app answered on the node at \(port)")
                    await socket.disconnect()
                }
            }
        }
        #expect(ServerAddresses.parse("http://a:8080, http://b:8080 http://c:8080").map(\.host) == ["a", "b", "c"])
    }

    @Test("A message the app could not check is refused with messageNotChecked and never committed")
    func uncheckedMessagesAreRefused() async throws {
        try await Self.withRegisteredProbe { setting in
            let (api, port, alice, bob, direct, secret) = (setting.api, setting.port, setting.alice, setting.bob, setting.direct, setting.secret)
            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()  // welcome
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": .string(Self.probe)])
            // The app stages a message with a session (so it will be checked), then goes away.
            let staged = Message(session: Session(), url: URL(string: "https://example.org/probe?x=1"), layout: .template(TemplateLayout(caption: "staged")))
            for _ in 0..<2 {
                let call = try await fake.nextCall()
                fake.answer(call, effects: call.hook == .didBecomeActive ? [.insert(staged)] : [])
            }
            _ = try await socket.next("staged")
            await fake.disconnect()
            try await socket.send("sendStaged", ["conversation": .string(direct.id.description)])
            let refused = try await socket.next("error")
            #expect(refused.error?.code == "messageNotChecked", "\(String(describing: refused.error))")
            #expect(refused.error?.message.contains("could not check") == true)
            #expect(try await api.messages(in: direct.id, as: bob).isEmpty, "nothing was committed")
            await socket.disconnect()
        }
    }

    /// How the scripted app treats the next call.
    enum Misbehaviour: Sendable {
        case silence, unreadable, oversizedState, disconnect
    }

    /// The misbehaviour for the next call, set by the test, taken by the answering task.
    final class NextMisbehaviour: Sendable {
        private let value = Mutex<Misbehaviour?>(nil)
        func set(_ misbehaviour: Misbehaviour) { value.withLock { $0 = misbehaviour } }
        func take() -> Misbehaviour? { value.withLock { value in defer { value = nil }; return value } }
    }

    @Test("An app that is not connected, late, unreadable, oversized or gone mid-call costs its users one sentence; the server and other apps carry on")
    func misbehavingApps() async throws {
        // Long enough that a well-behaved answer is never late on a loaded machine (at 500 ms, a
        // CI run saw an unreadable answer arrive after the deadline).
        try await Self.withRegisteredProbe(deadline: .seconds(2)) { setting in
            let (api, port, alice, direct, secret) = (setting.api, setting.port, setting.alice, setting.direct, setting.secret)
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            func close() async throws {
                try await socket.send("closeApp", ["conversation": .string(direct.id.description)])
                _ = try await socket.appUpdate()
            }

            // Not connected.
            let notConnected = try await socket.openApp(Self.probe, in: direct.id)
            #expect(notConnected.error?.code == "appUnavailable")
            #expect(notConnected.error?.message == "Probe is not connected to this server right now; try again later.")
            try await close()

            // A copy that answers every call well, except the one a phase tells it to spoil.
            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()
            let next = NextMisbehaviour()
            let answering = Task {
                while let call = try? await fake.nextCall(timeout: .seconds(60)) {
                    switch next.take() {
                    case nil: fake.answer(call)
                    case .silence?: break
                    case .unreadable?: fake.sendRaw(#"{"type":"result","result":{"id":"\#(call.id)","view":{"type":"hologram"}}}"#)
                    case .oversizedState?:
                        fake.send(.result(AppWire.Result(id: call.id, state: .string(String(repeating: "x", count: AppWire.maxStateBytes + 1)))))
                    case .disconnect?:
                        await fake.disconnect()
                        return
                    }
                }
            }
            defer {
                answering.cancel()
                Task { await fake.disconnect() }
            }
            func open(_ misbehaviour: Misbehaviour) async throws -> Wire.AppUpdate {
                next.set(misbehaviour)
                let update = try await socket.openApp(Self.probe, in: direct.id)
                return update
            }

            let started = ContinuousClock.now
            let late = try await open(.silence)
            #expect(late.error?.code == "appUnavailable")
            #expect(late.error?.message == "Probe is not responding; try again.")
            #expect(ContinuousClock.now - started < .seconds(10))
            try await close()

            let unreadable = try await open(.unreadable)
            #expect(unreadable.error?.message == "Probe answered something Parlor could not use; try again.")
            try await close()

            let oversized = try await open(.oversizedState)
            #expect(oversized.error?.code == "appUnavailable")
            #expect(oversized.error?.message.contains("bytes of state") == true, "\(String(describing: oversized.error))")
            try await close()

            // Gone mid-call: the call fails at once, not at its deadline; the next calls find no copy.
            let gone = try await open(.disconnect)
            #expect(["Probe disconnected; try again.", "Probe is not connected to this server right now; try again later."]
                .contains(gone.error?.message ?? ""), "\(String(describing: gone.error))")

            // Each call is counted with how it ended: the first one found no copy, then copies answered.
            let metrics = try await OperationsTests.scrape(api)
            let failed = OperationsTests.value("parlor_app_calls_total", ["app": Self.probe, "outcome": "appUnavailable"], in: metrics) ?? 0
            let answered = OperationsTests.value("parlor_app_calls_total", ["app": Self.probe, "outcome": "ok"], in: metrics) ?? 0
            #expect(failed >= 5, "not connected, late, unreadable, oversized and gone each failed a call: \(failed)")
            #expect(answered >= 1, "the copy answered the calls around the spoiled ones")
            #expect(OperationsTests.value("parlor_app_call_duration_seconds_count", ["app": Self.probe], in: metrics) == failed + answered)

            // Meanwhile everything else works: a plain message, and an app in the server.
            let sent = try await api.post(
                "/api/conversations/\(direct.id)/messages", as: alice, json: ["id": .string(UUID().uuidString), "text": "still here"])
            #expect(sent.status == .created)
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": "org.parlor.hello"])
            let hello = try await socket.next("app") { $0.update?.appID.rawValue == "org.parlor.hello" }
            #expect(hello.update?.error == nil && hello.update?.isActive == true)
            await socket.disconnect()
        }
    }

    @Test("Removing an app closes its connection and its open surfaces with a sentence; its messages still show; a rotated credential ends the old connection")
    func removedAndRotated() async throws {
        try await Self.withRegisteredProbe { setting in
            let (api, port, alice, bob, direct, secret) = (setting.api, setting.port, setting.alice, setting.bob, setting.direct, setting.secret)
            let registrations = AppRegistrations(store: setting.store)

            // Rotation: the old credential's connection ends, the old credential is refused, the new one works.
            let old = try await FakeApp.connect(port: port, secret: secret)
            _ = try await old.nextFrame()
            let rotated = try await registrations.rotateSecret(of: Probe.id)
            #expect(rotated != secret)
            let ended = try await old.closed()
            #expect(ended.code == .policyViolation)
            #expect(ended.reason == "This app's credential was replaced.")
            await #expect(throws: (any Error).self) { try await FakeApp.connect(port: port, secret: secret) }
            // AppRunner stops for good on the old credential, and says why.
            let refusal = await #expect(throws: ConnectionRefused.self) {
                try await AppRunner(app: Probe(), server: URL(string: "http://127.0.0.1:\(port)"), secret: secret).run()
            }
            #expect(refusal?.code == "unknownAppCredential")
            #expect(refusal?.description.contains("PARLOR_APP_SECRET") == true)

            try await Self.withRunner(port: port, secret: rotated) {
                let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
                let opened = try await socket.openApp(Self.probe, in: direct.id)
                try await socket.activate("Send live", in: opened, conversation: direct.id)
                let message = try #require(try await socket.messages(1).first)
                _ = try await socket.appUpdate()

                try await registrations.remove(Probe.id)
                let closed = try await socket.appUpdate()
                #expect(!closed.isActive)
                #expect(closed.error?.message == "Probe was removed from this server.")
                try await Self.waitUntilListed(api, as: alice, listed: false)
                let history = try await api.messages(in: direct.id, as: bob)
                #expect(history.map(\.id) == [message.id], "its messages stay")
                #expect(history.first?.app?.layout.caption == "live", "drawn from the stored layout")
                await socket.disconnect()
            }
        }
    }

    @Test("A credential that is not registered is refused before the upgrade; an app flooding frames is disconnected")
    func credentialsAndFloods() async throws {
        try await Self.server().run(.live) { api, store in
            let port = try #require(api.port)
            await #expect(throws: (any Error).self) { try await FakeApp.connect(port: port, secret: "parlor_app_guess") }
            let secret = try await Self.register(store)
            let reply = try await api.request(.get, "/api/apps/connect", headers: [.authorization: "Bearer parlor_app_guess"])
            #expect(reply.status == .unauthorized)
            #expect(reply.errorCode == "unknownAppCredential")
            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()
            // Frames keep coming until the server hangs up: a server slowed by other work still
            // counts more than the limit within one of its seconds.
            let flood = Task {
                for index in 0..<20_000 where !Task.isCancelled {
                    fake.sendRaw(#"{"type":"result","result":{"id":"nothing-\#(index)"}}"#)
                    if index % 100 == 99 { try? await Task.sleep(for: .milliseconds(5)) }
                }
            }
            defer { flood.cancel() }
            let ended = try await fake.closed(timeout: .seconds(30))
            #expect(ended.code == .policyViolation)
            #expect(ended.reason?.contains("frames in a second") == true)
        }
    }

    @Test("The store lists what an app may do; what its manifest does not ask for is refused: keeping data, live or expiring messages")
    func manifestPermissions() async throws {
        var manifest = Probe().manifest
        manifest.keepsData = false
        manifest.drawsLiveMessages = false
        manifest.allowedHosts = ["api.example.org"]
        try await Self.withRegisteredProbe(manifest: manifest) { setting in
            let (api, port, alice, bob, direct, secret) = (setting.api, setting.port, setting.alice, setting.bob, setting.direct, setting.secret)
            let listed = try #require(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).apps.first { $0.id == Probe.id })
            #expect(listed.permissions == ["Reach api.example.org on the internet", "Send messages that disappear after they are read"])
            let todo = try #require(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).apps.first { $0.name == "Todo" })
            #expect(todo.permissions.contains("Keep data for you, such as your notes or purchases"))

            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let live = Message(session: Session(), url: URL(string: "https://example.org/probe?live=1"),
                               layout: .live(LiveLayout(alternateLayout: TemplateLayout(caption: "live"))))
            // Opening from the drawer: keep data (refused), then stage a live message. Every
            // other call (drawing the staged bubble, the send's check) is answered plainly.
            let answering = Task {
                while let call = try? await fake.nextCall(timeout: .seconds(30)) {
                    switch (call.hook, call.context?.style) {
                    case (.willBecomeActive, .compact?): fake.answer(call, effects: [.containerSet(key: "secret", value: .string("kept"))])
                    case (.didBecomeActive, .compact?): fake.answer(call, effects: [.insert(live)])
                    default: fake.answer(call)
                    }
                }
            }
            defer { answering.cancel() }
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": .string(Self.probe)])
            let opened = try await socket.appUpdate()
            #expect(opened.error?.message == "Probe keeps no data: its manifest does not ask to (keepsData).", "\(String(describing: opened.error))")
            _ = try await socket.next("staged")
            try await socket.send("sendStaged", ["conversation": .string(direct.id.description)])
            let refused = try await socket.next("error")
            #expect(refused.error?.message == "Probe may not send live messages: its manifest does not ask to (drawsLiveMessages).")
            #expect(try await api.messages(in: direct.id, as: bob).isEmpty)
            await fake.disconnect()
            await socket.disconnect()
        }
    }

    @Test("A container read the manifest does not allow is refused by its id; a 17th copy of an app is not let in")
    func readsAndCopies() async throws {
        var manifest = Probe().manifest
        manifest.keepsData = false
        try await Self.withRegisteredProbe(manifest: manifest) { setting in
            let fake = try await FakeApp.connect(port: setting.port, secret: setting.secret)
            _ = try await fake.nextFrame()
            let socket = try await TestSocket.session(port: setting.port, as: setting.alice, since: [setting.direct.id: 0])
            try await socket.send("openApp", ["conversation": .string(setting.direct.id.description), "app": .string(Self.probe)])
            let call = try await fake.nextCall()
            fake.send(.containerGet(id: "r1", call: call.id, key: "notes"))
            guard case .error(_, let message, let id) = try await fake.nextFrame() else {
                Issue.record("the read was not refused")
                return
            }
            #expect(id == "r1", "the app can tell which read failed")
            #expect(message == "Probe keeps no data: its manifest does not ask to (keepsData).")
            fake.answer(call)

            var copies = [fake]
            for _ in 1..<AppWire.maxConnectionsPerApp {
                let copy = try await FakeApp.connect(port: setting.port, secret: setting.secret)
                _ = try await copy.nextFrame()
                copies.append(copy)
            }
            // A raw client: the test's WebSocket client can miss a close sent right after the upgrade.
            let extra = try await RawWebSocket.open(port: setting.port, path: "/api/apps/connect?protocol=1",
                                                    headers: ["Authorization": "Bearer \(setting.secret)"])
            let refused = try #require(try await extra.closing(), "the 17th copy gets a close frame first")
            #expect(refused.code == 1008, "policyViolation")
            #expect(refused.reason.contains("copies of this app are connected"))
            for copy in copies { await copy.disconnect() }
            await socket.disconnect()
        }
    }

    @Test("The app sees participant ids scoped to it, never account ids")
    func scopedParticipants() async throws {
        try await Self.withRegisteredProbe { setting in
            let (port, alice, bob, direct, secret) = (setting.port, setting.alice, setting.bob, setting.direct, setting.secret)
            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": .string(Self.probe)])
            let call = try await fake.nextCall()
            let context = try #require(call.context)
            let accounts = [alice.id.description, bob.id.description]
            #expect(!accounts.contains(context.localParticipant.description))
            #expect(context.remoteParticipants?.count == 1)
            #expect(!(context.remoteParticipants ?? []).contains { accounts.contains($0.description) })
            await fake.disconnect()
            await socket.disconnect()
        }
    }
}

extension AppWire.ServerFrame {
    var isError: Bool {
        if case .error = self { return true }
        return false
    }
}

/// Sticker packs, like apps, join a running server (issue: "Apps outside the server", point 4).
@Suite("Sticker packs on a running server")
struct ImportedPackTests {
    @Test("A pack imported while the server runs is offered within seconds, with its stickers, and can be sent")
    func importWhileRunning() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-packs-\(UUID().uuidString)", isDirectory: true)
        let stickers = folder.appendingPathComponent("stickers", isDirectory: true)
        try FileManager.default.createDirectory(at: stickers, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try TestServer.builtIn()
        let directory = try AppDirectory(apps: base.apps, stickerDirectory: stickers)
        try await TestServer(directory: directory).run(.live) { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let before = try await api.get("/api/apps", as: alice).decode(Wire.Directory.self)
            #expect(!before.packs.contains { $0.id == "party" })

            // `parlor stickers import` does this: a pack from a folder, copied into the data directory.
            let source = folder.appendingPathComponent("party.stickerpack", isDirectory: true)
            let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            try FileManager.default.copyItem(at: repository.appendingPathComponent("Sources/ParlorStickers/Packs/Everyday.stickerpack"), to: source)
            let imported = try StickerPackLoader.import(from: source, into: stickers)
            #expect(imported.pack.id == "party")

            var offered: Wire.PackInfo?
            for _ in 0..<100 where offered == nil {
                offered = try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).packs.first { $0.id == "party" }
                if offered == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            let pack = try #require(offered, "the pack is offered without a restart")
            #expect(pack.stickers.count == imported.stickers.count)
            let sticker = try #require(pack.stickers.first)
            let image = try await api.get(sticker.url, as: alice)
            #expect(image.status == .ok)
            let sent = try await api.post(
                "/api/conversations/\(direct.id)/messages", as: alice, json: ["id": .string(UUID().uuidString), "sticker": .string(sticker.id)])
            #expect(sent.status == .created)
        }
    }
}

/// `/api/admin/apps`: `parlor apps` over HTTP, for the operator only.
@Suite("Managing apps over the admin API")
struct AdminAPITests {
    static let token = "operator-token-0123456789"
    static let manifest: JSON = ["id": "org.example.dice", "name": "Dice", "icon": ["url": "https://example.org/dice.png"], "summary": "Roll"]

    func admin(_ api: API, _ method: HTTPRequest.Method, _ path: String, token: String = AdminAPITests.token, json: JSON? = nil) async throws -> Reply {
        try await api.request(method, path, json: json, headers: [.authorization: "Bearer \(token)"])
    }

    @Test("With the admin token: add (credential once), list, rotate, remove, each seen by the running server at once")
    func manageApps() async throws {
        try await TestServer { $0.adminToken(Self.token) }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let added = try await admin(api, .post, "/api/admin/apps", json: Self.manifest)
            #expect(added.status == .created)
            let credential = try added.decode(Wire.AppCredential.self).credential
            #expect(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).apps.contains { $0.name == "Dice" }, "offered at once")
            #expect(try await admin(api, .post, "/api/admin/apps", json: Self.manifest).errorCode == "idInUse")
            let builtIn = try await admin(api, .post, "/api/admin/apps", json: ["id": "org.parlor.tictactoe", "name": "Fake", "icon": ["url": "https://e.org/x.png"]])
            #expect(builtIn.errorCode == "idInUse", "a built-in app's id cannot be taken")
            let badName = try await admin(api, .post, "/api/admin/apps", json: ["id": "org.example.bad", "name": "Bad\u{202E}", "icon": ["url": "https://e.org/x.png"]])
            #expect(badName.status == .badRequest)

            let app = try await FakeApp.connect(port: port, secret: credential)
            _ = try await app.nextFrame()
            let listed = try await admin(api, .get, "/api/admin/apps").decode([Wire.RegisteredAppInfo].self)
            #expect(listed.map(\.id.rawValue) == ["org.example.dice"])
            #expect(listed.first?.connections == 1)

            let rotated = try await admin(api, .post, "/api/admin/apps/org.example.dice/credential").decode(Wire.AppCredential.self)
            #expect(rotated.credential != credential)
            #expect(try await app.closed().code == .policyViolation, "the old credential's connection ends at once")

            #expect(try await admin(api, .delete, "/api/admin/apps/org.example.dice").status == .noContent)
            #expect(!(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).apps.contains { $0.name == "Dice" }))
            #expect(try await admin(api, .delete, "/api/admin/apps/org.example.dice").errorCode == "fileNotFound")
        }
    }

    @Test("Without the token, with a wrong one, with a user's token or with none configured, nothing is done; guesses are limited")
    func onlyTheOperator() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            #expect(try await api.get("/api/admin/apps", as: alice).status == .notFound, "off without an admin token")
        }
        try await TestServer { $0.adminToken(Self.token) }.run { api in
            let alice = try await api.signUp("alice")
            #expect(try await api.get("/api/admin/apps", as: alice).errorCode == "adminOnly", "a user's token is not the admin's")
            #expect(try await api.post("/api/admin/apps", json: Self.manifest).errorCode == "adminOnly")
            var codes: [String?] = []
            for index in 0..<40 { codes.append(try await admin(api, .get, "/api/admin/apps", token: "guess-\(index)").errorCode) }
            #expect(codes.prefix(28).allSatisfy { $0 == "adminOnly" })
            #expect(codes.suffix(5).allSatisfy { $0 == "tooManyAttempts" }, "\(codes)")
            #expect(try await admin(api, .get, "/api/admin/apps").errorCode == "tooManyAttempts", "even the right token waits: guesses cannot go faster")
        }
    }
}
