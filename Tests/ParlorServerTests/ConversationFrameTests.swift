import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

@Suite("Conversation frames, read marks and outsiders over the WebSocket")
struct ConversationFrameTests {
    @Test("Members' connections hear about new conversations, renames and new members in conversation frames")
    func conversationFrames() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            let carolSocket = try await TestSocket.session(port: port, as: carol)
            let group = try await api.conversation(of: alice, with: [bob], title: "Plans")
            let created = try await bobSocket.next("conversation")
            #expect(created.conversation == group.id)
            #expect(created.conversationInfo?.title == "Plans")

            _ = try await api.request(.patch, "/api/conversations/\(group.id)", as: alice, json: ["title": "Party"])
            #expect(try await bobSocket.next("conversation").conversationInfo?.title == "Party")

            _ = try await api.post("/api/conversations/\(group.id)/members", as: alice, json: ["username": "carol"])
            let added = try await carolSocket.next("conversation")
            #expect(added.conversationInfo?.members.map(\.username).contains("carol") == true)
            try await api.send("welcome carol", in: group.id, as: alice)
            #expect(try await carolSocket.messages(2).map(\.text) == ["Alice added you", "welcome carol"], "a new member gets messages live")

            _ = try await api.request(.delete, "/api/conversations/\(group.id)/members/\(carol.id)", as: alice)
            let removed = try await carolSocket.next("conversation")
            #expect(removed.conversation == group.id)
            #expect(removed.conversationInfo == nil, "a removed member is told the conversation is gone for them")
            try await api.send("after carol left", in: group.id, as: alice)
            #expect(try await bobSocket.messages(5).map(\.text) == [
                "Alice named the conversation “Party”", "Alice added Carol", "welcome carol", "Alice removed Carol", "after carol left",
            ], "each change a line in the transcript, among the messages")
            #expect(try await carolSocket.frames(within: .milliseconds(300)).filter { $0.type == "message" }.isEmpty, "not even the line that removed her")
            await bobSocket.disconnect()
            await carolSocket.disconnect()
        }
    }

    @Test("Naming an admin and leaving reach the other members as conversation frames (what the details panel redraws from)")
    func adminAndLeavingFrames() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol], title: "Plans")
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            let carolSocket = try await TestSocket.session(port: port, as: carol)

            _ = try await api.request(.put, "/api/conversations/\(group.id)/admins/\(bob.id)", as: alice)
            #expect(try await carolSocket.next("conversation").conversationInfo?.admins == [alice.id, bob.id])
            #expect(try await bobSocket.next("conversation").conversationInfo?.admins == [alice.id, bob.id])

            #expect(try await api.request(.delete, "/api/conversations/\(group.id)/members/\(bob.id)", as: bob).status == .noContent)
            let left = try await carolSocket.next("conversation").conversationInfo
            #expect(left?.members.map(\.username) == ["alice", "carol"], "the others see who left")
            #expect(left?.admins == [alice.id])
            #expect(try await bobSocket.next("conversation").conversationInfo == nil, "the one who left is told it is gone for them")
            await bobSocket.disconnect()
            await carolSocket.disconnect()
        }
    }

    @Test("A read frame moves the read mark: the unread count drops")
    func readMark() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            for index in 1...3 { try await api.send("m\(index)", in: direct.id, as: alice) }
            let socket = try await TestSocket.session(port: port, as: bob)
            try await socket.send("read", ["conversation": .string(direct.id), "sequence": 2])
            try await socket.send("ping", ["requestId": "sync"])
            _ = try await socket.next("pong")
            let summary = try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self)
            #expect(summary.unreadCount == 1)
            await socket.disconnect()
        }
    }

    @Test("Every conversation operation over the WebSocket answers an outsider with notFound, as for a conversation that does not exist")
    func outsidersGetNotFound() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let mallory = try await api.signUp("mallory")
            let direct = try await api.conversation(of: alice, with: [bob])
            let message = try await api.send("private", in: direct.id, as: alice)
            let socket = try await TestSocket.session(port: port, as: mallory, since: [direct.id: 0])
            let hello = "org.parlor.hello"
            let action: JSON = ["kind": "action", "action": #"{"greet":{"_0":"Hi!"}}"#]
            let operations: [(String, [String: JSON])] = [
                ("sendText", ["id": .string(UUID().uuidString), "text": "hi"]),
                ("sendSticker", ["id": .string(UUID().uuidString), "sticker": "x/y.png"]),
                ("sendStaged", [:]),
                ("removeStaged", [:]),
                ("openApp", ["app": .string(hello)]),
                ("tapMessage", ["message": .string(message.id)]),
                ("appEvent", ["app": .string(hello), "event": action]),
                ("setStyle", ["style": "expanded"]),
                ("closeApp", [:]),
                ("read", ["sequence": 1]),
                ("keep", ["message": .string(message.id)]),
                ("react", ["message": .string(message.id), "emoji": "❤️", "on": true]),
                ("typing", ["typing": true]),
            ]
            for conversation in [direct.id, ConversationID()] {
                for (type, fields) in operations {
                    var fields = fields
                    fields["conversation"] = .string(conversation)
                    fields["requestId"] = .string("\(type)-\(conversation)")
                    try await socket.send(type, fields)
                    let reply = try await socket.next(timeout: .seconds(5))
                    #expect(reply.type == "error", "\(type): \(reply.type)")
                    #expect(reply.error?.code == "notFound", "\(type): \(reply.error?.code ?? "no error")")
                    #expect(reply.requestId == "\(type)-\(conversation)")
                }
            }
            #expect(try await socket.frames(within: .milliseconds(300)).isEmpty, "no message of the conversation leaks")
            #expect(try await api.messages(in: direct.id, as: alice).map(\.text) == ["private"])
            await socket.disconnect()
        }
    }
}
