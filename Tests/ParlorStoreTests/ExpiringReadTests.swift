import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Expiring messages: first reads, keeping, hiding")
struct ExpiringReadTests {
    /// A fixed moment the tests count from.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Alice, Bob and Carol in a group where Bob has sent three expiring messages.
    struct Scene {
        let alice: User, bob: User, carol: User
        let conversation: ConversationRecord
        let messages: [StoredMessage]
    }

    static func scene(_ store: any ParlorStore) async throws -> Scene {
        let alice = try await store.makeUser("alice")
        let bob = try await store.makeUser("bob")
        let carol = try await store.makeUser("carol")
        let conversation = try await store.makeConversation(alice, bob, carol)
        var messages: [StoredMessage] = []
        for index in 0..<3 {
            let message = Message(layout: .template(TemplateLayout(caption: "voice note \(index)")), shouldExpire: true)
            let new = NewMessage(id: message.id, conversationID: conversation.id, sender: bob.id, content: .app(message))
            messages.append(try await store.append(new, validate: acceptAll).message)
        }
        return Scene(alice: alice, bob: bob, carol: carol, conversation: conversation, messages: messages)
    }

    @Test("expireReads hides exactly the unkept reads older than the cut-off, for their readers, and returns them", arguments: StoreBackend.all)
    func expireHidesOldUnkeptReads(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let scene = try await Self.scene(store)
            let (alice, carol, conversation) = (scene.alice, scene.carol, scene.conversation.id)
            let (first, second, third) = (scene.messages[0].id, scene.messages[1].id, scene.messages[2].id)
            try await store.recordExpiringRead(user: alice.id, message: first, conversation: conversation, at: Self.start)
            try await store.recordExpiringRead(user: alice.id, message: second, conversation: conversation, at: Self.start)
            try await store.keep(user: alice.id, message: second, conversation: conversation)
            try await store.recordExpiringRead(user: alice.id, message: third, conversation: conversation, at: Self.start + 100)
            try await store.recordExpiringRead(user: carol.id, message: first, conversation: conversation, at: Self.start + 100)

            let hidden = try await store.expireReads(readBefore: Self.start + 50)
            #expect(hidden.map(\.user) == [alice.id])
            #expect(hidden.map(\.conversation) == [conversation])
            #expect(hidden.map(\.message) == [first])
            #expect(try await store.hiddenMessages(user: alice.id, conversation: conversation).expired == [first])
            #expect(try await store.hiddenMessages(user: carol.id, conversation: conversation).expired.isEmpty)
            #expect(try await store.hiddenMessages(user: scene.bob.id, conversation: conversation).expired.isEmpty)

            // Already hidden messages are not reported again.
            #expect(try await store.expireReads(readBefore: Self.start + 50).isEmpty)

            let later = try await store.expireReads(readBefore: Self.start + 200)
            #expect(Set(later.map { "\($0.user)/\($0.message)" }) == ["\(alice.id)/\(third)", "\(carol.id)/\(first)"])
            #expect(try await store.hiddenMessages(user: alice.id, conversation: conversation).expired == [first, third])
            #expect(try await store.hiddenMessages(user: carol.id, conversation: conversation).expired == [first])
            // The messages themselves stay for everyone else.
            #expect(try await store.allMessages(in: scene.conversation).count == 3)
        }
    }

    @Test("A later read keeps the first read time", arguments: StoreBackend.all)
    func firstReadTimeIsKept(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let scene = try await Self.scene(store)
            let (alice, conversation, message) = (scene.alice, scene.conversation.id, scene.messages[0].id)
            try await store.recordExpiringRead(user: alice.id, message: message, conversation: conversation, at: Self.start)
            try await store.recordExpiringRead(user: alice.id, message: message, conversation: conversation, at: Self.start + 1000)
            let hidden = try await store.expireReads(readBefore: Self.start + 500)
            #expect(hidden.map(\.message) == [message])
            #expect(try await store.hiddenMessages(user: alice.id, conversation: conversation).expired == [message])
        }
    }

    @Test("A kept message never expires, whether kept after or before reading it", arguments: StoreBackend.all)
    func keptMessagesStay(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let scene = try await Self.scene(store)
            let (alice, carol, conversation) = (scene.alice, scene.carol, scene.conversation.id)
            let (first, second) = (scene.messages[0].id, scene.messages[1].id)
            try await store.recordExpiringRead(user: alice.id, message: first, conversation: conversation, at: Self.start)
            try await store.keep(user: alice.id, message: first, conversation: conversation)
            try await store.keep(user: carol.id, message: second, conversation: conversation)
            try await store.recordExpiringRead(user: carol.id, message: second, conversation: conversation, at: Self.start)

            #expect(try await store.expireReads(readBefore: .distantFuture).isEmpty)
            #expect(try await store.hiddenMessages(user: alice.id, conversation: conversation).expired.isEmpty)
            #expect(try await store.hiddenMessages(user: carol.id, conversation: conversation).expired.isEmpty)
        }
    }

    @Test("Hidden messages are per user and per conversation", arguments: StoreBackend.all)
    func hiddenPerUserAndConversation(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let scene = try await Self.scene(store)
            let other = try await store.makeConversation(scene.alice, scene.bob)
            let elsewhere = try await store.send("expiring elsewhere", from: scene.bob, in: other)
            try await store.recordExpiringRead(
                user: scene.alice.id, message: scene.messages[0].id, conversation: scene.conversation.id, at: Self.start)
            try await store.recordExpiringRead(user: scene.alice.id, message: elsewhere.id, conversation: other.id, at: Self.start)
            #expect(try await store.expireReads(readBefore: Self.start + 1).count == 2)
            #expect(try await store.hiddenMessages(user: scene.alice.id, conversation: scene.conversation.id).expired == [scene.messages[0].id])
            #expect(try await store.hiddenMessages(user: scene.alice.id, conversation: other.id).expired == [elsewhere.id])
            #expect(try await store.hiddenMessages(user: scene.carol.id, conversation: scene.conversation.id).expired.isEmpty)
        }
    }
}
