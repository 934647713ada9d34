import Foundation
import ParlorKit
import ParlorServer
import ParlorStore
import ParlorStoreSQLite
import Testing

/// The server's caches stay bounded however many conversations are touched (issue: "Security",
/// caches).
@Suite("Bounded caches")
struct BoundedCacheTests {
    @Test("Touching more conversations than the cache holds keeps it at its bound; recently used ones stay, and evicted ones read back right")
    func conversationCacheIsBounded() async throws {
        try await TestServer().run { _, store in
            let alice = try await store.createUser(username: "alice", displayName: "Alice", passwordHash: "x")
            var conversations: [ConversationRecord] = []
            for index in 0..<60 {
                let other = try await store.createUser(username: "user\(index)", displayName: "User", passwordHash: "x")
                conversations.append(try await store.createConversation(title: nil, isGroup: false, members: [alice.id, other.id]))
            }
            let caches = ViewerCaches(capacity: 20)
            let favourite = conversations[0]
            for conversation in conversations {
                _ = try await caches.conversation(conversation.id, store: store)
                _ = try await caches.conversation(favourite.id, store: store)  // used all along
                #expect(await caches.counts[0] <= 20)
            }
            #expect(await caches.counts[0] >= 18, "eviction drops a tenth, not everything")
            // Renamed behind the cache's back: a cached conversation still shows its old title, an
            // evicted one is read again from the store.
            try await store.setTitle("renamed", of: favourite.id)
            try await store.setTitle("renamed", of: conversations[1].id)
            #expect(try await caches.conversation(favourite.id, store: store)?.title == nil, "the one used all along stayed")
            #expect(try await caches.conversation(conversations[1].id, store: store)?.title == "renamed", "an old one was evicted")
            for conversation in conversations.dropFirst(2) {
                #expect(try await caches.conversation(conversation.id, store: store)?.members == conversation.members)
            }
        }
    }
}
