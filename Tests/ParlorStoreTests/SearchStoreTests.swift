import Foundation
import GRDB
import ParlorKit
import ParlorStore
import PostgresNIO
import Testing

@Suite("Searching messages in the store")
struct SearchStoreTests {
    /// The texts `store` finds for `query` as `user` sees them, best first.
    static func found(_ query: String, by user: User, in store: any ParlorStore, limit: Int = 50) async throws -> [String] {
        guard let terms = SearchTerms(query) else { return [] }
        return try await store.search(terms, user: user.id, limit: limit).map { $0.text ?? "" }
    }

    @Test("Words are found whatever their case and accents, by their start, all of a query's words in one message; only in the searcher's conversations", arguments: StoreBackend.all)
    func findsWhatPeopleTyped(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let direct = try await store.makeConversation(alice, bob)
            let elsewhere = try await store.makeConversation(bob, carol)
            try await store.send("Lunch at the café on Friday?", from: alice, in: direct)
            try await store.send("Meeting moved to 3pm", from: bob, in: direct)
            try await store.send("CAFE ideas: the one by the river", from: bob, in: direct)
            try await store.send("Secret café plans", from: carol, in: elsewhere)
            try await store.sendApp("Dinner party RSVP", in: Session(), replacing: nil, from: bob, in: direct)

            #expect(try await Set(Self.found("cafe", by: alice, in: store)) == ["Lunch at the café on Friday?", "CAFE ideas: the one by the river"],
                    "case and accents do not matter, and carol's conversation is not alice's")
            #expect(try await Self.found("Café", by: carol, in: store) == ["Secret café plans"])
            #expect(try await Self.found("meet", by: alice, in: store) == ["Meeting moved to 3pm"], "a word's start finds it")
            #expect(try await Self.found("friday lunch", by: alice, in: store) == ["Lunch at the café on Friday?"], "every word, in any order")
            #expect(try await Self.found("lunch monday", by: alice, in: store).isEmpty)
            #expect(try await Self.found("3pm", by: bob, in: store) == ["Meeting moved to 3pm"])
            #expect(try await Self.found("dinner", by: alice, in: store) == ["Dinner party RSVP"], "an app message by its caption")
            #expect(try await Self.found("the", by: alice, in: store, limit: 1).count == 1, "at most limit")
            #expect(try await Self.found("plans", by: alice, in: store).isEmpty, "nothing from a conversation alice is not in")

            try await store.send("Pizza? Pizza! Pizza.", from: bob, in: direct)
            try await store.send("Whatever we eat tonight, maybe pizza, it should be near the station and not too late", from: alice, in: direct)
            try await store.send("Pizza", from: alice, in: elsewhere)
            #expect(try await Self.found("pizza", by: alice, in: store).first == "Pizza? Pizza! Pizza.", "the best match first")

            try await store.send("plan b is fine", from: alice, in: elsewhere)
            try await store.send("bring bananas", from: bob, in: elsewhere)
            #expect(try await Self.found("b", by: bob, in: store) == ["plan b is fine"], "a one-letter word matches only itself")
        }
    }

    @Test("What a person types is words, never query syntax", arguments: StoreBackend.all)
    func queriesAreWords(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let direct = try await store.makeConversation(alice)
            try await store.send("don't AND near the \"quoted\" (thing) *star* it's 1:1 -minus", from: alice, in: direct)
            for query in ["\"quoted", "NEAR(the", "AND", "thing)", "*star*", "it's", "1:1", "-minus", "don't", "'; DROP TABLE messages; --", "title:x OR y"] {
                let found = try await Self.found(query, by: alice, in: store)
                let expected = query.contains("DROP") || query.contains("title") ? 0 : 1
                #expect(found.count == expected, "\(query)")
            }
            #expect(SearchTerms("\"*:()-^") == nil, "punctuation alone has no words")
        }
    }

    @Test("An edit is found by its new text, not its old one; an unsent message is not found", arguments: StoreBackend.all)
    func editsAndUnsends(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let direct = try await store.makeConversation(alice, bob)
            let typo = try await store.send("See you at the trian station", from: alice, in: direct)
            let secret = try await store.send("The password is swordfish", from: alice, in: direct)
            let cutoff = Date().addingTimeInterval(-60)
            _ = try await store.editMessage(typo.id, in: direct.id, sender: alice.id, text: "See you at the train station", sentAfter: cutoff, maxEdits: 5)
            _ = try await store.unsendMessage(secret.id, in: direct.id, sender: alice.id, sentAfter: cutoff)
            #expect(try await Self.found("train", by: bob, in: store) == ["See you at the train station"])
            #expect(try await Self.found("trian", by: bob, in: store).isEmpty, "the old text is not searched")
            #expect(try await Self.found("swordfish", by: bob, in: store).isEmpty)
        }
    }

    @Test("Messages committed together in one group commit are each found, through later edits and unsends; refused ones are not", arguments: StoreBackend.all)
    func findsEveryMessageOfABatch(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let direct = try await store.makeConversation(alice, bob)

            // A slow validation holds a commit in progress, so the appends below queue up and are
            // committed together in the next transaction.
            let slowTask = try await store.holdingACommit("slowpoke", from: alice, in: direct, for: 0.3)
            let words = (0..<24).map { "word\($0)x" }
            let outcomes = await withTaskGroup(of: (String, StoredMessage?).self) { group in
                for (index, word) in words.enumerated() {
                    group.addTask {
                        let message = NewMessage(id: MessageID(), conversationID: direct.id, sender: bob.id, content: .text("batch \(word) here"))
                        let stored = try? await store.append(message, validate: index % 5 == 2 ? refuseAll : acceptAll).message
                        return (word, stored)
                    }
                }
                var outcomes: [String: StoredMessage?] = [:]
                for await (word, stored) in group { outcomes[word] = stored }
                return outcomes
            }
            _ = try await slowTask.value

            for (index, word) in words.enumerated() {
                let found = try await Self.found(word, by: alice, in: store)
                #expect(found == (index % 5 == 2 ? [] : ["batch \(word) here"]), "\(word)")
            }
            #expect(try await Self.found("slowpoke", by: bob, in: store) == ["slowpoke"])

            // The index stays right for messages written in a batch: an edit and an unsend of two of them.
            let cutoff = Date().addingTimeInterval(-60)
            guard let edited = outcomes["word0x"] ?? nil, let unsent = outcomes["word1x"] ?? nil else {
                Issue.record("the first two appends were refused")
                return
            }
            _ = try await store.editMessage(edited.id, in: direct.id, sender: bob.id, text: "batch renamed here", sentAfter: cutoff, maxEdits: 5)
            _ = try await store.unsendMessage(unsent.id, in: direct.id, sender: bob.id, sentAfter: cutoff)
            #expect(try await Self.found("word0x", by: alice, in: store).isEmpty)
            #expect(try await Self.found("renamed", by: alice, in: store) == ["batch renamed here"])
            #expect(try await Self.found("word1x", by: alice, in: store).isEmpty)
            #expect(try await Self.found("word3x", by: alice, in: store) == ["batch word3x here"])
            #expect(try await Self.found("batch", by: alice, in: store).count == words.count - words.indices.filter { $0 % 5 == 2 }.count - 1)
        }
    }

    @Test("Messages stored before search existed are found once the migration has run", arguments: StoreBackend.all)
    func migrationIndexesOldMessages(backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let store = try await database.open()
            let alice = try await store.makeUser("alice")
            let direct = try await store.makeConversation(alice)
            try await store.send("An old note about pumpkins", from: alice, in: direct)
            try await store.sendApp("Harvest festival", in: Session(), replacing: nil, from: alice, in: direct)
            try await Self.undoSearchMigration(of: store, database: database)
            let reopened = try await database.open()
            #expect(try await Self.found("pumpkin", by: alice, in: reopened) == ["An old note about pumpkins"])
            #expect(try await Self.found("festival", by: alice, in: reopened) == ["Harvest festival"])
            try await reopened.send("A new note about pumpkins", from: alice, in: direct)
            #expect(try await Self.found("pumpkins", by: alice, in: reopened).count == 2, "and new ones beside them")
        }
    }

    /// Takes the database back to before migration v8, as an older Parlor left it.
    static func undoSearchMigration(of store: any ParlorStore, database: TestDatabase) async throws {
        if let url = database.postgresURL {
            try await PostgresTestServer.withClient(url: url) { client in
                for statement in [
                    "ALTER TABLE messages DROP COLUMN search", "ALTER TABLE messages DROP COLUMN search_text",
                    "DELETE FROM schema_migrations WHERE name = 'v8: search'",
                ] {
                    try await client.query(PostgresQuery(unsafeSQL: statement))
                }
            }
        } else {
            let path = try #require(database.sqlitePath)
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: """
                    DROP TRIGGER message_search_insert; DROP TRIGGER message_search_update; DROP TRIGGER message_search_delete;
                    DROP TABLE message_search;
                    ALTER TABLE messages DROP COLUMN search_text;
                    DELETE FROM grdb_migrations WHERE identifier = 'v8: search';
                    """)
            }
        }
    }
}

@Suite("Muting in the store")
struct MuteStoreTests {
    @Test("A member mutes and unmutes for themselves only; someone outside cannot", arguments: StoreBackend.all)
    func mute(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let direct = try await store.makeConversation(alice, bob)
            #expect(try await store.summary(of: direct, for: alice)?.isMuted == false)
            try await store.changeList(.mute(true), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.summary(of: direct, for: alice)?.isMuted == true)
            #expect(try await store.conversationSummary(direct.id, for: alice.id)?.isMuted == true)
            #expect(try await store.summary(of: direct, for: bob)?.isMuted == false)
            try await store.changeList(.mute(false), user: alice.id, conversation: direct.id, at: Date())
            #expect(try await store.summary(of: direct, for: alice)?.isMuted == false)
            await #expect(throws: StoreError.self) { try await store.changeList(.mute(true), user: carol.id, conversation: direct.id, at: Date()) }
        }
    }
}

@Suite("Mentions in the store")
struct MentionStoreTests {
    @Test("Each member's unread mentions: counted until read, re-counted by an edit, forgotten by an unsend", arguments: StoreBackend.all)
    func unreadMentions(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let group = try await store.makeConversation(alice, bob, carol)
            let mentions = { (user: User) in try await store.summary(of: group, for: user)?.unreadMentions }
            let both = try await store.send("\(MentionTokens.token(for: bob.id)) and \(MentionTokens.token(for: carol.id)), twice \(MentionTokens.token(for: bob.id))", from: alice, in: group)
            let plain = try await store.send("nobody", from: alice, in: group)
            let counts = (bob: try await mentions(bob), carol: try await mentions(carol), alice: try await mentions(alice))
            #expect(counts.bob == 1 && counts.carol == 1 && counts.alice == 0, "each mentioned member once, whoever wrote it")
            _ = try await store.markRead(user: bob.id, conversation: group.id, upTo: both.sequence)
            #expect(try await mentions(bob) == 0)
            let cutoff = Date().addingTimeInterval(-60)
            _ = try await store.editMessage(plain.id, in: group.id, sender: alice.id, text: "now \(MentionTokens.token(for: bob.id))", sentAfter: cutoff, maxEdits: 5)
            #expect(try await mentions(bob) == 1, "an edit's mention counts")
            _ = try await store.unsendMessage(both.id, in: group.id, sender: alice.id, sentAfter: cutoff)
            #expect(try await mentions(carol) == 0, "an unsent message mentions nobody")
            #expect(try await mentions(bob) == 1)

            // An account deleted while a stale member list still offers it: the message commits,
            // and nobody gone is recorded (a failed mention must not fail the group commit).
            try await store.deleteUser(id: carol.id)
            let late = try await store.send("still there, \(MentionTokens.token(for: carol.id))?", from: alice, in: group)
            #expect(try await store.message(id: late.id, in: group.id) != nil)
        }
    }
}

@Suite("Attachments in the store")
struct AttachmentStoreTests {
    @Test("A blob a message uses is readable by the conversation's members, kept past the unused-upload sweep, and private again once unsent", arguments: StoreBackend.all)
    func sharedBlobs(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let direct = try await store.makeConversation(alice, bob)
            let bytes = Data("photo bytes".utf8)
            let hash = String(repeating: "ab", count: 32)
            #expect(try await store.putBlob(bytes, hash: hash, contentType: "image/png", owner: alice.id, quota: 1_000, at: Date()))
            #expect(try await store.blobInfo(hash: hash, readableBy: bob.id) == nil, "not bob's before a message uses it")
            let attachment = StoredAttachment(hash: hash, name: "photo.png", contentType: "image/png", size: Int64(bytes.count))
            let sent = try await store.append(
                NewMessage(id: MessageID(), conversationID: direct.id, sender: alice.id, content: .attachment(attachment)), validate: acceptAll).message
            #expect(try await store.message(id: sent.id, in: direct.id)?.content == .attachment(attachment), "read back as sent")
            #expect(try await store.blob(hash: hash, readableBy: bob.id)?.data == bytes)
            #expect(try await store.blobInfo(hash: hash, readableBy: bob.id)?.size == Int64(bytes.count))
            #expect(try await store.blob(hash: hash, readableBy: carol.id) == nil)

            #expect(try await store.removeUnusedUploads(before: Date().addingTimeInterval(60)) == 1, "alice's upload row goes")
            #expect(try await store.blob(hash: hash, readableBy: bob.id)?.data == bytes, "the blob stays while a message uses it")
            _ = try await store.unsendMessage(sent.id, in: direct.id, sender: alice.id, sentAfter: Date().addingTimeInterval(-60))
            #expect(try await store.blob(hash: hash, readableBy: bob.id) == nil, "unsent, it is nobody's")
            _ = try await store.removeUnusedUploads(before: Date().addingTimeInterval(60))
            #expect(try await store.blob(hash: hash, readableBy: alice.id) == nil, "and the sweep removes it")
        }
    }
}
