import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Read receipts")
struct ReadReceiptTests {
    static func read(_ socket: TestSocket, _ conversation: ConversationID, upTo sequence: Int64) async throws {
        try await socket.send("read", ["conversation": .string(conversation.description), "sequence": .int(sequence)])
        try await socket.send("ping", ["requestId": "sync-read"])
        _ = try await socket.next("pong")
    }

    @Test("When Bob reads, Alice sees how far and when, live and from the reads route; with receipts off, nobody sees")
    func receipts() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])
            for text in ["one", "two"] { try await api.send(text, in: direct.id, as: alice) }
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            try await Self.read(bobSocket, direct.id, upTo: 2)
            let receipt = try await aliceSocket.next("readReceipt")
            guard case .readReceipt(let conversation, let shown) = receipt else { throw SocketError(description: "not a receipt") }
            #expect(conversation == direct.id && shown.userID == bob.id && shown.sequence == 2)
            #expect(shown.readAt.map { abs($0.timeIntervalSinceNow) < 60 } == true, "read just now")
            #expect(try await bobSocket.frames(within: .milliseconds(200)).filter { $0.type == "readReceipt" }.isEmpty,
                    "the reader's own tabs are not told")
            let reads = try await api.get("/api/conversations/\(direct.id)/reads", as: alice).decode([Wire.ReadReceipt].self)
            #expect(reads.first { $0.userID == bob.id }?.sequence == 2)
            #expect(try await api.get("/api/conversations/\(direct.id)/reads", as: carol).status == .notFound)

            let off = try await api.request(.patch, "/api/me", as: bob, json: ["sharesReadReceipts": false]).decode(Wire.Me.self)
            #expect(off.sharesReadReceipts == false)
            #expect(try await api.get("/api/me", as: bob).decode(Wire.Me.self).sharesReadReceipts == false)
            for bad: JSON in [["sharesReadReceipts": .null], ["sharesReadReceipts": "yes"]] {
                #expect(try await api.request(.patch, "/api/me", as: bob, json: bad).status == .badRequest)
            }
            #expect(try await api.get("/api/me", as: bob).decode(Wire.Me.self).sharesReadReceipts == false, "a refused change changes nothing")
            try await api.send("three", in: direct.id, as: alice)
            try await Self.read(bobSocket, direct.id, upTo: 3)
            #expect(try await aliceSocket.frames(within: .milliseconds(300)).filter { $0.type == "readReceipt" }.isEmpty,
                    "with receipts off, Bob's reading is his own business")
            let hidden = try await api.get("/api/conversations/\(direct.id)/reads", as: alice).decode([Wire.ReadReceipt].self)
            #expect(!hidden.contains { $0.userID == bob.id })
            #expect(try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self).unreadCount == 0,
                    "his own unread count still follows what he read")
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("A read tells the reader's other tabs and the others once; reading it again tells nobody anything")
    func repeatedRead() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            for text in ["one", "two"] { try await api.send(text, in: direct.id, as: alice) }
            let aliceSocket = try await TestSocket.session(port: port, as: alice)
            let bobPhone = try await TestSocket.session(port: port, as: bob)
            let bobLaptop = try await TestSocket.session(port: port, as: bob)

            try await Self.read(bobPhone, direct.id, upTo: 2)
            #expect(try await bobLaptop.next("conversation").conversationInfo?.unreadCount == 0, "his other tab shows it read")
            _ = try await aliceSocket.next("readReceipt")
            for socket in [aliceSocket, bobPhone, bobLaptop] { _ = try await socket.framesQueued() }

            // The same read again (a second tab looking, a reconnect): nothing changed, nothing to say.
            try await Self.read(bobPhone, direct.id, upTo: 2)
            try await Self.read(bobLaptop, direct.id, upTo: 1)
            for socket in [aliceSocket, bobPhone, bobLaptop] {
                let said = try await socket.framesQueued().map(\.type).filter { $0 == "conversation" || $0 == "readReceipt" }
                #expect(said.isEmpty, "nothing new was read, yet \(said) was sent")
            }
            for socket in [aliceSocket, bobPhone, bobLaptop] { await socket.disconnect() }
        }
    }

    @Test("A read on another node reaches this node's members")
    func otherNodes() async throws {
        try await OtherNodeScene.run { scene in
            let sent = try await scene.api.send("hello", in: scene.conversation, as: scene.alice)
            _ = try await scene.bobSocket.messages(1)
            try await scene.store.markRead(user: scene.alice.id, conversation: scene.conversation, upTo: sent.sequence)
            scene.bus.announce(.readMoved(user: scene.alice.id, conversation: scene.conversation))
            let receipt = try await scene.bobSocket.next("readReceipt")
            guard case .readReceipt(_, let shown) = receipt else { throw SocketError(description: "not a receipt") }
            #expect(shown.userID == scene.alice.id && shown.sequence == sent.sequence)
        }
    }
}
