import Foundation
import GRDB
import ParlorKit
import ParlorStore
import PostgresNIO
import Testing

@Suite("Where a conversation sits in one member's list: pinned, archived, marked unread")
struct ListPlaceStoreTests {
    @Test("Pins are one person's, ordered by when they were pinned, kept in place when pinned again, at most five", arguments: StoreBackend.all)
    func pins(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            var conversations: [ConversationRecord] = []
            for index in 0..<6 { conversations.append(try await store.makeConversation(alice, bob, try await store.makeUser("p\(index)"))) }
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            for (index, conversation) in conversations.prefix(5).enumerated() {
                try await store.changeList(.pin(true), user: alice.id, conversation: conversation.id, at: start + Double(index))
            }
            let first = try #require(try await store.summary(of: conversations[0], for: alice))
            #expect(first.place.pinnedAt == start, "pinnedAt is when it was pinned")
            try await store.changeList(.pin(true), user: alice.id, conversation: conversations[0].id, at: start + 100)
            #expect(try await store.summary(of: conversations[0], for: alice)?.place.pinnedAt == start, "pinned again: its place stays")
            #expect(try await store.summary(of: conversations[0], for: bob)?.place.pinnedAt == nil, "bob's list is his own")

            await #expect(throws: StoreError.self, "a sixth pin") {
                try await store.changeList(.pin(true), user: alice.id, conversation: conversations[5].id, at: start + 6)
            }
            #expect(try await store.summary(of: conversations[5], for: alice)?.place.pinnedAt == nil)
            try await store.changeList(.pin(true), user: bob.id, conversation: conversations[5].id, at: start)
            #expect(try await store.summary(of: conversations[5], for: bob)?.place.pinnedAt == start, "bob has pins of his own")

            try await store.changeList(.pin(false), user: alice.id, conversation: conversations[2].id, at: start)
            #expect(try await store.summary(of: conversations[2], for: alice)?.place.pinnedAt == nil)
            try await store.changeList(.pin(true), user: alice.id, conversation: conversations[5].id, at: start + 7)
            #expect(try await store.summary(of: conversations[5], for: alice)?.place.pinnedAt == start + 7, "room again once one is unpinned")
        }
    }

    @Test("Archived until the next message, for good while muted; outsiders cannot", arguments: StoreBackend.all)
    func archive(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let direct = try await store.makeConversation(alice, bob)
            try await store.send("hello", from: bob, in: direct)
            try await store.changeList(.archive(true), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.summary(of: direct, for: alice)?.isArchived == true)
            #expect(try await store.summary(of: direct, for: bob)?.isArchived == false, "bob's list is his own")

            try await store.send("are you there?", from: bob, in: direct)
            #expect(try await store.summary(of: direct, for: alice)?.isArchived == false, "a new message brings it back")
            try await store.changeList(.mute(true), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.summary(of: direct, for: alice)?.isArchived == false, "muted after it came back: it stays in the list")
            #expect(try await store.mutedMembers(of: direct.id) == [alice.id], "who muted it, for pushes")
            try await store.changeList(.mute(false), user: alice.id, conversation: direct.id, at: Date())

            try await store.changeList(.archive(true), user: alice.id, conversation: direct.id, at: Date())
            try await store.changeList(.mute(true), user: alice.id, conversation: direct.id, at: Date())
            try await store.send("still there?", from: bob, in: direct)
            #expect(try await store.summary(of: direct, for: alice)?.isArchived == true, "muted: it stays archived")
            try await store.changeList(.archive(false), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.summary(of: direct, for: alice)?.isArchived == false)
            #expect(try await store.summary(of: direct, for: alice)?.isMuted == true, "unarchiving leaves the mute alone")

            await #expect(throws: StoreError.self) {
                try await store.changeList(.archive(true), user: carol.id, conversation: direct.id, at: Date())
            }
        }
    }

    @Test("Marked unread for one person until they clear it", arguments: StoreBackend.all)
    func markUnread(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let direct = try await store.makeConversation(alice, bob)
            try await store.changeList(.markUnread(true), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.summary(of: direct, for: alice)?.place.isMarkedUnread == true)
            #expect(try await store.summary(of: direct, for: bob)?.place.isMarkedUnread == false)
            #expect(try await store.conversationSummary(direct.id, for: alice.id)?.place.isMarkedUnread == true)
            try await store.changeList(.markUnread(false), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.summary(of: direct, for: alice)?.place.isMarkedUnread == false)
        }
    }

    @Test("Deleted for one member: hidden up to there, out of their list, nothing unread, pin and archive gone, mute kept; the next message brings it back", arguments: StoreBackend.all)
    func deleteHistory(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let direct = try await store.makeConversation(alice, bob)
            try await store.send("one", from: bob, in: direct)
            try await store.send("two", from: bob, in: direct)
            for change: ListChange in [.pin(true), .archive(true), .markUnread(true), .mute(true)] {
                try await store.changeList(change, user: alice.id, conversation: direct.id, at: Date())
            }
            try await store.changeList(.deleteHistory(through: nil), user: alice.id, conversation: direct.id, at: Date())
            let deleted = try #require(try await store.summary(of: direct, for: alice))
            #expect(deleted.isDeleted && deleted.unreadCount == 0)
            #expect(deleted.place.pinnedAt == nil && deleted.place.archivedThrough == nil && !deleted.place.isMarkedUnread)
            #expect(deleted.isMuted, "a mute is about the conversation, not its history: it stays")
            #expect(try await store.hiddenMessages(user: alice.id, conversation: direct.id).deletedThrough == 2)
            #expect(try await store.hiddenMessages(user: bob.id, conversation: direct.id) == HiddenMessages(), "Bob's is untouched")
            #expect(try await store.summary(of: direct, for: bob)?.isDeleted == false)

            try await store.send("three", from: bob, in: direct)
            let back = try #require(try await store.summary(of: direct, for: alice))
            #expect(!back.isDeleted && back.unreadCount == 1, "back, with only the new message unread")

            // Deleted up to what the person saw: a message that came meanwhile stays, and keeps it listed.
            try await store.send("four", from: bob, in: direct)
            try await store.changeList(.deleteHistory(through: 3), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.hiddenMessages(user: alice.id, conversation: direct.id).deletedThrough == 3)
            let unseen = try #require(try await store.summary(of: direct, for: alice))
            #expect(!unseen.isDeleted && unseen.unreadCount == 1, "message 4, unseen when she deleted, is still there")
            try await store.changeList(.deleteHistory(through: 99), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.hiddenMessages(user: alice.id, conversation: direct.id).deletedThrough == 4, "never past the last message")
        }
    }

    @Test("A line about the conversation (an event) counts as unread for nobody, and alerts nobody", arguments: StoreBackend.all)
    func eventsAreNotUnread(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let group = try await store.makeConversation(alice, bob, carol, title: "Plans")
            try await store.send("hello", from: alice, in: group)
            let event = NewMessage(id: MessageID(), conversationID: group.id, sender: alice.id, content: .event(.renamed(title: "Friday")))
            _ = try await store.append(event, validate: acceptAll)
            let bobs = try #require(try await store.summary(of: group, for: bob))
            #expect(bobs.unreadCount == 1 && bobs.lastMessage?.content.isEvent == true, "the line is the last message, not an unread one")
        }
    }

    @Test("A line about the conversation (a new name) brings back neither an archived nor a deleted conversation; the next message someone sends does", arguments: StoreBackend.all)
    func eventsDoNotBringBack(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let dave = try await store.makeUser("dave")
            let group = try await store.makeConversation(alice, bob, carol, dave, title: "Plans")
            try await store.send("hello", from: alice, in: group)
            try await store.changeList(.archive(true), user: bob.id, conversation: group.id, at: Date())
            try await store.changeList(.deleteHistory(through: nil), user: carol.id, conversation: group.id, at: Date())
            // Dave archived it, and muted it after a message brought it back: muting then keeps it listed.
            try await store.changeList(.archive(true), user: dave.id, conversation: group.id, at: Date())

            let renamed = NewMessage(id: MessageID(), conversationID: group.id, sender: alice.id, content: .event(.renamed(title: "Friday")))
            _ = try await store.append(renamed, validate: acceptAll)
            #expect(try await store.summary(of: group, for: bob)?.isArchived == true, "a new name leaves it in Archived")
            #expect(try await store.summary(of: group, for: carol)?.isDeleted == true, "a new name does not bring back what she deleted")
            try await store.changeList(.mute(true), user: dave.id, conversation: group.id, at: Date())
            #expect(try await store.summary(of: group, for: dave)?.isArchived == true, "muted after a line only: still archived")

            try await store.send("dinner at eight?", from: alice, in: group)
            #expect(try await store.summary(of: group, for: bob)?.isArchived == false, "a message someone sent brings it back")
            let carols = try #require(try await store.summary(of: group, for: carol))
            #expect(!carols.isDeleted && carols.unreadCount == 1, "back with the new message only")
        }
    }

    @Test("Conversations stored before v19 learn their last message someone sent when the migration runs", arguments: StoreBackend.all)
    func lastMessageMigration(backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let store = try await database.open()
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let group = try await store.makeConversation(alice, bob, title: "Plans")
            try await store.send("hello", from: alice, in: group)
            let renamed = NewMessage(id: MessageID(), conversationID: group.id, sender: alice.id, content: .event(.renamed(title: "Friday")))
            _ = try await store.append(renamed, validate: acceptAll)
            let statements = ["ALTER TABLE conversations DROP COLUMN last_message_seq"]
            if let url = database.postgresURL {
                try await PostgresTestServer.withClient(url: url) { client in
                    for statement in statements + ["DELETE FROM schema_migrations WHERE name = 'v19: the last message someone sent'"] {
                        try await client.query(PostgresQuery(unsafeSQL: statement))
                    }
                }
            } else {
                let queue = try DatabaseQueue(path: try #require(database.sqlitePath))
                try await queue.write { db in
                    for statement in statements + ["DELETE FROM grdb_migrations WHERE identifier = 'v19: the last message someone sent'"] {
                        try db.execute(sql: statement)
                    }
                }
            }
            let reopened = try await database.open()
            let record = try #require(try await reopened.conversation(id: group.id))
            #expect(record.lastSequence == 2 && record.lastMessageSequence == 1, "the line is last, the message before it is the last someone sent")
        }
    }
}
