import Foundation
import GRDB
import ParlorInput
import ParlorKit
import ParlorServer
@testable import ParlorStoreSQLite
import Testing

@Suite("Hosting apps: live bubbles, composing, failures")
struct AppHostingTests {
    static let probe = Probe.id.rawValue
    static let broken = Broken.id.rawValue

    @Test("A live bubble is drawn by the app for each viewer; a viewer without the app gets the alternate layout")
    func liveLayoutPerViewer() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol])
            try await api.uninstall(Self.probe, as: carol)
            let since = [group.id: Int64(0)]
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: since)
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: since)
            let carolSocket = try await TestSocket.session(port: port, as: carol, since: since)

            let opened = try await aliceSocket.openApp(Self.probe, in: group.id)
            try await aliceSocket.activate("Send live", in: opened, conversation: group.id)
            for (socket, name) in [(aliceSocket, "Alice"), (bobSocket, "Bob")] {
                let message = try #require(try await socket.messages(1).first)
                let app = try #require(message.app)
                let viewer = try #require(app.participant(named: name))
                #expect(app.installed)
                #expect(app.liveView?.text(id: "live") == "live seen by $\(viewer)", "\(name)'s bubble is drawn for \(name)")
                #expect(Set(app.names.values) == ["Alice", "Bob", "Carol"])
            }
            let carols = try #require(try await carolSocket.messages(1).first?.app)
            #expect(!carols.installed)
            #expect(carols.liveView == nil)
            #expect(carols.layout.caption == "live")
            let bobsHistory = try #require(try await api.messages(in: group.id, as: bob).first?.app)
            #expect(bobsHistory.liveView?.text(id: "live") == "live seen by $\(bobsHistory.participant(named: "Bob") ?? "?")")
            for socket in [aliceSocket, bobSocket, carolSocket] { await socket.disconnect() }
        }
    }

    @Test("An expiring message is hidden for a reader once its time is up (expired frame, gone from history and replay), unless kept")
    func expiringMessages() async throws {
        let server = try TestServer.withTestApps {
            $0.expiryDelay = .zero
            $0.expirySweepInterval = .milliseconds(100)
        }
        try await server.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol])
            let since = [group.id: Int64(0)]
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: since)
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: since)
            let carolSocket = try await TestSocket.session(port: port, as: carol, since: since)
            let opened = try await aliceSocket.openApp(Self.probe, in: group.id)
            try await aliceSocket.activate("Send expiring", in: opened, conversation: group.id)
            let message = try #require(try await bobSocket.messages(1).first)
            #expect(message.app?.shouldExpire == true)
            let sequence = JSON.int(message.sequence)

            try await carolSocket.send("keep", ["conversation": .string(group.id), "message": .string(message.id)])
            try await carolSocket.send("read", ["conversation": .string(group.id), "sequence": sequence])
            try await bobSocket.send("read", ["conversation": .string(group.id), "sequence": sequence])
            let expired = try await bobSocket.next("expired", timeout: .seconds(60))  // 100 ms sweeps; generous for a stalled runner
            #expect(expired.conversation == group.id)
            #expect(expired.messageID == message.id)

            #expect(try await api.messages(in: group.id, as: bob).isEmpty)
            #expect(try await api.messages(in: group.id, as: carol).map(\.id) == [message.id], "kept")
            #expect(try await api.messages(in: group.id, as: alice).map(\.id) == [message.id], "the sender's own message does not expire for them")
            #expect(try await carolSocket.frames(within: .milliseconds(300)).filter { $0.type == "expired" }.isEmpty)
            try await bobSocket.send("tapMessage", ["conversation": .string(group.id), "message": .string(message.id)])
            #expect(try await bobSocket.error().error?.code == "notFound")
            await bobSocket.disconnect()

            let again = try await TestSocket.connect(port: port, as: bob)
            _ = try await again.next()
            try await again.hello(since: since)
            #expect(try await again.next().type == "ready", "the expired message is not replayed")
            for socket in [aliceSocket, carolSocket, again] { await socket.disconnect() }
        }
    }

    @Test("A read whose expiry countdown could not be stored leaves the read mark where it was, so reading again starts the countdown")
    func expiringReadSurvivesAFailure() async throws {
        let server = try TestServer.withTestApps {
            $0.expiryDelay = .zero
            $0.expirySweepInterval = .milliseconds(100)
        }
        try await server.run(.live) { api, store in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let since = [direct.id: Int64(0)]
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: since)
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: since)
            let opened = try await aliceSocket.openApp(Self.probe, in: direct.id)
            try await aliceSocket.activate("Send expiring", in: opened, conversation: direct.id)
            let message = try #require(try await bobSocket.messages(1).first)
            let read: [String: JSON] = ["conversation": .string(direct.id), "sequence": JSON.int(message.sequence)]

            // The disk refuses the countdown's row: the read fails, and the mark must not move.
            try await store.pool.write { db in
                try db.execute(sql: "CREATE TRIGGER refuse_reads BEFORE INSERT ON expiring_reads BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
            }
            try await bobSocket.send("read", read)
            #expect(try await bobSocket.error().error != nil, "the failed read is reported")
            let summary = try #require(try await api.get("/api/conversations", as: bob).decode([Wire.Conversation].self).first)
            #expect(summary.unreadCount == 1, "still unread: nothing was marked")

            try await store.pool.write { db in try db.execute(sql: "DROP TRIGGER refuse_reads") }
            try await bobSocket.send("read", read)
            let expired = try await bobSocket.next("expired", timeout: .seconds(60))
            #expect(expired.messageID == message.id, "reading again started the countdown")
            #expect(try await api.messages(in: direct.id, as: bob).isEmpty)
            for socket in [aliceSocket, bobSocket] { await socket.disconnect() }
        }
    }

    @Test("Two people send messages staged on the same head: the second is re-applied to the new head by the app (rebase), so both count")
    func stagedMessagesRebase() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol])
            let since = [group.id: Int64(0)]
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: since)
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: since)
            let carolSocket = try await TestSocket.session(port: port, as: carol, since: since)
            let tally = ShowOfHands.id.rawValue

            try await aliceSocket.activate("Start", in: try await aliceSocket.openApp(tally, in: group.id), conversation: group.id)
            _ = try await aliceSocket.staged()
            let start = try await aliceSocket.sendStaged(in: group.id)
            #expect(start.app?.layout.caption == "0 hands up")

            // Bob and Carol both raise a hand on the first message before either sends.
            for socket in [bobSocket, carolSocket] {
                _ = try await socket.messages(1)
                try await socket.activate("Raise", in: try await socket.tapMessage(start.id, in: group.id), conversation: group.id)
                _ = try await socket.staged()
            }
            let bobs = try await bobSocket.sendStaged(in: group.id)
            #expect(bobs.app?.layout.caption == "1 hands up")
            let carols = try await carolSocket.sendStaged(in: group.id)
            #expect(carols.app?.layout.caption == "2 hands up", "Carol's hand was added to Bob's message, not lost")
            let history = try await api.messages(in: group.id, as: alice)
            #expect(history.map { $0.app?.layout.caption } == ["0 hands up", "1 hands up", "2 hands up"])
            for socket in [aliceSocket, bobSocket, carolSocket] { await socket.disconnect() }
        }
    }

    @Test("An app's insertText reaches the user's connections as composeText")
    func composeText() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let opened = try await socket.openApp(Self.probe, in: direct.id)
            try await socket.activate("Compose", in: opened, conversation: direct.id)
            let frame = try await socket.next("composeText")
            #expect(frame.conversation == direct.id)
            #expect(frame.text == "typed by Probe")
            await socket.disconnect()
        }
    }

    @Test("An app that throws in its hooks and actions reports errors in its own frames; other apps and conversations carry on")
    func failingAppIsIsolated() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let withBob = try await api.conversation(of: alice, with: [bob])
            let withCarol = try await api.conversation(of: alice, with: [carol])
            let socket = try await TestSocket.session(port: port, as: alice, since: [withBob.id: 0, withCarol.id: 0])

            let broken = try await socket.openApp(Self.broken, in: withBob.id)
            #expect(broken.appID == Broken.id)
            let failure = try #require(broken.error, "a throwing hook is reported in the update")
            #expect(!failure.message.isEmpty)
            try await socket.activate("Press", in: broken, conversation: withBob.id)
            #expect(try await socket.appUpdate().error != nil)

            let probe = try await socket.openApp(Self.probe, in: withCarol.id)
            #expect(probe.error == nil)
            try await socket.activate("Fail", in: probe, conversation: withCarol.id)
            let failed = try await socket.appUpdate()
            #expect(failed.error != nil)
            #expect(failed.isActive, "a failed action leaves the app open")
            try await socket.activate("Stage", in: failed, conversation: withCarol.id)
            let staged = try await socket.staged()
            #expect(staged?.app?.appID.rawValue == Self.probe)
            #expect(try await socket.sendStaged(in: withCarol.id).app?.summaryText == "staged")
            try await api.send("still talking", in: withBob.id, as: bob)
            #expect(try await socket.messages(1).map(\.app?.summaryText) == ["staged"])
            #expect(try await socket.messages(1).map(\.text) == ["still talking"])
            await socket.disconnect()
        }
    }

    @Test("The recipient's open app hears about new messages of its app (didReceive); tapping another bubble selects it")
    func openAppReceivesAndSelects() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            let opened = try await aliceSocket.openApp(Self.probe, in: direct.id)
            try await aliceSocket.activate("Stage", in: opened, conversation: direct.id)
            _ = try await aliceSocket.staged()
            let first = try await aliceSocket.sendStaged(in: direct.id)
            #expect(try await bobSocket.messages(1).map(\.id) == [first.id])
            let tapped = try await bobSocket.tapMessage(first.id, in: direct.id)
            #expect(tapped.view.text(id: "shown") == "staged")

            try await aliceSocket.activate("Send live", in: opened, conversation: direct.id)
            let second = try #require(try await bobSocket.messages(1).first)
            let received = try await bobSocket.appUpdate()
            #expect(received.view.text(id: "shown") == "received live")
            let reselected = try await bobSocket.tapMessage(first.id, in: direct.id)
            #expect(reselected.view.text(id: "shown") == "staged")
            #expect(reselected.presentationStyle == .expanded)
            #expect(second.app?.liveView != nil)
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }
}
