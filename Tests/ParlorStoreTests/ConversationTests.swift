import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Conversations, members and unread counts")
struct ConversationTests {
    @Test("A new conversation reads back exactly as created: title, kind, members in order", arguments: StoreBackend.all)
    func createdConversationReadsBack(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            var members: [UserID] = []
            for name in ["erin", "carol", "alice", "dave", "bob"] { members.append(try await store.makeUser(name).id) }
            let created = try await store.createConversation(title: "Picnic 🧺", isGroup: true, members: members)
            #expect(created.title == "Picnic 🧺")
            #expect(created.isGroup)
            #expect(created.members == members)
            #expect(created.lastSequence == 0)
            #expect(try await store.conversation(id: created.id) == created)
            #expect(try await store.conversation(id: ConversationID()) == nil)
        }
    }

    @Test("A conversation with an unknown member is refused with notFound and nothing is created", arguments: StoreBackend.all)
    func unknownMemberCreatesNothing(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let error = await #expect(throws: StoreError.self) {
                try await store.createConversation(title: "Ghosts", isGroup: false, members: [alice.id, UserID()])
            }
            #expect(error?.code == .notFound)
            #expect(try await store.conversations(of: alice.id).isEmpty)
        }
    }

    @Test("A member listed twice is a member once", arguments: StoreBackend.all)
    func duplicateMembersCollapse(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let created = try await store.createConversation(title: nil, isGroup: false, members: [alice.id, bob.id, alice.id, bob.id])
            #expect(created.members == [alice.id, bob.id])
            #expect(try await store.conversation(id: created.id)?.members == [alice.id, bob.id])
            #expect(try await store.conversations(of: alice.id).count == 1)
        }
    }

    @Test("A user's list holds only their conversations, most recently active first", arguments: StoreBackend.all)
    func listIsTheUsersMostRecentFirst(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let withBob = try await store.makeConversation(alice, bob)
            let withCarol = try await store.makeConversation(alice, carol)
            let bobAndCarol = try await store.makeConversation(bob, carol)

            #expect(try await store.conversations(of: alice.id).map(\.conversation.id) == [withCarol.id, withBob.id])
            try await store.send("hi bob", from: alice, in: withBob)
            #expect(try await store.conversations(of: alice.id).map(\.conversation.id) == [withBob.id, withCarol.id])
            try await store.send("hi alice", from: carol, in: withCarol)
            #expect(try await store.conversations(of: alice.id).map(\.conversation.id) == [withCarol.id, withBob.id])
            try await store.send("psst", from: bob, in: bobAndCarol)
            #expect(try await store.conversations(of: alice.id).map(\.conversation.id) == [withCarol.id, withBob.id])
            #expect(try await store.conversations(of: bob.id).map(\.conversation.id) == [bobAndCarol.id, withBob.id])
        }
    }

    @Test("The list shows each conversation as stored, with its last message", arguments: StoreBackend.all)
    func summaryCarriesRecordAndLastMessage(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob, title: "Us")
            let empty = try #require(try await store.summary(of: conversation, for: alice))
            #expect(empty.conversation == conversation)
            #expect(empty.lastMessage == nil)
            #expect(empty.unreadCount == 0)

            try await store.send("one", from: alice, in: conversation)
            let last = try await store.send("two", from: bob, in: conversation)
            let summary = try #require(try await store.summary(of: conversation, for: alice))
            #expect(summary.lastMessage == last)
            #expect(summary.conversation.lastSequence == 2)
            #expect(summary.conversation.title == "Us")
        }
    }

    @Test("Unread counts others' messages after the read mark; one's own messages are never unread", arguments: StoreBackend.all)
    func unreadCount(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            for text in ["a", "b", "c"] { try await store.send(text, from: bob, in: conversation) }
            try await store.send("mine", from: alice, in: conversation)

            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 3)
            #expect(try await store.summary(of: conversation, for: bob)?.unreadCount == 1)

            let before = try await store.readMark(user: alice.id, conversation: conversation.id)
            #expect(before.mark == 0 && before.last == 4)
            let first = try await store.markRead(user: alice.id, conversation: conversation.id, upTo: 2)
            #expect(first.previous == 0 && first.current == 2, "the mark before and after: what was newly read")
            let after = try await store.readMark(user: alice.id, conversation: conversation.id)
            #expect(after.mark == 2 && after.last == 4)
            let stranger = try await store.makeUser("carol")
            let outside = try await store.readMark(user: stranger.id, conversation: conversation.id)
            #expect(outside.mark == 0 && outside.last == 0, "someone outside learns nothing")
            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 1)
            #expect(try await store.summary(of: conversation, for: bob)?.unreadCount == 1)

            // A stale mark from another device does not make read messages unread again.
            let stale = try await store.markRead(user: alice.id, conversation: conversation.id, upTo: 1)
            #expect(stale.previous == 2 && stale.current == 2)
            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 1)

            // A mark past the last message stops at it, so the next message is unread.
            let ahead = try await store.markRead(user: alice.id, conversation: conversation.id, upTo: .max)
            #expect(ahead.previous == 2 && ahead.current == 4)
            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 0)
            try await store.send("d", from: bob, in: conversation)
            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 1)
        }
    }

    @Test("A member added later starts with everything before marked read and sees the conversation", arguments: StoreBackend.all)
    func addedMemberStartsCaughtUp(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let conversation = try await store.makeConversation(alice, bob)
            try await store.send("before carol 1", from: bob, in: conversation)
            try await store.send("before carol 2", from: alice, in: conversation)

            try await store.addMember(carol.id, to: conversation.id)
            #expect(try await store.conversation(id: conversation.id)?.members == [alice.id, bob.id, carol.id])
            #expect(try await store.summary(of: conversation, for: carol)?.unreadCount == 0)

            // Adding someone who is already a member changes nothing, their read mark included.
            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 1)
            try await store.addMember(alice.id, to: conversation.id)
            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 1)
            #expect(try await store.conversation(id: conversation.id)?.members == [alice.id, bob.id, carol.id])

            try await store.send("welcome carol", from: bob, in: conversation)
            #expect(try await store.summary(of: conversation, for: carol)?.unreadCount == 1)
            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 2)
        }
    }

    @Test("Adding an unknown user is refused with notFound", arguments: StoreBackend.all)
    func addUnknownMember(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let conversation = try await store.makeConversation(alice)
            let error = await #expect(throws: StoreError.self) { try await store.addMember(UserID(), to: conversation.id) }
            #expect(error?.code == .notFound)
            #expect(try await store.conversation(id: conversation.id)?.members == [alice.id])
        }
    }

    @Test("A removed member leaves the member list and no longer sees the conversation", arguments: StoreBackend.all)
    func removedMember(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let conversation = try await store.makeConversation(alice, bob, carol)
            try await store.removeMember(bob.id, from: conversation.id)
            #expect(try await store.conversation(id: conversation.id)?.members == [alice.id, carol.id])
            #expect(try await store.conversations(of: bob.id).isEmpty)
            #expect(try await store.conversations(of: alice.id).map(\.conversation.id) == [conversation.id])
        }
    }

    @Test("A group's creator is its admin; admins can be named and unnamed; when the last admin leaves, the longest-standing member becomes one", arguments: StoreBackend.all)
    func groupAdmins(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let dave = try await store.makeUser("dave")
            let group = try await store.makeConversation(alice, bob, carol)
            #expect(group.admins == [alice.id])
            #expect(try await store.conversation(id: group.id)?.admins == [alice.id])
            try await store.addMember(dave.id, to: group.id)
            #expect(try await store.setAdmin(carol.id, true, in: group.id, by: bob.id) == .actorNotAdmin)
            #expect(try await store.setAdmin(carol.id, true, in: group.id, by: alice.id) == .done)
            #expect(try await store.conversation(id: group.id)?.admins == [alice.id, carol.id])
            #expect(try await store.setAdmin(carol.id, false, in: group.id, by: alice.id) == .done)
            #expect(try await store.setAdmin(alice.id, false, in: group.id, by: alice.id) == .lastAdmin)
            #expect(try await store.setAdmin(UserID(), true, in: group.id, by: alice.id) == .done)  // not a member: nothing happens
            #expect(try await store.conversation(id: group.id)?.admins == [alice.id])

            // Two admins demoting each other at the same moment: one of them stays admin.
            #expect(try await store.setAdmin(bob.id, true, in: group.id, by: alice.id) == .done)
            async let first = store.setAdmin(alice.id, false, in: group.id, by: bob.id)
            async let second = store.setAdmin(bob.id, false, in: group.id, by: alice.id)
            let outcomes = try await [first, second]
            #expect(outcomes.filter { $0 == .done }.count == 1, "\(outcomes)")
            #expect(try await store.conversation(id: group.id)?.admins.count == 1)

            try await store.removeMember(alice.id, from: group.id)
            #expect(try await store.conversation(id: group.id)?.admins == [bob.id], "bob joined first of those left")
            try await store.removeMember(carol.id, from: group.id)
            #expect(try await store.conversation(id: group.id)?.admins == [bob.id], "a member who is not admin leaving changes nothing")

            let direct = try await store.makeConversation(alice, bob)
            #expect(direct.admins.isEmpty)
            try await store.removeMember(alice.id, from: direct.id)
            #expect(try await store.conversation(id: direct.id)?.admins == [], "a 1:1 conversation has no admins, ever")
        }
    }

    @Test("The title can be changed and cleared", arguments: StoreBackend.all)
    func setTitle(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob, title: "Old")
            try await store.setTitle("Новое имя", of: conversation.id)
            #expect(try await store.conversation(id: conversation.id)?.title == "Новое имя")
            #expect(try await store.summary(of: conversation, for: bob)?.conversation.title == "Новое имя")
            try await store.setTitle(nil, of: conversation.id)
            #expect(try await store.conversation(id: conversation.id)?.title == nil)
        }
    }

    @Test("A group's photo is kept, read with the conversation, fetched by its members only, kept from the sweep while set, and cleared",
          arguments: StoreBackend.all)
    func photo(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let group = try await store.makeConversation(alice, bob, title: "Friday")
            let hash = String(repeating: "c3", count: 32)
            let long = Date(timeIntervalSinceNow: -3 * 86_400)
            #expect(try await store.putBlob(Data([1, 2, 3]), hash: hash, contentType: "image/png", owner: alice.id, quota: 1_000, at: long))
            #expect(try await store.blobInfo(hash: hash, readableBy: bob.id) == nil, "an upload is its uploader's")
            try await store.setPhoto(hash, of: group.id)
            #expect(try await store.conversation(id: group.id)?.photo == hash)
            #expect(try await store.summary(of: group, for: bob)?.conversation.photo == hash)
            #expect(try await store.blobInfo(hash: hash, readableBy: bob.id)?.size == 3, "a member fetches the group's photo")
            #expect(try await store.blobInfo(hash: hash, readableBy: carol.id) == nil, "someone outside the group does not")
            _ = try await store.removeUnusedUploads(before: Date())
            #expect(try await store.blob(hash: hash, readableBy: bob.id) != nil, "the sweep keeps a group's photo")
            try await store.setPhoto(nil, of: group.id)
            #expect(try await store.conversation(id: group.id)?.photo == nil)
            _ = try await store.removeUnusedUploads(before: Date())
            #expect(try await store.blob(hash: hash, readableBy: alice.id) == nil, "removed, and past the day, it is swept")
        }
    }

    @Test("A group's photo goes with its last member, in the same removal; it stays while anyone is left", arguments: StoreBackend.all)
    func photoGoesWithTheLastMember(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let group = try await store.makeConversation(alice, bob, title: "Friday")
            try await store.setPhoto(String(repeating: "c4", count: 32), of: group.id)
            try await store.removeMember(alice.id, from: group.id)
            #expect(try await store.conversation(id: group.id)?.photo != nil, "Bob is still in it")
            try await store.removeMember(bob.id, from: group.id)
            #expect(try await store.conversation(id: group.id)?.photo == nil)
        }
    }

    @Test("One conversation's summary is exactly its entry in the member's list; nil for someone outside it", arguments: StoreBackend.all)
    func singleSummary(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let first = try await store.makeConversation(alice, bob)
            let second = try await store.makeConversation(alice, carol, title: "Plans")
            try await store.send("hi", from: bob, in: first)
            try await store.send("later", from: carol, in: second)

            for conversation in [first, second] {
                let listed = try await store.conversations(of: alice.id).first { $0.conversation.id == conversation.id }
                let single = try await store.conversationSummary(conversation.id, for: alice.id)
                #expect(single != nil)
                #expect(single == listed)
            }
            #expect(try await store.conversationSummary(first.id, for: carol.id) == nil)
        }
    }
}
