import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Everything survives closing and reopening the store")
struct PersistenceTests {
    @Test("After reopening, accounts, conversations, messages and app data are all there", arguments: StoreBackend.all)
    func reopenKeepsEverything(backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let todo: AppID = "org.parlor.todo"
            let blobBytes = Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 254, 255])
            let blobHash = "4a5b6c7d8e9f00112233445566778899aabbccddeeff0011223344556677889a"
            let game = Session()
            let staged = StagedRecord(item: .message(ContentRoundTripTests.templateMessage()), replacing: nil)

            // The first run: a server writes, then stops.
            let before: (alice: User, bob: User, conversation: ConversationRecord, messages: [StoredMessage], participant: ParticipantID)
            do {
                let store = try await database.open()
                let alice = try await store.makeUser("alice")
                let bob = try await store.makeUser("bob")
                try await store.createToken(hash: "alice-token", user: alice.id, expiresAt: .distantFuture)
                let conversation = try await store.makeConversation(alice, bob, title: "Kept")
                let hello = try await store.send("hello", from: alice, in: conversation)
                let opening = try await store.sendApp("opening", in: game, replacing: nil, from: bob, in: conversation)
                let expiring = try await store.send("expiring", from: bob, in: conversation)
                try await store.markRead(user: alice.id, conversation: conversation.id, upTo: 2)
                try await store.recordExpiringRead(user: alice.id, message: expiring.id, conversation: conversation.id, at: Date(timeIntervalSince1970: 0))
                #expect(try await store.expireReads(readBefore: Date(timeIntervalSince1970: 1)).count == 1)
                try await store.setStaged(staged, user: alice.id, conversation: conversation.id)
                try await store.saveInstance(Data("home".utf8), user: alice.id, scope: .home, app: todo)
                try await store.saveInstance(Data("here".utf8), user: alice.id, scope: .conversation(conversation.id), app: todo)
                let participant = try await store.participantID(user: alice.id, app: todo)
                try await store.setContainerData(Data("notes".utf8), user: alice.id, app: todo, key: "notes")
                try await store.setDrawer(["org.parlor.todo", "sticker:cats"], user: alice.id)
                _ = try await store.putBlob(blobBytes, hash: blobHash, contentType: "image/png", owner: alice.id, quota: 1 << 20, at: Date())
                before = (alice, bob, try #require(try await store.conversation(id: conversation.id)), [hello, opening, expiring], participant)
            }

            // The next run: opening the same database again (migrations must not run twice).
            _ = try await database.open()
            let store = try await database.open()
            let (alice, bob, conversation) = (before.alice, before.bob, before.conversation)
            #expect(Set(try await store.allUsers()) == [alice, bob])
            #expect(try await store.credentials(username: "ALICE")?.passwordHash == "hash-alice")
            #expect(try await store.user(tokenHash: "alice-token", now: Date()) == alice)
            #expect(try await store.conversation(id: conversation.id) == conversation)
            #expect(try await store.allMessages(in: conversation) == before.messages)
            #expect(try await store.sessionHead(game.id, in: conversation.id) == before.messages[1])
            #expect(try await store.summary(of: conversation, for: alice)?.unreadCount == 1)
            #expect(try await store.hiddenMessages(user: alice.id, conversation: conversation.id).expired == [before.messages[2].id])
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == staged)
            #expect(try await store.instance(user: alice.id, scope: .home, app: todo) == Data("home".utf8))
            #expect(try await store.instance(user: alice.id, scope: .conversation(conversation.id), app: todo) == Data("here".utf8))
            #expect(try await store.participantID(user: alice.id, app: todo) == before.participant)
            #expect(try await store.containerData(user: alice.id, app: todo, key: "notes") == Data("notes".utf8))
            #expect(try await store.drawer(user: alice.id) == ["org.parlor.todo", "sticker:cats"])
            let blob = try await store.blob(hash: blobHash, readableBy: alice.id)
            #expect(blob?.data == blobBytes)
            #expect(blob?.contentType == "image/png")

            // Sequences continue where they stopped, and a retried send is still recognised.
            let retry = try await store.append(
                NewMessage(id: before.messages[0].id, conversationID: conversation.id, sender: alice.id, content: .text("hello")),
                validate: acceptAll)
            #expect(retry.isDuplicate)
            #expect(retry.message == before.messages[0])
            #expect(try await store.send("after restart", from: bob, in: conversation).sequence == 4)
            let stale = await #expect(throws: SessionConflict.self) {
                try await store.sendApp("restart", in: game, replacing: nil, from: alice, in: conversation)
            }
            #expect(stale?.head == before.messages[1])
        }
    }
}
