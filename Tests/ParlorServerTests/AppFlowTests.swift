import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

@Suite("Message apps over the WebSocket")
struct AppFlowTests {
    static let hello = "org.parlor.hello"
    static let ticTacToe = "org.parlor.tictactoe"

    @Test("Hello: open (compact) → tap a greeting (staged) → send (ack, others get it) → the recipient taps it (expanded, with the sender's name)")
    func helloRoundTrip() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])

            let opened = try await aliceSocket.openApp(Self.hello, in: direct.id)
            #expect(opened.isActive)
            #expect(opened.presentationStyle == .compact)
            #expect(opened.appName == "Hello")
            #expect(opened.view.visibleTexts.contains("Hi!"))

            try await aliceSocket.activate("Hi!", in: opened, conversation: direct.id)
            let staged = try #require(try await aliceSocket.staged())
            #expect(staged.kind == "app")
            #expect(staged.app?.appID.rawValue == Self.hello)
            #expect(staged.app?.layout.caption == "Hi!")
            let fetched = try await api.get("/api/conversations/\(direct.id)/staged", as: alice).decode(Wire.StagedReply.self)
            #expect(fetched.staged?.app?.layout.caption == "Hi!", "the compose field survives a reload")
            #expect(try await api.get("/api/conversations/\(direct.id)/staged", as: bob).decode(Wire.StagedReply.self).staged == nil)

            let sent = try await aliceSocket.sendStaged(in: direct.id, requestId: "send-hi")
            #expect(sent.kind == "app")
            #expect(sent.app?.summaryText == "Said Hi!")
            #expect(try await aliceSocket.staged() == nil, "sending clears the compose field")
            #expect(try await api.get("/api/conversations/\(direct.id)/staged", as: alice).decode(Wire.StagedReply.self).staged == nil,
                    "in the store too, with the message: a reload finds it empty")
            let received = try #require(try await bobSocket.messages(1).first)
            #expect(received.id == sent.id)
            #expect(received.app?.installed == true)
            #expect(received.app?.webURL?.hasPrefix("https://parlor.example/hello") == true)

            let tapped = try await bobSocket.tapMessage(received.id, in: direct.id)
            #expect(tapped.isActive)
            #expect(tapped.presentationStyle == .expanded)
            #expect(tapped.view.text(id: "greeting") == "Hi!")
            let aliceParticipant = try #require(received.app?.participant(named: "Alice"))
            #expect(tapped.view.visibleTexts.contains("from $\(aliceParticipant)"), "the view names the sender by a mention token")
            #expect(tapped.names[aliceParticipant] == "Alice")
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("setStyle switches compact/expanded, closeApp closes; events to a closed app are appNotOpen; removeStaged clears the compose field")
    func styleCloseAndRemoveStaged() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let opened = try await socket.openApp(Self.hello, in: direct.id)
            try await socket.send("setStyle", ["conversation": .string(direct.id), "style": "expanded"])
            let expanded = try await socket.next("app") { $0.update?.presentationStyle == .expanded }
            #expect(expanded.update?.isActive == true)
            try await socket.activate("Good morning", in: opened, conversation: direct.id)
            #expect(try await socket.staged()?.app?.layout.caption == "Good morning")
            try await socket.send("removeStaged", ["conversation": .string(direct.id)])
            #expect(try await socket.staged() == nil)
            try await socket.send("sendStaged", ["conversation": .string(direct.id), "requestId": "empty"])
            let nothing = try await socket.error()
            #expect(nothing.error?.code == "nothingStaged")
            #expect(nothing.requestId == "empty")

            try await socket.send("closeApp", ["conversation": .string(direct.id)])
            let closed = try await socket.next("app") { $0.update?.isActive == false }
            #expect(closed.update?.view.allNodes.count == 1, "a closed app's view is empty")
            try await socket.activate("Hi!", in: opened, conversation: direct.id)
            #expect(try await socket.error().error?.code == "appNotOpen")
            #expect(try await api.messages(in: direct.id, as: alice).isEmpty)
            await socket.disconnect()
        }
    }

    @Test("Tic-Tac-Toe: when two people answer the same move, the second send is refused with sessionConflict and the new head, and stays staged")
    func staleSessionHead() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol])
            let since = [group.id: Int64(0)]
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: since)
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: since)
            let carolSocket = try await TestSocket.session(port: port, as: carol, since: since)

            let board = try await aliceSocket.openApp(Self.ticTacToe, in: group.id)
            try await aliceSocket.activate("Row 1, column 1, empty", in: board, conversation: group.id)
            #expect(try await aliceSocket.staged()?.app?.layout.caption == "Want to play Tic-Tac-Toe?")
            let start = try await aliceSocket.sendStaged(in: group.id)

            for socket in [bobSocket, carolSocket] {
                let message = try #require(try await socket.messages(1).first)
                let opened = try await socket.tapMessage(message.id, in: group.id)
                #expect(opened.presentationStyle == .expanded)
                try await socket.activate("Row 2, column 2, empty", in: opened, conversation: group.id)
                #expect(try await socket.staged()?.app?.sessionID == start.app?.sessionID)
            }
            let bobsMove = try await bobSocket.sendStaged(in: group.id)
            #expect(bobsMove.sequence == 2)

            try await carolSocket.send("sendStaged", ["conversation": .string(group.id), "requestId": "carol-move"])
            let conflict = try await carolSocket.error()
            #expect(conflict.requestId == "carol-move")
            #expect(conflict.error?.code == "sessionConflict")
            #expect(conflict.head?.id == bobsMove.id)
            #expect(conflict.head?.sequence == 2)
            #expect(conflict.head?.app?.layout.caption == "It's your move!")
            // The message stays in her compose field saying why it was not sent (MSMessage.error),
            // in her tabs at once and after a reload.
            let failed = try await carolSocket.next("staged") { $0.staged?.app?.error != nil }
            #expect(failed.staged?.app?.error?.code == "sessionConflict")
            #expect(failed.staged?.app?.error?.message == conflict.error?.message)
            let stillStaged = try await api.get("/api/conversations/\(group.id)/staged", as: carol).decode(Wire.StagedReply.self)
            #expect(stillStaged.staged?.app?.appID.rawValue == Self.ticTacToe)
            #expect(stillStaged.staged?.app?.error?.code == "sessionConflict")
            #expect(try await api.messages(in: group.id, as: alice).map(\.sequence) == [1, 2])
            #expect(bobsMove.app?.error == nil && conflict.head?.app?.error == nil, "a message sent carries no error")

            // Removing it clears the compose field and its error.
            try await carolSocket.send("removeStaged", ["conversation": .string(group.id.description)])
            _ = try await carolSocket.next("staged") { $0.staged == nil }
            #expect(try await api.get("/api/conversations/\(group.id)/staged", as: carol).decode(Wire.StagedReply.self).staged == nil)
            for socket in [aliceSocket, bobSocket, carolSocket] { await socket.disconnect() }
        }
    }

    @Test("A viewer without the app sees installed=false; tapping is appNotInstalled and opening is refused until they get it")
    func viewerWithoutTheApp() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            try await api.uninstall(Self.hello, as: bob)
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            let opened = try await aliceSocket.openApp(Self.hello, in: direct.id)
            try await aliceSocket.activate("Hi!", in: opened, conversation: direct.id)
            _ = try await aliceSocket.staged()
            let sent = try await aliceSocket.sendStaged(in: direct.id)
            #expect(sent.app?.installed == true)

            let received = try #require(try await bobSocket.messages(1).first)
            #expect(received.app?.installed == false)
            #expect(received.app?.appName == "Hello")
            #expect(received.app?.layout.caption == "Hi!")
            #expect(try await api.messages(in: direct.id, as: bob).first?.app?.installed == false)

            try await bobSocket.send("tapMessage", ["conversation": .string(direct.id), "message": .string(sent.id), "requestId": "tap"])
            let refused = try await bobSocket.error()
            #expect(refused.error?.code == "appNotInstalled")
            #expect(refused.requestId == "tap")
            try await bobSocket.send("openApp", ["conversation": .string(direct.id), "app": .string(Self.hello)])
            #expect(try await bobSocket.error().error?.code == "appNotInstalled")

            #expect(try await api.post("/api/apps/\(Self.hello)/install", as: bob).status == .ok)
            let tapped = try await bobSocket.tapMessage(sent.id, in: direct.id)
            #expect(tapped.view.text(id: "greeting") == "Hi!")
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("Home surfaces open expanded outside conversations and close; an app without one is noHomeSurface")
    func homeSurface() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let socket = try await TestSocket.session(port: port, as: alice)
            try await socket.send("openHome", ["app": "org.parlor.iconstore"])
            let home = try await socket.next("home")
            #expect(home.app == "org.parlor.iconstore")
            #expect(home.conversation == nil)
            #expect(home.update?.isActive == true)
            #expect(home.update?.presentationStyle == .expanded)
            let showButtons = home.update?.view.allNodes.compactMap { node -> ButtonNode? in
                if case .button(let button) = node, button.id?.hasPrefix("show-") == true { return button }
                return nil
            } ?? []
            let show = try #require(showButtons.first, "the home grid shows icons")
            try await socket.send("homeEvent", ["app": "org.parlor.iconstore", "event": ["kind": "action", "action": .string(show.action.json)]])
            let detail = try await socket.next("home")
            #expect(detail.update?.modal != nil, "showing an icon presents its detail screen")
            #expect(detail.update?.view.allNodes.contains { if case .modal = $0 { true } else { false } } == true)
            try await socket.send("homeEvent", ["app": "org.parlor.iconstore", "event": ["kind": "dismissModal"]])
            #expect(try await socket.next("home").update?.modal == nil)
            try await socket.send("closeHome", ["app": "org.parlor.iconstore"])
            #expect(try await socket.next("home").update?.isActive == false)
            try await socket.send("openHome", ["app": .string(Self.hello), "requestId": "h"])
            let refused = try await socket.error()
            #expect(refused.error?.code == "noHomeSurface")
            #expect(refused.requestId == "h")
            await socket.disconnect()
        }
    }
}
