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

    @Test("An app message reads back as committed, the same from another store, and unsent once unsent", arguments: StoreBackend.all)
    func appMessageReadsBackItsLatestChange(backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let store = try await database.open()
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let sent = try await store.sendApp("Your move", in: Session(), replacing: nil, from: alice, in: conversation)
            #expect(try await store.message(id: sent.id, in: conversation.id) == sent)
            #expect(try await database.open().message(id: sent.id, in: conversation.id) == sent, "what the database holds")

            _ = try #require(try await store.unsendMessage(sent.id, in: conversation.id, sender: alice.id, sentAfter: .distantPast))
            let read = try #require(try await store.message(id: sent.id, in: conversation.id))
            #expect(read.unsentAt != nil && read.content == .text(""), "not the app message it was")
        }
    }

    @Test("SQLite answers the app messages it committed lately from memory: it is the database's only writer")
    func sqliteKeepsRecentAppMessages() async throws {
        try await StoreBackend.sqlite.withDatabase { database in
            let here = try await database.open()
            let there = try await database.open()
            let alice = try await here.makeUser("alice")
            let bob = try await here.makeUser("bob")
            let conversation = try await here.makeConversation(alice, bob)
            let app = try await here.sendApp("Your move", in: Session(), replacing: nil, from: alice, in: conversation)
            let text = try await here.send("hello", from: alice, in: conversation)

            // Another writer (never so in Parlor) unsends both: only the text is read again.
            for message in [app, text] {
                _ = try #require(try await there.unsendMessage(message.id, in: conversation.id, sender: alice.id, sentAfter: .distantPast))
            }
            #expect(try await here.message(id: app.id, in: conversation.id) == app, "kept since its commit")
            #expect(try await here.message(id: text.id, in: conversation.id)?.unsentAt != nil, "a text message is read from the database")
            #expect(try await here.message(id: app.id, in: ConversationID()) == nil, "only in its own conversation")
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
