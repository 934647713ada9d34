import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Reactions and typing indicators")
struct ReactionTests {
    /// Sends a `react` frame and returns the `reactions` frame that answers it (or the error).
    /// Reactions frames carry no request id: those from earlier reactions are taken first.
    static func react(
        _ socket: TestSocket, _ emoji: String, on: Bool = true, to message: String, in conversation: ConversationID
    ) async throws -> Frame {
        _ = try await socket.framesQueued()
        try await socket.send("react", [
            "conversation": .string(conversation.description), "message": .string(message), "emoji": .string(emoji), "on": .bool(on),
            "requestId": "react",
        ])
        return try await socket.next(timeout: .seconds(10), where: { $0.type == "reactions" || $0.type == "error" })
    }

    @Test("A tapback shows live to everyone, once per person and emoji, comes off again, and is in the history; it is not a message")
    func tapbacks() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let hi = try await api.send("hi", in: direct.id, as: alice)
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            let loved = try await Self.react(bobSocket, "❤️", to: hi.id.description, in: direct.id)
            #expect(loved.messageID == hi.id)
            #expect(loved.reactionsByEmoji == ["❤️": [bob.id]])
            #expect(try await aliceSocket.next("reactions").reactionsByEmoji == ["❤️": [bob.id]], "Alice sees Bob's heart live")

            _ = try await Self.react(aliceSocket, "❤️", to: hi.id.description, in: direct.id)
            let liked = try await Self.react(bobSocket, "👍", to: hi.id.description, in: direct.id)
            #expect(liked.reactionsByEmoji == ["❤️": [bob.id, alice.id], "👍": [bob.id]])
            // A second heart from Bob counts once: it changes nothing, so nobody is told.
            try await bobSocket.send("react", [
                "conversation": .string(direct.id.description), "message": .string(hi.id.description), "emoji": "❤️", "on": true,
            ])

            let off = try await Self.react(bobSocket, "❤️", on: false, to: hi.id.description, in: direct.id)
            #expect(off.reactionsByEmoji == ["❤️": [alice.id], "👍": [bob.id]])

            let history = try await api.messages(in: direct.id, as: alice)
            #expect(history.count == 1, "a reaction is not a message")
            #expect(history.first?.reactions?.map(\.emoji) == ["❤️", "👍"], "in the order each emoji was first given")
            #expect(history.first?.reactions?.map(\.users) == [[alice.id], [bob.id]])
            let summary = try await api.get("/api/conversations/\(direct.id)", as: alice).decode(Wire.Conversation.self)
            #expect(summary.unreadCount == 0, "Bob's reactions leave Alice nothing unread")
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("A reaction on a game's bubble leaves its session alone: the other player's staged move still sends")
    func appBubble() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            let board = try await aliceSocket.openApp("org.parlor.tictactoe", in: direct.id)
            try await aliceSocket.activate("Row 1, column 1, empty", in: board, conversation: direct.id)
            _ = try await aliceSocket.staged()
            let start = try await aliceSocket.sendStaged(in: direct.id)
            let invitation = try #require(try await bobSocket.messages(1).first)
            let opened = try await bobSocket.tapMessage(invitation.id, in: direct.id)
            try await bobSocket.activate("Row 2, column 2, empty", in: opened, conversation: direct.id)
            _ = try await bobSocket.staged()

            let loved = try await Self.react(aliceSocket, "❤️", to: start.id.description, in: direct.id)
            #expect(loved.reactionsByEmoji == ["❤️": [alice.id]])
            let move = try await bobSocket.sendStaged(in: direct.id)
            #expect(move.app?.sessionID == start.app?.sessionID, "Bob's move is the session's next message")
            let history = try await api.messages(in: direct.id, as: bob)
            #expect(history.map(\.sequence) == [1, 2])
            #expect(history.first?.reactions?.map(\.emoji) == ["❤️"])
            for socket in [aliceSocket, bobSocket] { await socket.disconnect() }
        }
    }

    @Test("A tab that reconnects gets the reactions of what it missed in the replay")
    func replay() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let first = try await api.send("first", in: direct.id, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            _ = try await Self.react(bobSocket, "😂", to: first.id.description, in: direct.id)
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let replayed = try await aliceSocket.messages(1)
            #expect(replayed.first?.reactions?.map(\.emoji) == ["😂"])
            #expect(replayed.first?.reactions?.first?.users == [bob.id])
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("Only one emoji is a reaction; a message has at most 20 kinds; outsiders and other conversations' messages get notFound")
    func limits() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])
            let other = try await api.conversation(of: alice, with: [carol])
            let hi = try await api.send("hi", in: direct.id, as: alice)
            let elsewhere = try await api.send("elsewhere", in: other.id, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            let tooLong = "👨" + String(repeating: "\u{200D}👨", count: 10)
            for refused in ["", "a", "1", "#", "©", "❤️❤️", "👍a", "<b>", "\u{202E}", String(repeating: "\u{1F3FB}", count: 9), tooLong] {
                let reply = try await Self.react(bobSocket, refused, to: hi.id.description, in: direct.id)
                #expect(reply.error?.code == "invalidReaction", "\(refused.unicodeScalars.map { String($0.value, radix: 16) })")
            }
            for accepted in ["👍", "‼️", "❓", "1️⃣", "🇫🇷", "👨‍👩‍👧‍👦", "👍🏽", "🏴‍☠️", "👩🏻‍❤️‍💋‍👨🏼"] {
                let reply = try await Self.react(bobSocket, accepted, to: hi.id.description, in: direct.id)
                #expect(reply.type == "reactions", "\(accepted): \(reply.error?.message ?? "")")
            }
            let more = ["😀", "😃", "😄", "😁", "😆", "😅", "🤣", "😊", "😇", "🙂", "🙃"]
            for emoji in more { _ = try await Self.react(bobSocket, emoji, to: hi.id.description, in: direct.id) }
            let full = try await Self.react(bobSocket, "🐙", to: hi.id.description, in: direct.id)
            #expect(full.error?.code == "tooManyReactions")
            #expect(full.error?.message.contains("20") == true)
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let joined = try await Self.react(aliceSocket, "👍", to: hi.id.description, in: direct.id)
            #expect(joined.reactionsByEmoji?["👍"] == [bob.id, alice.id], "a full message still takes more of the kinds it has")

            let wrongConversation = try await Self.react(bobSocket, "👍", to: elsewhere.id.description, in: direct.id)
            #expect(wrongConversation.error?.code == "notFound", "a message of another conversation is not reached by naming this one")
            let outsider = try await Self.react(bobSocket, "👍", to: elsewhere.id.description, in: other.id)
            #expect(outsider.error?.code == "notFound")
            let carolMessages = try await api.messages(in: other.id, as: carol)
            #expect(carolMessages.first?.reactions == nil)
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("Typing: the others see one notice however often it is said, then the stop; the typist's own tabs and outsiders see nothing")
    func typing() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob], title: "Plans")
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let aliceOtherTab = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            let carolSocket = try await TestSocket.session(port: port, as: carol)
            for _ in 0..<30 { try await aliceSocket.send("typing", ["conversation": .string(group.id.description), "typing": true]) }
            try await aliceSocket.send("typing", ["conversation": .string(group.id.description), "typing": false])
            try await aliceSocket.send("typing", ["conversation": .string(group.id.description), "typing": false])
            try await aliceSocket.send("ping", ["requestId": "sync"])
            _ = try await aliceSocket.next("pong")
            let seen = try await bobSocket.framesQueued().compactMap(\.typingNotice)
            #expect(seen.map(\.isTyping) == [true, false], "one start and one stop out of 32 notices")
            #expect(seen.allSatisfy { $0.user == alice.id })
            #expect(try await aliceOtherTab.frames(within: .milliseconds(100)).compactMap(\.typingNotice).isEmpty)
            #expect(try await carolSocket.frames(within: .milliseconds(100)).isEmpty)

            try await carolSocket.send("typing", ["conversation": .string(group.id.description), "typing": true, "requestId": "t"])
            #expect(try await carolSocket.reply(to: "t").error?.code == "notFound")
            #expect(try await bobSocket.frames(within: .milliseconds(200)).compactMap(\.typingNotice).isEmpty)
            for socket in [aliceSocket, aliceOtherTab, bobSocket, carolSocket] { await socket.disconnect() }
        }
    }

    @Test("Repeating a reaction tells nobody; past 60 a minute a person is told to wait")
    func floods() async throws {
        let server = try TestServer { $0.reactionsPerMinute = 5 }
        try await server.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let hi = try await api.send("hi", in: direct.id, as: alice)
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            _ = try await Self.react(bobSocket, "❤️", to: hi.id.description, in: direct.id)
            _ = try await aliceSocket.next("reactions")
            for _ in 0..<3 {
                try await bobSocket.send("react", [
                    "conversation": .string(direct.id.description), "message": .string(hi.id.description), "emoji": "❤️", "on": true,
                ])
            }
            try await bobSocket.send("react", [
                "conversation": .string(direct.id.description), "message": .string(hi.id.description), "emoji": "👎", "on": false,
            ])
            let limited = try await Self.react(bobSocket, "👍", to: hi.id.description, in: direct.id)
            #expect(limited.error?.code == "reactingTooFast", "the sixth reaction in a minute")
            #expect(try await aliceSocket.frames(within: .milliseconds(300)).filter { $0.type == "reactions" }.isEmpty,
                    "repeats and taking off what is not there reach nobody")
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("Typing on and off in a loop relays four notices per interval at most")
    func typingLoop() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            for index in 0..<40 {
                try await aliceSocket.send("typing", ["conversation": .string(direct.id.description), "typing": .bool(index.isMultiple(of: 2))])
            }
            try await aliceSocket.send("ping", ["requestId": "sync"])
            _ = try await aliceSocket.next("pong")
            let seen = try await bobSocket.framesQueued().compactMap(\.typingNotice)
            #expect(seen.map(\.isTyping) == [true, false, true, false], "40 alternating notices, four relayed")
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("Reactions and typing from another node reach this node's members; typing named for a non-member is dropped")
    func otherNodes() async throws {
        try await OtherNodeScene.run { scene in
            let hi = try await scene.api.send("hi", in: scene.conversation, as: scene.alice)
            _ = try await scene.bobSocket.messages(1)
            _ = try await scene.store.setReaction(
                "🎉", on: true, user: scene.alice.id, message: hi.id, conversation: scene.conversation, maxKinds: 20)
            scene.bus.announce(.reactionsChanged(conversation: scene.conversation, message: hi.id))
            #expect(try await scene.bobSocket.next("reactions").reactionsByEmoji == ["🎉": [scene.alice.id]])

            scene.bus.announce(.typing(user: UserID(), conversation: scene.conversation, isTyping: true))
            scene.bus.announce(.typing(user: scene.alice.id, conversation: scene.conversation, isTyping: true))
            let typing = try await scene.bobSocket.next("typing")
            #expect(typing.typingNotice?.user == scene.alice.id, "the stranger's notice is dropped; Alice's arrives")
        }
    }
}
