import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Compose fields, app instances, participants, containers, drawers, blobs")
struct AppDataTests {
    static let tictactoe: AppID = "org.parlor.tictactoe"
    static let todo: AppID = "org.parlor.todo"

    @Test("A staged message can be set, replaced and cleared, per user and conversation", arguments: StoreBackend.all)
    func stagedRecords(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let other = try await store.makeConversation(alice, bob, title: "Other")
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == nil)

            let game = Session()
            let head = try await store.sendApp("opening", in: game, replacing: nil, from: bob, in: conversation)
            let move = StagedRecord(item: .message(ContentRoundTripTests.liveMessage()), replacing: head.id)
            try await store.setStaged(move, user: alice.id, conversation: conversation.id)
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == move)
            #expect(try await store.staged(user: bob.id, conversation: conversation.id) == nil)
            #expect(try await store.staged(user: alice.id, conversation: other.id) == nil)

            let sticker = StagedRecord(
                item: .sticker(try Sticker(id: "cats/wave.png", image: .asset("wave.png"), localizedDescription: "Wave")), replacing: nil)
            try await store.setStaged(sticker, user: alice.id, conversation: conversation.id)
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == sticker)

            try await store.setStaged(nil, user: alice.id, conversation: conversation.id)
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == nil)
            // Clearing what was never staged is not an error.
            try await store.setStaged(nil, user: bob.id, conversation: other.id)
        }
    }

    @Test("Sending what was staged clears the compose field in the message's own transaction: both or neither", arguments: StoreBackend.all)
    func stagedClearedWithItsMessage(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let (game, move, record) = try await store.stagedMove(by: alice, after: bob, in: conversation)
            try await store.setStaged(record, user: alice.id, conversation: conversation.id)
            let snapshot = Data("after the move".utf8)
            let alongside: [StateWrite] = [
                .staged(nil, user: alice.id, conversation: conversation.id),
                .instance(snapshot, user: alice.id, scope: .conversation(conversation.id), app: Self.tictactoe),
            ]

            // Refused (the app's validate): the message is not stored, and neither is anything beside it.
            await #expect(throws: Refused.self) { try await store.append(move, validate: refuseAll, alongside: alongside) }
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == record, "the move is still in the compose field")
            #expect(try await store.instance(user: alice.id, scope: .conversation(conversation.id), app: Self.tictactoe) == nil)
            #expect(try await store.allMessages(in: conversation).count == 1)

            // A stale head is refused the same way.
            let stale = appMessage("X in a corner", in: game, replacing: nil, from: alice, in: conversation)
            await #expect(throws: SessionConflict.self) { try await store.append(stale, validate: acceptAll, alongside: alongside) }
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == record)

            // Committed: the message and the cleared compose field and the snapshot, together.
            let sent = try await store.append(move, validate: acceptAll, alongside: alongside)
            #expect(!sent.isDuplicate)
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == nil)
            #expect(try await store.instance(user: alice.id, scope: .conversation(conversation.id), app: Self.tictactoe) == snapshot)
            #expect(try await store.allMessages(in: conversation).map(\.text) == ["opening", "X in the centre"])

            // A retry of the sent message (staged again meanwhile) is a duplicate and still clears it.
            try await store.setStaged(record, user: alice.id, conversation: conversation.id)
            let retried = try await store.append(move, validate: acceptAll, alongside: alongside)
            #expect(retried.isDuplicate)
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == nil)
            #expect(try await store.allMessages(in: conversation).count == 2)
        }
    }

    @Test("SQLite answers the compose fields it wrote lately from memory, emptied ones too: it is the database's only writer")
    func sqliteKeepsComposeFields() async throws {
        try await StoreBackend.sqlite.withDatabase { database in
            let here = try await database.open()
            let there = try await database.open()
            let alice = try await here.makeUser("alice")
            let bob = try await here.makeUser("bob")
            let conversation = try await here.makeConversation(alice, bob)
            let (_, move, record) = try await here.stagedMove(by: alice, after: bob, in: conversation)
            try await here.setStaged(record, user: alice.id, conversation: conversation.id)
            try await there.setStaged(record, user: bob.id, conversation: conversation.id)

            // Another writer (never so in Parlor) clears both fields: only Bob's, which this store
            // never wrote, is read from the database.
            try await there.setStaged(nil, user: alice.id, conversation: conversation.id)
            try await there.setStaged(nil, user: bob.id, conversation: conversation.id)
            #expect(try await here.staged(user: alice.id, conversation: conversation.id) == record, "kept since its commit")
            #expect(try await here.staged(user: bob.id, conversation: conversation.id) == nil, "read from the database")

            // Sent here with the field cleared beside it; the other writer stages again: the
            // emptied field is kept too.
            _ = try await here.append(move, validate: acceptAll, alongside: [.staged(nil, user: alice.id, conversation: conversation.id)])
            try await there.setStaged(record, user: alice.id, conversation: conversation.id)
            #expect(try await here.staged(user: alice.id, conversation: conversation.id) == nil, "emptied by the send it committed")
            #expect(try await database.open().staged(user: alice.id, conversation: conversation.id) == record, "what the database holds")
        }
    }

    @Test("A message an app sends from a hook drops its saved snapshot in the message's own transaction: both or neither", arguments: StoreBackend.all)
    func snapshotDroppedWithItsMessage(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let scope = InstanceScope.conversation(conversation.id)
            let before = Data("before the vote".utf8)
            try await store.saveInstance(before, user: alice.id, scope: scope, app: Self.tictactoe)
            try await store.saveInstance(before, user: bob.id, scope: scope, app: Self.tictactoe)
            let vote = appMessage("Yes", in: Session(), replacing: nil, from: alice, in: conversation)
            let drop: [StateWrite] = [.instance(nil, user: alice.id, scope: scope, app: Self.tictactoe)]

            await #expect(throws: Refused.self) { try await store.append(vote, validate: refuseAll, alongside: drop) }
            #expect(try await store.instance(user: alice.id, scope: scope, app: Self.tictactoe) == before, "refused: the snapshot stays")

            _ = try await store.append(vote, validate: acceptAll, alongside: drop)
            #expect(try await store.instance(user: alice.id, scope: scope, app: Self.tictactoe) == nil, "committed: the snapshot is gone with it")
            #expect(try await store.instance(user: bob.id, scope: scope, app: Self.tictactoe) == before, "only the sender's")
            #expect(try await store.allMessages(in: conversation).map(\.text) == ["Yes"])
        }
    }

    @Test("Instance snapshots are kept per user, scope and app; home is separate from conversations", arguments: StoreBackend.all)
    func instanceSnapshots(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let other = try await store.makeConversation(alice, bob, title: "Other")
            let places: [(User, InstanceScope, AppID)] = [
                (alice, .home, Self.todo), (alice, .conversation(conversation.id), Self.todo),
                (alice, .conversation(other.id), Self.todo), (alice, .conversation(conversation.id), Self.tictactoe),
                (bob, .conversation(conversation.id), Self.todo), (bob, .home, Self.todo),
            ]
            for (index, (user, scope, app)) in places.enumerated() {
                #expect(try await store.instance(user: user.id, scope: scope, app: app) == nil)
                try await store.saveInstance(Data("snapshot \(index)".utf8), user: user.id, scope: scope, app: app)
            }
            for (index, (user, scope, app)) in places.enumerated() {
                #expect(try await store.instance(user: user.id, scope: scope, app: app) == Data("snapshot \(index)".utf8))
            }
            try await store.saveInstance(Data([0, 255, 1]), user: alice.id, scope: .home, app: Self.todo)
            #expect(try await store.instance(user: alice.id, scope: .home, app: Self.todo) == Data([0, 255, 1]))
            #expect(try await store.instance(user: alice.id, scope: .conversation(conversation.id), app: Self.todo) == Data("snapshot 1".utf8))
        }
    }

    @Test("A participant id is stable per user and app, and differs across apps and users", arguments: StoreBackend.all)
    func participantIDs(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let aliceInTodo = try await store.participantID(user: alice.id, app: Self.todo)
            #expect(try await store.participantID(user: alice.id, app: Self.todo) == aliceInTodo)
            let aliceInGame = try await store.participantID(user: alice.id, app: Self.tictactoe)
            let bobInTodo = try await store.participantID(user: bob.id, app: Self.todo)
            #expect(Set([aliceInTodo, aliceInGame, bobInTodo]).count == 3)

            // Several first uses at once still agree on one id.
            let racing = try await withThrowingTaskGroup(of: ParticipantID.self) { group in
                for _ in 0..<10 { group.addTask { try await store.participantID(user: bob.id, app: Self.tictactoe) } }
                return try await group.reduce(into: Set<ParticipantID>()) { $0.insert($1) }
            }
            #expect(racing.count == 1)
            #expect(try await store.participantID(user: bob.id, app: Self.tictactoe) == racing.first)
        }
    }

    @Test("A store reads a participant id from the database once: another node deleting the account changes its id there, not here", arguments: StoreBackend.all)
    func participantIDsAreCached(backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let here = try await database.open()
            let there = try await database.open()
            let alice = try await here.makeUser("alice")
            let known = try await here.participantID(user: alice.id, app: Self.todo)
            #expect(try await there.participantID(user: alice.id, app: Self.todo) == known)

            try await there.deleteUser(id: alice.id)
            #expect(try await there.participantID(user: alice.id, app: Self.todo) != known, "the deleting node forgets it")
            #expect(try await here.participantID(user: alice.id, app: Self.todo) == known, "this node answers from its cache")
        }
    }

    @Test("Container data is kept per user, app and key; nil deletes it", arguments: StoreBackend.all)
    func containerData(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            #expect(try await store.containerData(user: alice.id, app: Self.todo, key: "notes") == nil)
            try await store.setContainerData(Data("alice notes".utf8), user: alice.id, app: Self.todo, key: "notes")
            try await store.setContainerData(Data("alice settings".utf8), user: alice.id, app: Self.todo, key: "settings")
            try await store.setContainerData(Data("alice game".utf8), user: alice.id, app: Self.tictactoe, key: "notes")
            try await store.setContainerData(Data("bob notes".utf8), user: bob.id, app: Self.todo, key: "notes")
            #expect(try await store.containerData(user: alice.id, app: Self.todo, key: "notes") == Data("alice notes".utf8))
            #expect(try await store.containerData(user: alice.id, app: Self.todo, key: "settings") == Data("alice settings".utf8))
            #expect(try await store.containerData(user: alice.id, app: Self.tictactoe, key: "notes") == Data("alice game".utf8))
            #expect(try await store.containerData(user: bob.id, app: Self.todo, key: "notes") == Data("bob notes".utf8))

            try await store.setContainerData(Data("rewritten".utf8), user: alice.id, app: Self.todo, key: "notes")
            #expect(try await store.containerData(user: alice.id, app: Self.todo, key: "notes") == Data("rewritten".utf8))
            try await store.setContainerData(nil, user: alice.id, app: Self.todo, key: "notes")
            #expect(try await store.containerData(user: alice.id, app: Self.todo, key: "notes") == nil)
            #expect(try await store.containerData(user: alice.id, app: Self.todo, key: "settings") == Data("alice settings".utf8))
            #expect(try await store.containerData(user: bob.id, app: Self.todo, key: "notes") == Data("bob notes".utf8))
        }
    }

    @Test("The drawer is nil until set, then kept in order, empty included", arguments: StoreBackend.all)
    func drawer(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            #expect(try await store.drawer(user: alice.id) == nil)
            let items = ["org.parlor.todo", "sticker:cats", "org.parlor.tictactoe", "sticker:shapes"]
            try await store.setDrawer(items, user: alice.id)
            #expect(try await store.drawer(user: alice.id) == items)
            #expect(try await store.drawer(user: bob.id) == nil)
            try await store.setDrawer(items.reversed(), user: alice.id)
            #expect(try await store.drawer(user: alice.id) == items.reversed())
            try await store.setDrawer([], user: alice.id)
            #expect(try await store.drawer(user: alice.id) == [])
        }
    }

    @Test("An upload is stored once under its hash, read back only by who uploaded it, within each uploader's quota", arguments: StoreBackend.all)
    func blobs(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let bytes = Data((0...255).map(UInt8.init) + (0...255).reversed().map(UInt8.init))
            let hash = "9f0a6b5c3d2e1f00112233445566778899aabbccddeeff00112233445566778a"
            let now = Date()
            #expect(try await store.putBlob(bytes, hash: hash, contentType: "image/png", owner: alice.id, quota: 600, at: now))
            #expect(try await store.putBlob(bytes, hash: hash, contentType: "image/png", owner: alice.id, quota: 600, at: now),
                    "uploading the same bytes again costs no quota")
            let blob = try #require(try await store.blob(hash: hash, readableBy: alice.id))
            #expect(blob.hash == hash)
            #expect(blob.data == bytes)
            #expect(blob.contentType == "image/png")
            #expect(try await store.blob(hash: hash, readableBy: bob.id) == nil, "bob never uploaded it")
            #expect(try await store.blob(hash: String(repeating: "0", count: 64), readableBy: alice.id) == nil)

            let other = Data(repeating: 7, count: 100)
            let otherHash = String(repeating: "1", count: 64)
            #expect(try await !store.putBlob(other, hash: otherHash, contentType: "image/gif", owner: alice.id, quota: 600, at: now),
                    "512 + 100 bytes pass alice's 600")
            #expect(try await store.blob(hash: otherHash, readableBy: alice.id) == nil, "nothing was stored")
            #expect(try await store.putBlob(bytes, hash: hash, contentType: "image/png", owner: bob.id, quota: 600, at: now))
            #expect(try await store.blob(hash: hash, readableBy: bob.id)?.data == bytes, "bob uploaded it too")

            let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
            #expect(try await store.putBlob(Data(), hash: empty, contentType: "application/octet-stream", owner: bob.id, quota: 600, at: now))
            #expect(try await store.blob(hash: empty, readableBy: bob.id)?.data == Data())
        }
    }

    @Test("Uploads older than the cutoff that no message uses are forgotten, and with them bytes nobody holds", arguments: StoreBackend.all)
    func unusedUploads(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let (old, recent) = (Date(timeIntervalSinceNow: -2 * 86_400), Date())
            let shared = String(repeating: "a", count: 64)
            let aliceOnly = String(repeating: "b", count: 64)
            #expect(try await store.putBlob(Data("x".utf8), hash: shared, contentType: "image/png", owner: alice.id, quota: 100, at: old))
            #expect(try await store.putBlob(Data("x".utf8), hash: shared, contentType: "image/png", owner: bob.id, quota: 100, at: recent))
            #expect(try await store.putBlob(Data("y".utf8), hash: aliceOnly, contentType: "image/png", owner: alice.id, quota: 100, at: old))
            #expect(try await store.removeUnusedUploads(before: Date(timeIntervalSinceNow: -86_400)) == 2)
            #expect(try await store.blob(hash: shared, readableBy: alice.id) == nil)
            #expect(try await store.blob(hash: shared, readableBy: bob.id)?.data == Data("x".utf8), "bob's recent upload stays")
            #expect(try await store.blob(hash: aliceOnly, readableBy: alice.id) == nil)
            #expect(try await store.putBlob(Data("y".utf8), hash: aliceOnly, contentType: "image/png", owner: alice.id, quota: 1, at: recent),
                    "alice's quota is free again")
        }
    }

    @Test("Registered apps: an add never overwrites (one of two concurrent adds wins), a new credential never brings back a removed app", arguments: StoreBackend.all)
    func registeredApps(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let manifest = AppManifest(id: "org.example.dice", name: "Dice", icon: .url(URL(string: "https://example.org/d.png")!), keepsData: true)
            let added = Date(timeIntervalSince1970: 1_700_000_000)
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for hash in ["a", "b", "c"] {
                    group.addTask { try await store.addRegisteredApp(RegisteredApp(manifest: manifest, secretHash: String(repeating: hash, count: 64), addedAt: added)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1, "exactly one add wins: \(results)")
            let stored = try #require(try await store.registeredApps().first)
            #expect(stored.manifest == manifest, "the manifest reads back whole, permissions included")
            #expect(stored.addedAt == added)

            #expect(try await store.setRegisteredAppSecret(String(repeating: "d", count: 64), of: manifest.id))
            #expect(try await store.registeredApps().first?.secretHash == String(repeating: "d", count: 64))
            #expect(try await store.deleteRegisteredApp(manifest.id))
            #expect(try await !store.setRegisteredAppSecret(String(repeating: "e", count: 64), of: manifest.id))
            #expect(try await store.registeredApps().isEmpty, "a rotation after a removal brings nothing back")
            #expect(try await !store.deleteRegisteredApp(manifest.id))
        }
    }

    @Test("A WebAssembly app's module is kept with its registration: listed by hash, read whole, replaced only for a module app, gone with it", arguments: StoreBackend.all)
    func registeredModules(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let manifest = AppManifest(id: "org.example.wasm", name: "Wasm", icon: .url(URL(string: "https://example.org/w.png")!))
            let module = Data((0..<300_000).map { UInt8($0 % 251) })
            let app = RegisteredApp(manifest: manifest, secretHash: String(repeating: "a", count: 64), addedAt: Date(timeIntervalSince1970: 1_700_000_000), moduleHash: String(repeating: "1", count: 64))
            #expect(try await store.addRegisteredModule(app, module: module))
            #expect(try await !store.addRegisteredModule(app, module: module), "an add never overwrites")
            #expect(try await store.registeredApps().map(\.moduleHash) == [app.moduleHash])
            #expect(try await store.registeredModule(manifest.id) == module)

            var upgraded = app
            upgraded.moduleHash = String(repeating: "2", count: 64)
            upgraded.manifest.summary = "Version 2."
            #expect(try await store.replaceRegisteredModule(upgraded, module: Data([0, 0x61, 0x73, 0x6D])))
            let listed = try #require(try await store.registeredApps().first)
            #expect(listed.moduleHash == upgraded.moduleHash && listed.manifest.summary == "Version 2.")
            #expect(try await store.registeredModule(manifest.id) == Data([0, 0x61, 0x73, 0x6D]))

            // An app that dials in has no module, and a module cannot be slipped into it.
            let dialling = AppManifest(id: "org.example.dice", name: "Dice", icon: .url(URL(string: "https://example.org/d.png")!))
            #expect(try await store.addRegisteredApp(RegisteredApp(manifest: dialling, secretHash: String(repeating: "b", count: 64), addedAt: Date())))
            #expect(try await store.registeredModule(dialling.id) == nil)
            var slipped = upgraded
            slipped.manifest = dialling
            #expect(try await !store.replaceRegisteredModule(slipped, module: module))
            #expect(try await store.registeredApps().first { $0.manifest.id == dialling.id }?.moduleHash == nil)

            #expect(try await store.deleteRegisteredApp(manifest.id))
            #expect(try await store.registeredModule(manifest.id) == nil)
            #expect(try await !store.replaceRegisteredModule(upgraded, module: module), "an upgrade never brings back a removed app")
        }
    }
}
