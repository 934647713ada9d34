import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Edits, unsends and replies in the store")
struct MessageChangeStoreTests {
    @Test("An edit keeps the old text as a version; only the sender, in the window, up to maxEdits, and never once unsent", arguments: StoreBackend.all)
    func edits(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let sent = try await store.append(
                NewMessage(id: MessageID(), conversationID: conversation.id, sender: alice.id, content: .text("one")), validate: acceptAll).message
            func edit(_ text: String, by user: User = alice, after: Date = .distantPast, maxEdits: Int = 2) async throws -> StoredMessage? {
                try await store.editMessage(sent.id, in: conversation.id, sender: user.id, text: text, sentAfter: after, maxEdits: maxEdits)
            }
            #expect(try await edit("hijacked", by: bob) == nil, "not Bob's")
            #expect(try await edit("late", after: Date().addingTimeInterval(60)) == nil, "out of the window")
            let edited = try #require(try await edit("two"))
            #expect(edited.content == .text("two") && edited.editedAt != nil && edited.sequence == sent.sequence)
            _ = try await edit("three")
            #expect(try await edit("four") == nil, "at most two edits here")
            #expect(try await store.versions(of: sent.id, in: conversation.id).map(\.text) == ["one", "two"])
            #expect(try await store.message(id: sent.id, in: conversation.id)?.content == .text("three"))

            #expect(try await store.unsendMessage(sent.id, in: conversation.id, sender: bob.id, sentAfter: .distantPast) == nil)
            let unsent = try #require(try await store.unsendMessage(sent.id, in: conversation.id, sender: alice.id, sentAfter: .distantPast))
            #expect(unsent.unsentAt != nil && unsent.content == .text(""))
            #expect(try await store.versions(of: sent.id, in: conversation.id).isEmpty)
            #expect(try await store.unsendMessage(sent.id, in: conversation.id, sender: alice.id, sentAfter: .distantPast) == nil, "once")
            #expect(try await edit("again", maxEdits: 10) == nil, "an unsent message is not edited")
            #expect(try await store.message(id: sent.id, in: conversation.id)?.unsentAt != nil)
        }
    }

    @Test("Unsending takes the message's reactions with it; a window that has passed refuses", arguments: StoreBackend.all)
    func unsendClearsReactions(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let sent = try await store.append(
                NewMessage(id: MessageID(), conversationID: conversation.id, sender: alice.id, content: .text("hi")), validate: acceptAll).message
            _ = try await store.setReaction("❤️", on: true, user: bob.id, message: sent.id, conversation: conversation.id, maxKinds: 20)
            #expect(try await store.unsendMessage(sent.id, in: conversation.id, sender: alice.id, sentAfter: Date().addingTimeInterval(60)) == nil)
            _ = try await store.unsendMessage(sent.id, in: conversation.id, sender: alice.id, sentAfter: .distantPast)
            #expect(try await store.reactions(to: [sent.id], in: conversation.id).isEmpty)
        }
    }

    @Test("A reply names its message; replies are listed oldest first and survive a reload", arguments: StoreBackend.all)
    func replies(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let question = try await store.append(
                NewMessage(id: MessageID(), conversationID: conversation.id, sender: alice.id, content: .text("?")), validate: acceptAll).message
            var replies: [MessageID] = []
            for text in ["a", "b"] {
                let reply = try await store.append(
                    NewMessage(id: MessageID(), conversationID: conversation.id, sender: bob.id, content: .text(text), replyTo: question.id),
                    validate: acceptAll).message
                #expect(reply.replyTo == question.id)
                replies.append(reply.id)
            }
            _ = try await store.append(
                NewMessage(id: MessageID(), conversationID: conversation.id, sender: bob.id, content: .text("unrelated")), validate: acceptAll)
            #expect(try await store.replies(to: question.id, in: conversation.id, limit: 10).map(\.id) == replies)
            #expect(try await store.replies(to: question.id, in: conversation.id, limit: 1).map(\.id) == [replies[0]])
            #expect(try await store.latestMessages(in: conversation.id, limit: 10).map(\.replyTo) == [nil, question.id, question.id, nil])
        }
    }
}

@Suite("Read receipts in the store")
struct ReadReceiptStoreTests {
    @Test("A mark that moves records when; one member's receipt reads alone; a member who stops sharing is left out", arguments: StoreBackend.all)
    func receipts(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            for text in ["one", "two"] {
                _ = try await store.append(
                    NewMessage(id: MessageID(), conversationID: conversation.id, sender: alice.id, content: .text(text)), validate: acceptAll)
            }
            #expect(try await store.sharesReadReceipts(bob.id))
            try await store.markRead(user: bob.id, conversation: conversation.id, upTo: 1)
            let first = try #require(try await store.readReceipts(in: conversation.id).first { $0.user == bob.id })
            #expect(first.sequence == 1 && first.readAt != nil)
            try await store.markRead(user: bob.id, conversation: conversation.id, upTo: 1)
            #expect(try await store.readReceipts(in: conversation.id).first { $0.user == bob.id }?.readAt == first.readAt,
                    "reading nothing new keeps the time")
            try await store.markRead(user: bob.id, conversation: conversation.id, upTo: 2)
            #expect(try await store.readReceipts(in: conversation.id).first { $0.user == bob.id }?.sequence == 2)
            let bobs = try await store.readReceipts(in: conversation.id, of: bob.id)
            #expect(bobs.map(\.user) == [bob.id] && bobs.first?.sequence == 2, "one member's receipt alone")

            try await store.setSharesReadReceipts(false, user: bob.id)
            #expect(try await !store.sharesReadReceipts(bob.id))
            #expect(try await store.readReceipts(in: conversation.id).map(\.user) == [alice.id])
            #expect(try await store.readReceipts(in: conversation.id, of: bob.id).isEmpty, "nor theirs alone")
            #expect(try await store.readReceipts(in: conversation.id, of: alice.id).map(\.user) == [alice.id])
        }
    }

    @Test("Two reads of one mark at once (two tabs): one moves it, the other finds it moved", arguments: StoreBackend.all)
    func concurrentReads(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let count: Int64 = 20
            for _ in 1...count {
                _ = try await store.append(
                    NewMessage(id: MessageID(), conversationID: conversation.id, sender: alice.id, content: .text("hi")), validate: acceptAll)
            }
            for sequence in 1...count {
                async let phone = store.markRead(user: bob.id, conversation: conversation.id, upTo: sequence)
                async let laptop = store.markRead(user: bob.id, conversation: conversation.id, upTo: sequence)
                let moved = try await [phone, laptop].filter { $0.current > $0.previous }
                #expect(moved.count == 1, "read up to \(sequence): \(moved.count) of the two reads say they moved the mark")
            }
        }
    }
}
