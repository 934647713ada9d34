import Foundation
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// A client that writes an app's message itself (`sendAppMessage`, docs/PROTOCOL.md §5.1) is held
/// to what the app itself is: ParlorKit's limits, the session's head and the app's `validate`, on
/// a real server.
@Suite("sendAppMessage: an app message written by the client")
struct SendAppMessageTests {
    static let ticTacToe = "org.parlor.tictactoe"

    static func frame(_ conversation: ConversationID, app: String, message: JSON, replacing: MessageID? = nil, request: String) -> [String: JSON] {
        var fields: [String: JSON] = [
            "conversation": .string(conversation.description), "app": .string(app), "appMessage": message, "requestId": .string(request),
        ]
        if let replacing { fields["replacing"] = .string(replacing.description) }
        return fields
    }

    @Test("A message the app would accept is committed and reaches the others with the sender set by the server")
    func accepted() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            let id = MessageID()
            let message: JSON = [
                "id": .string(id.description), "url": "https://parlor.example/hello?greeting=Hi%20there",
                "layout": ["template": ["caption": "Hi there"]],
                // Whatever the client claims, the server says who sent it.
                "senderParticipantIdentifier": .string(ParticipantID().description),
            ]
            try await aliceSocket.send("sendAppMessage", Self.frame(direct.id, app: "org.parlor.hello", message: message, request: "a1"))
            let ack = try await aliceSocket.reply(to: "a1")
            #expect(ack.type == "ack", "\(String(describing: ack.error))")
            let received = try #require(try await bobSocket.messages(1).first)
            #expect(received.id == id)
            #expect(received.app?.layout.caption == "Hi there")
            #expect(received.app?.webURL == "https://parlor.example/hello?greeting=Hi%20there", "the URL is kept byte for byte")
            #expect(received.app?.summaryLine.hasSuffix("sent Hello") == true)
            let sender = try #require(received.app?.participant(named: "Alice"), "the server set Alice's own participant id")
            #expect(received.app?.summaryLine == "$\(sender) sent Hello")
            // The same frame again is a retry: answered with the same message, not committed twice.
            try await aliceSocket.send("sendAppMessage", Self.frame(direct.id, app: "org.parlor.hello", message: message, request: "a2"))
            #expect(try await aliceSocket.reply(to: "a2").message?.id == id)
            #expect(try await api.messages(in: direct.id, as: bob).count == 1)
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    /// An app whose manifest asks to answer sessions and that checks nothing itself.
    struct Answerer: MessagesApp {
        static let id: AppID = "org.parlor.test.answerer"
        var manifest: AppManifest {
            AppManifest(id: Self.id, name: "Answerer", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#), answersSessions: true)
        }
        struct State: Codable, Sendable {}
        var initialState: State { State() }
        func body(state: State, environment: ViewEnvironment) -> ViewNode { Text("Answerer") }
        func handle(_ action: String, state: inout State, context: AppContext) async throws {}
    }

    @Test("A message that answers its session names whoever started the session, to everyone and in pages; a turn names nobody; an app that did not ask may not answer")
    func answersNameTheStarter() async throws {
        try await TestServer(directory: TestServer.builtIn(adding: [AnyMessagesApp(Answerer())])).run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol], title: "Friday")
            let since = [group.id: Int64(0)]
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: since)
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: since)
            let carolSocket = try await TestSocket.session(port: port, as: carol, since: since)
            let session = SessionID()
            func hello(_ text: String, answers: Bool) -> (MessageID, JSON) {
                let id = MessageID()
                return (id, [
                    "id": .string(id.description), "session": ["id": .string(session.description)],
                    "url": .string("https://parlor.example/hello?greeting=\(text)"), "layout": ["template": ["caption": .string(text)]],
                    "answersSession": .bool(answers),
                ])
            }
            // Hello's manifest does not ask to answer sessions: its answer is refused, with why.
            try await aliceSocket.send("sendAppMessage", Self.frame(group.id, app: "org.parlor.hello", message: hello("Hi", answers: true).1, request: "s0"))
            let refused = try await aliceSocket.reply(to: "s0")
            #expect(refused.error?.code == "actionRefused" && refused.error?.message.contains("(answersSessions)") == true, "\(String(describing: refused.error))")
            // Alice starts the session: the one who sent its first message, whatever that claims.
            let (first, start) = hello("Hi", answers: true)
            try await aliceSocket.send("sendAppMessage", Self.frame(group.id, app: Answerer.id.rawValue, message: start, request: "s1"))
            #expect(try await aliceSocket.reply(to: "s1").type == "ack")
            #expect(try await carolSocket.messages(1).first?.app?.startedBy?.id == alice.id, "she started it herself")
            // Bob answers it: everyone's copy names Alice, by name.
            let (answer, like) = hello("Liked", answers: true)
            try await bobSocket.send("sendAppMessage", Self.frame(group.id, app: Answerer.id.rawValue, message: like, replacing: first, request: "s2"))
            #expect(try await bobSocket.reply(to: "s2").type == "ack")
            let received = try #require(try await carolSocket.messages(1).first)
            #expect(received.id == answer)
            #expect(received.sender == bob.id)
            #expect(received.app?.startedBy?.id == alice.id && received.app?.startedBy?.name == "Alice", "\(String(describing: received.app?.startedBy))")
            // A turn (no answer) takes the session over: nobody is named, the bubble is its sender's.
            let (turn, move) = hello("Mine", answers: false)
            try await carolSocket.send("sendAppMessage", Self.frame(group.id, app: Answerer.id.rawValue, message: move, replacing: answer, request: "s3"))
            #expect(try await carolSocket.reply(to: "s3").type == "ack")
            // A page read later says the same.
            let page = try await api.messages(in: group.id, as: bob)
            #expect(page.map(\.id) == [first, answer, turn])
            #expect(page.map { $0.app?.startedBy?.id } == [alice.id, alice.id, nil])
            for socket in [aliceSocket, bobSocket, carolSocket] { await socket.disconnect() }
        }
    }

    @Test("A forged Tic-Tac-Toe move is refused by the app's validate, a stale or missing head by the session, a bad URL with a sentence; nothing is committed")
    func forgedRefused() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])
            let since = [direct.id: Int64(0)]
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: since)
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: since)

            let board = try await aliceSocket.openApp(Self.ticTacToe, in: direct.id)
            try await aliceSocket.activate("Row 1, column 1, empty", in: board, conversation: direct.id)
            _ = try await aliceSocket.staged()
            let start = try await aliceSocket.sendStaged(in: direct.id)
            let head = try #require(try await bobSocket.messages(1).first)
            let url = try #require(head.app?.webURL)
            let session = try #require(head.app?.sessionID)
            #expect(url.contains("position0=X") && url.contains("position4=-") && url.contains("position8=-"))

            func move(_ url: String) -> JSON {
                ["id": .string(MessageID().description), "session": ["id": .string(session.description)], "url": .string(url),
                 "layout": ["template": ["caption": "Your move"]]]
            }
            // Bob marks two squares at once.
            let twoSquares = url.replacingOccurrences(of: "position4=-", with: "position4=O")
                .replacingOccurrences(of: "position8=-", with: "position8=O")
                .replacingOccurrences(of: "currentPlayer=X", with: "currentPlayer=O")
            try await bobSocket.send("sendAppMessage", Self.frame(direct.id, app: Self.ticTacToe, message: move(twoSquares), replacing: start.id, request: "f1"))
            let refused = try await bobSocket.reply(to: "f1")
            #expect(refused.error?.code == "actionRefused" || refused.error?.code == "malformedURLState", "\(String(describing: refused.error))")
            #expect(refused.error?.message.isEmpty == false)

            // Alice's own mark moved to another square: the app refuses changing a square already played.
            let rewritten = url.replacingOccurrences(of: "position0=X", with: "position0=-")
                .replacingOccurrences(of: "position1=-", with: "position1=X")
            try await bobSocket.send("sendAppMessage", Self.frame(direct.id, app: Self.ticTacToe, message: move(rewritten), replacing: start.id, request: "f2"))
            #expect(try await bobSocket.reply(to: "f2").error?.code == "actionRefused")

            // Without naming the head it replaces: the session's conflict, with the head to continue from.
            try await bobSocket.send("sendAppMessage", Self.frame(direct.id, app: Self.ticTacToe, message: move(url), request: "f3"))
            let conflict = try await bobSocket.reply(to: "f3")
            #expect(conflict.error?.code == "sessionConflict")
            #expect(conflict.head?.id == start.id)

            // A URL as no app writes it: refused with the sentence that says what to escape.
            try await bobSocket.send("sendAppMessage", Self.frame(direct.id, app: Self.ticTacToe, message: move(url + "&note=a b"), replacing: start.id, request: "f4"))
            let badURL = try await bobSocket.reply(to: "f4")
            #expect(badURL.error?.code == "invalidValue")
            #expect(badURL.error?.message.contains("percent-encode it (%20)") == true, "\(String(describing: badURL.error))")

            // A message without its own id: a retry would be a second message, so it is refused.
            try await bobSocket.send("sendAppMessage", Self.frame(direct.id, app: Self.ticTacToe, message: ["url": .string(url)], replacing: start.id, request: "f7"))
            let noID = try await bobSocket.reply(to: "f7")
            #expect(noID.error?.code == "invalidValue" && noID.error?.message.contains("'appMessage' needs 'id'") == true, "\(String(describing: noID.error))")

            // An app that does not exist, and a conversation Carol is not in.
            try await bobSocket.send("sendAppMessage", Self.frame(direct.id, app: "org.example.nothing", message: move(url), request: "f5"))
            #expect(try await bobSocket.reply(to: "f5").error?.code == "invalidValue")
            let carolSocket = try await TestSocket.session(port: port, as: carol, since: [:])
            try await carolSocket.send("sendAppMessage", Self.frame(direct.id, app: Self.ticTacToe, message: move(url), replacing: start.id, request: "f6"))
            let outsider = try await carolSocket.reply(to: "f6")
            #expect(outsider.error?.code == "notFound", "\(String(describing: outsider.error))")

            let stored = try await api.messages(in: direct.id, as: alice)
            #expect(stored.map(\.id) == [start.id], "nothing forged was committed")
            for socket in [aliceSocket, bobSocket, carolSocket] { await socket.disconnect() }
        }
    }

    @Test("Each app message a client writes counts against its sender's messages a minute, refused ones too: forged tries cannot keep an app checking")
    func forgedTriesAreLimited() async throws {
        try await TestServer { $0.messagesPerMinute = 3 }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let socket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            // Refused by the app each time (a new game's board with two marks).
            var codes: [String] = []
            for attempt in 1...4 {
                let forged: JSON = [
                    "id": .string(MessageID().description), "url": "https://parlor.example/tictactoe?currentPlayer=X&position0=X&position1=X",
                    "layout": ["template": ["caption": "Hi"]],
                ]
                try await socket.send("sendAppMessage", Self.frame(direct.id, app: Self.ticTacToe, message: forged, request: "t\(attempt)"))
                codes.append(try await socket.reply(to: "t\(attempt)").error?.code ?? "accepted")
            }
            #expect(codes.prefix(3).allSatisfy { $0 != "sendingTooFast" && $0 != "accepted" }, "\(codes)")
            #expect(codes.last == "sendingTooFast", "\(codes)")
            await socket.disconnect()
        }
    }
}
