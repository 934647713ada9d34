import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Reactions in the store")
struct ReactionStoreTests {
    @Test("Each person puts each emoji once, takes it off, in the order given; a message holds at most maxKinds kinds", arguments: StoreBackend.all)
    func setAndRead(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let hi = try await store.append(
                NewMessage(id: MessageID(), conversationID: conversation.id, sender: alice.id, content: .text("hi")), validate: acceptAll).message
            let other = try await store.append(
                NewMessage(id: MessageID(), conversationID: conversation.id, sender: bob.id, content: .text("yo")), validate: acceptAll).message
            func set(_ emoji: String, off: Bool = false, by user: User, on message: StoredMessage? = nil) async throws -> [String] {
                try await store.setReaction(
                    emoji, on: !off, user: user.id, message: (message ?? hi).id, conversation: conversation.id, maxKinds: 3
                ).reactions.map { "\($0.user == alice.id ? "alice" : "bob") \($0.emoji)" }
            }
            #expect(try await set("❤️", by: bob) == ["bob ❤️"])
            #expect(try await set("❤️", by: bob) == ["bob ❤️"], "twice is once")
            let repeated = try await store.setReaction("❤️", on: true, user: bob.id, message: hi.id, conversation: conversation.id, maxKinds: 3)
            #expect(!repeated.changed, "and says it changed nothing")
            let absent = try await store.setReaction("🙃", on: false, user: bob.id, message: hi.id, conversation: conversation.id, maxKinds: 3)
            #expect(!absent.changed)
            #expect(try await set("❤️", by: alice) == ["bob ❤️", "alice ❤️"])
            #expect(try await set("👍", by: bob) == ["bob ❤️", "alice ❤️", "bob 👍"])
            #expect(try await set("❤️", off: true, by: bob) == ["alice ❤️", "bob 👍"])
            #expect(try await set("❤️", off: true, by: bob) == ["alice ❤️", "bob 👍"], "taking off what is not there changes nothing")
            _ = try await set("😂", by: alice)
            await #expect(throws: StoreError.self, "a fourth kind") { _ = try await set("🎉", by: bob) }
            #expect(try await set("😂", by: bob).count == 4, "more of a kind the message has is fine")
            _ = try await set("🎉", by: bob, on: other)

            let read = try await store.reactions(to: [hi.id, other.id, MessageID()], in: conversation.id)
            #expect(read[hi.id]?.map(\.emoji) == ["❤️", "👍", "😂", "😂"])
            #expect(read[other.id]?.map(\.emoji) == ["🎉"])
            #expect(read.count == 2, "a message with none is left out")
            #expect(try await store.reactions(to: [], in: conversation.id).isEmpty)

            let elsewhere = try await store.makeConversation(alice)
            await #expect(throws: StoreError.self, "a message named with another conversation") {
                _ = try await store.setReaction("❤️", on: true, user: alice.id, message: hi.id, conversation: elsewhere.id, maxKinds: 3)
            }
            #expect(try await store.reactions(to: [hi.id], in: elsewhere.id).isEmpty)

            try await store.deleteUser(id: bob.id)
            #expect(try await store.reactions(to: [hi.id], in: conversation.id)[hi.id]?.map(\.user) == [alice.id, alice.id],
                    "a deleted account's reactions go with it")
        }
    }
}
