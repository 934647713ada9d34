import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Messages: sequence numbers, idempotent appends, paging")
struct MessageTests {
    @Test("Sequence numbers run from 1 without gaps in each conversation, independently", arguments: StoreBackend.all)
    func gaplessSequencesPerConversation(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let first = try await store.makeConversation(alice, bob)
            let second = try await store.makeConversation(alice, bob, title: "Work")
            var sent: [Int64] = []
            for (index, conversation) in [first, second, first, first, second].enumerated() {
                sent.append(try await store.send("message \(index)", from: alice, in: conversation).sequence)
            }
            #expect(sent == [1, 1, 2, 3, 2])
            #expect(try await store.allMessages(in: first).map(\.sequence) == [1, 2, 3])
            #expect(try await store.allMessages(in: second).map(\.sequence) == [1, 2])
            #expect(try await store.allMessages(in: first).map(\.text) == ["message 0", "message 2", "message 3"])
            #expect(try await store.conversation(id: first.id)?.lastSequence == 3)
            #expect(try await store.conversation(id: second.id)?.lastSequence == 2)
        }
    }

    @Test("What append returns is exactly what reading gives back", arguments: StoreBackend.all)
    func appendedMessageReadsBack(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            var sent: [StoredMessage] = []
            for index in 0..<20 { sent.append(try await store.send("message \(index)", from: bob, in: conversation)) }
            #expect(try await store.allMessages(in: conversation) == sent)
            for message in sent {
                #expect(try await store.message(id: message.id, in: conversation.id) == message)
                #expect(message.sender == bob.id)
                #expect(message.conversationID == conversation.id)
            }
        }
    }

    @Test("Appending the same id twice returns the original as a duplicate and stores one message", arguments: StoreBackend.all)
    func duplicateAppend(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let id = MessageID()
            let first = try await store.append(
                NewMessage(id: id, conversationID: conversation.id, sender: alice.id, content: .text("hello")), validate: acceptAll)
            #expect(!first.isDuplicate)

            let retry = try await store.append(
                NewMessage(id: id, conversationID: conversation.id, sender: alice.id, content: .text("hello, edited")),
                validate: { _, _ in throw Refused(reason: "a duplicate is not validated again") })
            #expect(retry.isDuplicate)
            #expect(retry.message == first.message)
            #expect(retry.message.text == "hello")
            #expect(try await store.allMessages(in: conversation) == [first.message])

            let next = try await store.send("next", from: bob, in: conversation)
            #expect(next.sequence == 2)
        }
    }

    @Test("A message id is unique per conversation: the same id in another conversation is a new message", arguments: StoreBackend.all)
    func sameIDInAnotherConversation(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let first = try await store.makeConversation(alice, bob)
            let second = try await store.makeConversation(alice, bob, title: "Other")
            let id = MessageID()
            try await store.send("first", from: alice, in: first, id: id)
            let other = try await store.append(
                NewMessage(id: id, conversationID: second.id, sender: alice.id, content: .text("second")), validate: acceptAll)
            #expect(!other.isDuplicate)
            #expect(other.message.text == "second")
            #expect(try await store.message(id: id, in: first.id)?.text == "first")
            #expect(try await store.message(id: id, in: second.id)?.text == "second")
        }
    }

    @Test("Appending to a conversation that does not exist is refused with notFound", arguments: StoreBackend.all)
    func appendToUnknownConversation(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let error = await #expect(throws: StoreError.self) {
                try await store.append(
                    NewMessage(id: MessageID(), conversationID: ConversationID(), sender: alice.id, content: .text("hello?")),
                    validate: acceptAll)
            }
            #expect(error?.code == .notFound)
        }
    }

    @Test("messages(after:limit:) gives the messages after a sequence, oldest first, at most limit", arguments: StoreBackend.all)
    func messagesAfter(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let other = try await store.makeConversation(alice, bob, title: "Noise")
            for index in 1...10 {
                try await store.send("\(index)", from: index.isMultiple(of: 2) ? alice : bob, in: conversation)
                try await store.send("noise \(index)", from: alice, in: other)
            }
            #expect(try await store.messages(in: conversation.id, after: 0, limit: 100).map(\.text) == (1...10).map { "\($0)" })
            #expect(try await store.messages(in: conversation.id, after: 3, limit: 4).map(\.sequence) == [4, 5, 6, 7])
            #expect(try await store.messages(in: conversation.id, after: 8, limit: 4).map(\.sequence) == [9, 10])
            #expect(try await store.messages(in: conversation.id, after: 10, limit: 4).isEmpty)
            #expect(try await store.messages(in: conversation.id, after: 0, limit: 0).isEmpty)
            #expect(try await store.messages(in: ConversationID(), after: 0, limit: 10).isEmpty)
        }
    }

    @Test("latestMessages gives the newest messages, oldest first, at most limit", arguments: StoreBackend.all)
    func latestMessages(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            #expect(try await store.latestMessages(in: conversation.id, limit: 5).isEmpty)
            for index in 1...10 { try await store.send("\(index)", from: alice, in: conversation) }
            #expect(try await store.latestMessages(in: conversation.id, limit: 3).map(\.text) == ["8", "9", "10"])
            #expect(try await store.latestMessages(in: conversation.id, limit: 50).map(\.sequence) == Array(1...10))
            let all = try await store.allMessages(in: conversation)
            #expect(try await store.latestMessages(in: conversation.id, limit: 1) == Array(all.suffix(1)))
        }
    }

    @Test("message(id:in:) finds a message only in its own conversation", arguments: StoreBackend.all)
    func messageByID(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let other = try await store.makeConversation(alice, bob, title: "Other")
            let sent = try await store.send("here", from: alice, in: conversation)
            #expect(try await store.message(id: sent.id, in: conversation.id) == sent)
            #expect(try await store.message(id: sent.id, in: other.id) == nil)
            #expect(try await store.message(id: MessageID(), in: conversation.id) == nil)
        }
    }
}
