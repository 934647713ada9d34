import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Edits, unsends and replies")
struct MessageChangeTests {
    /// Sends a frame and returns the answer that concerns it: the `messageChanged` frame it causes
    /// or its `error`.
    static func change(_ socket: TestSocket, _ type: String, _ fields: [String: JSON]) async throws -> Frame {
        var fields = fields
        fields["requestId"] = .string(type)
        try await socket.send(type, fields)
        return try await socket.next(timeout: .seconds(10), where: { $0.type == "messageChanged" || ($0.type == "error" && $0.requestId == type) })
    }

    static func edit(_ socket: TestSocket, _ message: Wire.Message, to text: String) async throws -> Frame {
        try await change(socket, "edit", [
            "conversation": .string(message.conversation.description), "message": .string(message.id.description), "text": .string(text),
        ])
    }

    static func unsend(_ socket: TestSocket, _ message: Wire.Message) async throws -> Frame {
        try await change(socket, "unsend", ["conversation": .string(message.conversation.description), "message": .string(message.id.description)])
    }

    @Test("The sender edits a text: everyone sees the new text marked edited, the earlier texts stay readable, five edits at most")
    func edits() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let sent = try await api.send("See you at 7", in: direct.id, as: alice)
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            let edited = try await Self.edit(aliceSocket, sent, to: "See you at 8")
            #expect(edited.message?.text == "See you at 8")
            #expect(edited.message?.editedAt != nil)
            #expect(edited.message?.sequence == sent.sequence, "an edit is not a new message")
            let seen = try await bobSocket.next("messageChanged")
            #expect(seen.message?.text == "See you at 8", "Bob sees the edit live")

            let history = try await api.messages(in: direct.id, as: bob)
            #expect(history.map(\.text) == ["See you at 8"])
            #expect(history.first?.editedAt != nil)
            let versions = try await api.get("/api/conversations/\(direct.id)/messages/\(sent.id)/versions", as: bob)
                .decode([MessageVersion].self)
            #expect(versions.map(\.text) == ["See you at 7"])

            #expect(try await Self.edit(bobSocket, sent, to: "hijacked").error?.code == "notYourMessage")
            #expect(try await Self.edit(aliceSocket, sent, to: "See you at 8").error?.code == "invalidValue", "the same text")
            #expect(try await Self.edit(aliceSocket, sent, to: "   ").error?.code == "invalidValue")
            #expect(try await Self.edit(aliceSocket, sent, to: String(repeating: "a", count: 10_001)).error?.code == "textExceedsMaxSize")
            for index in 2...5 { #expect(try await Self.edit(aliceSocket, sent, to: "Edit \(index)").type == "messageChanged") }
            let sixth = try await Self.edit(aliceSocket, sent, to: "Edit 6")
            #expect(sixth.error?.code == "tooManyEdits")
            #expect(sixth.error?.message == "A message can be edited 5 times.")
            #expect(try await api.messages(in: direct.id, as: alice).map(\.text) == ["Edit 5"])

            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("The sender unsends a message: everyone sees it unsent, its text, versions and reactions are gone, and the list says so")
    func unsends() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let sent = try await api.send("my password is hunter2", in: direct.id, as: alice)
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            _ = try await ReactionTests.react(bobSocket, "😂", to: sent.id.description, in: direct.id)
            _ = try await Self.edit(aliceSocket, sent, to: "my password is hunter3")
            _ = try await bobSocket.next("messageChanged")

            #expect(try await Self.unsend(bobSocket, sent).error?.code == "notYourMessage")
            let unsent = try await Self.unsend(aliceSocket, sent)
            #expect(unsent.message?.kind == "unsent")
            #expect(unsent.message?.text == nil && unsent.message?.reactions == nil)
            let seen = try await bobSocket.next("messageChanged")
            #expect(seen.message?.kind == "unsent" && seen.message?.text == nil)

            let history = try await api.get("/api/conversations/\(direct.id)/messages", as: bob)
            #expect(!history.text.contains("hunter"), "the text is gone from the history")
            let versions = try await api.get("/api/conversations/\(direct.id)/messages/\(sent.id)/versions", as: bob).decode([MessageVersion].self)
            #expect(versions.isEmpty, "and so are its earlier versions")
            let summary = try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self)
            #expect(summary.preview == "Alice unsent a message")
            let listed = try await bobSocket.next("conversation", timeout: .seconds(10)) { $0.conversationInfo?.preview == "Alice unsent a message" }
            #expect(listed.conversation == direct.id, "Bob's list drops the text at once")
            #expect(try await Self.unsend(aliceSocket, sent).error?.code == "messageUnsent")
            #expect(try await Self.edit(aliceSocket, sent, to: "back").error?.code == "messageUnsent")
            let react = try await ReactionTests.react(bobSocket, "👍", to: sent.id.description, in: direct.id)
            #expect(react.error?.code == "notFound", "an unsent message takes no reactions")
            #expect(!(try await api.get("/api/conversations/\(direct.id)/messages", as: bob).text.contains("reactions")))
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("Edits and unsends close after their windows; a message in an app's session cannot be unsent")
    func windows() async throws {
        let server = try TestServer { configuration in
            configuration.editWindow = .seconds(1)
            configuration.unsendWindow = .seconds(1)
        }
        try await server.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let sent = try await api.send("typo", in: direct.id, as: alice)
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 1])
            let board = try await aliceSocket.openApp("org.parlor.tictactoe", in: direct.id)
            try await aliceSocket.activate("Row 1, column 1, empty", in: board, conversation: direct.id)
            _ = try await aliceSocket.staged()
            let game = try await aliceSocket.sendStaged(in: direct.id)
            #expect(try await Self.unsend(aliceSocket, game).error?.code == "notUnsendable")
            #expect(try await Self.edit(aliceSocket, game, to: "x").error?.code == "notEditable")

            try await Task.sleep(for: .milliseconds(1_100))
            let late = try await Self.edit(aliceSocket, sent, to: "typo fixed")
            #expect(late.error?.code == "editWindowClosed")
            #expect(late.error?.message == "A message can be edited for 1 minute after it is sent.")
            #expect(try await Self.unsend(aliceSocket, sent).error?.code == "unsendWindowClosed")
            #expect(try await api.messages(in: direct.id, as: bob).first?.text == "typo")
            await aliceSocket.disconnect()
        }
    }

    @Test("A reply quotes the message it answers, for everyone; the thread lists the replies; a reply reaches only this conversation's messages")
    func replies() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])
            let other = try await api.conversation(of: alice, with: [carol])
            let question = try await api.send("Pizza or sushi?", in: direct.id, as: alice)
            let elsewhere = try await api.send("secret", in: other.id, as: alice)
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            try await bobSocket.send("sendText", [
                "requestId": "reply", "conversation": .string(direct.id.description), "id": .string(UUID().uuidString),
                "text": "Sushi!", "replyTo": .string(question.id.description),
            ])
            let ack = try await bobSocket.reply(to: "reply")
            #expect(ack.message?.replyTo?.id == question.id)
            #expect(ack.message?.replyTo?.senderName == "Alice")
            #expect(ack.message?.replyTo?.preview == "Pizza or sushi?")
            let live = try #require(try await aliceSocket.messages(1).first)
            #expect(live.replyTo?.sequence == question.sequence, "Alice sees the quote live, with where to jump")

            let posted = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                "id": .string(UUID().uuidString), "text": "Sushi it is", "replyTo": .string(question.id.description),
            ])
            #expect(posted.status == .created)
            let thread = try await api.get("/api/conversations/\(direct.id)/messages/\(question.id)/replies", as: bob).decode([Wire.Message].self)
            #expect(thread.map(\.text) == ["Sushi!", "Sushi it is"])
            #expect(try await api.get("/api/conversations/\(direct.id)/messages/\(question.id)/replies", as: carol).status == .notFound)

            try await bobSocket.send("sendText", [
                "requestId": "leak", "conversation": .string(direct.id.description), "id": .string(UUID().uuidString),
                "text": "quoting", "replyTo": .string(elsewhere.id.description),
            ])
            #expect(try await bobSocket.reply(to: "leak").error?.code == "replyTargetNotFound",
                    "a message of a conversation Bob is not in cannot be quoted into this one")
            #expect(!(try await api.get("/api/conversations/\(direct.id)/messages", as: bob).text.contains("secret")))

            _ = try await Self.unsend(aliceSocket, question)
            let afterUnsend = try await api.messages(in: direct.id, as: bob)
            #expect(afterUnsend.first { $0.text == "Sushi!" }?.replyTo?.preview == "Unsent message")
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("An edit made through another node reaches this node's members")
    func otherNodes() async throws {
        try await OtherNodeScene.run { scene in
            let sent = try await scene.api.send("draft", in: scene.conversation, as: scene.alice)
            _ = try await scene.bobSocket.messages(1)
            let edited = try await scene.store.editMessage(
                sent.id, in: scene.conversation, sender: scene.alice.id, text: "final", sentAfter: .distantPast, maxEdits: 5)
            #expect(edited?.editedAt != nil)
            scene.bus.announce(.messageChanged(conversation: scene.conversation, message: sent.id))
            #expect(try await scene.bobSocket.next("messageChanged").message?.text == "final")
        }
    }
}
