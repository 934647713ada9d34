import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Accounts and sign-in tokens")
struct AccountTests {
    @Test("A new account reads back exactly as created, by id and in the list of all users", arguments: StoreBackend.all)
    func createdUserReadsBack(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.createUser(username: "alice", displayName: "Alice Liddell", passwordHash: "h1")
            #expect(alice.username == "alice")
            #expect(alice.displayName == "Alice Liddell")
            #expect(try await store.user(id: alice.id) == alice)
            #expect(try await store.allUsers() == [alice])
            #expect(try await store.user(id: UserID()) == nil)
        }
    }

    @Test("A person's picture and the line about themselves read back with the account, by id, by name and in lists, and clear", arguments: StoreBackend.all)
    func profileReadsBack(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.createUser(username: "alice", displayName: "Alice", passwordHash: "h1")
            #expect(alice.about == nil)
            try await store.setAbout("Out until Monday", user: alice.id)
            try await store.setAvatar(String(repeating: "a", count: 64), user: alice.id)
            #expect(try await store.user(id: alice.id)?.about == "Out until Monday")
            #expect(try await store.users(ids: [alice.id]).first?.about == "Out until Monday")
            let credentials = try #require(try await store.credentials(username: "alice"))
            #expect(credentials.user.about == "Out until Monday" && credentials.passwordHash == "h1", "the hash is still the column after the user's")
            #expect(credentials.user.avatar == String(repeating: "a", count: 64))
            try await store.setAbout(nil, user: alice.id)
            #expect(try await store.user(id: alice.id)?.about == nil)
        }
    }

    @Test("A username is taken whatever its case: a second account gets a conflict", arguments: StoreBackend.all)
    func usernameIsUniqueIgnoringCase(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("Alice")
            for taken in ["Alice", "alice", "ALICE"] {
                let error = await #expect(throws: StoreError.self) {
                    try await store.createUser(username: taken, displayName: "Impostor", passwordHash: "x")
                }
                #expect(error?.code == .conflict)
            }
            #expect(try await store.allUsers() == [alice])
            #expect(try await store.credentials(username: "alice")?.passwordHash == "hash-Alice")
        }
    }

    @Test("A username that looks like a taken one is taken: I for l, 1 for l, 0 for o, rn for m, vv for w, any separator", arguments: StoreBackend.all)
    func lookAlikeUsernames(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice.w")
            let mom = try await store.makeUser("mom_01")
            for impostor in ["AIice.w", "a1ice.w", "alice_w", "alice-vv", "ALICE.W", "rnom-ol", "mom.Ol", "alicew", "a.lice.w_", "momol"] {
                let error = await #expect(throws: StoreError.self, "\(impostor)") {
                    try await store.createUser(username: impostor, displayName: "Impostor", passwordHash: "x")
                }
                #expect(error?.code == .conflict)
            }
            let distinct = try await store.makeUser("alicia.w")
            #expect(Set(try await store.allUsers()) == [alice, mom, distinct])
        }
    }

    @Test("Accounts that already look alike when keys arrive keep signing in: the younger key gets its id")
    func backfillKeepsEveryone() {
        let keys = UsernameKey.backfill([(id: "1", username: "alice"), (id: "2", username: "bob"), (id: "3", username: "a1ice")])
        #expect(keys.map(\.key) == ["alice", "bob", "alice#3"])
    }

    @Test("Credentials are found by username in any case; the stored spelling is kept", arguments: StoreBackend.all)
    func credentialsByUsernameInAnyCase(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.createUser(username: "Alice.L", displayName: "Alice", passwordHash: "bcrypt-hash")
            for spelling in ["Alice.L", "alice.l", "ALICE.L"] {
                let credentials = try #require(try await store.credentials(username: spelling))
                #expect(credentials.user == alice)
                #expect(credentials.user.username == "Alice.L")
                #expect(credentials.passwordHash == "bcrypt-hash")
            }
            #expect(try await store.credentials(username: "bob") == nil)
        }
    }

    @Test("users(ids:) returns exactly the accounts that exist among the ids", arguments: StoreBackend.all)
    func usersByIDs(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            _ = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let found = try await store.users(ids: [carol.id, UserID(), alice.id, carol.id])
            #expect(Set(found) == [alice, carol])
            #expect(found.count == 2)
            #expect(try await store.users(ids: []).isEmpty)
            #expect(Set(try await store.allUsers().map(\.username)) == ["alice", "bob", "carol"])
        }
    }

    @Test("Deleting an account removes its tokens, memberships and app data; its messages stay", arguments: StoreBackend.all)
    func deleteUserKeepsMessages(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let hello = try await store.send("hello from alice", from: alice, in: conversation)
            try await store.createToken(hash: "alice-token", user: alice.id, expiresAt: .distantFuture)
            let app = AppID("org.parlor.test")
            let aliceInApp = try await store.participantID(user: alice.id, app: app)
            try await store.setContainerData(Data("notes".utf8), user: alice.id, app: app, key: "notes")
            try await store.setDrawer([app.rawValue], user: alice.id)
            try await store.saveInstance(Data("{}".utf8), user: alice.id, scope: .home, app: app)
            try await store.setStaged(StagedRecord(item: .message(Message()), replacing: nil), user: alice.id, conversation: conversation.id)

            try await store.deleteUser(id: alice.id)

            #expect(try await store.user(id: alice.id) == nil)
            #expect(try await store.credentials(username: "alice") == nil)
            #expect(try await store.user(tokenHash: "alice-token", now: Date()) == nil)
            #expect(try await store.conversations(of: alice.id).isEmpty)
            #expect(try await store.conversation(id: conversation.id)?.members == [bob.id])
            #expect(try await store.allMessages(in: conversation) == [hello])
            #expect(try await store.summary(of: conversation, for: bob)?.lastMessage == hello)
            #expect(try await store.allUsers() == [bob])
            // What only Alice had is gone with her account.
            #expect(try await store.containerData(user: alice.id, app: app, key: "notes") == nil)
            #expect(try await store.drawer(user: alice.id) == nil)
            #expect(try await store.instance(user: alice.id, scope: .home, app: app) == nil)
            #expect(try await store.staged(user: alice.id, conversation: conversation.id) == nil)
            #expect(try await store.participantID(user: alice.id, app: app) != aliceInApp)
            // The name is free again.
            let newAlice = try await store.makeUser("alice")
            #expect(newAlice.id != alice.id)
        }
    }

    @Test("A token signs its user in until it expires", arguments: StoreBackend.all)
    func tokenValidUntilExpiry(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let issued = Date(timeIntervalSince1970: 1_800_000_000)
            try await store.createToken(hash: "t1", user: alice.id, expiresAt: issued.addingTimeInterval(3600))
            #expect(try await store.user(tokenHash: "t1", now: issued) == alice)
            #expect(try await store.user(tokenHash: "t1", now: issued.addingTimeInterval(3599)) == alice)
            #expect(try await store.user(tokenHash: "t1", now: issued.addingTimeInterval(3601)) == nil)
            #expect(try await store.user(tokenHash: "t1", now: issued.addingTimeInterval(86_400)) == nil)
            #expect(try await store.user(tokenHash: "unknown", now: issued) == nil)
        }
    }

    @Test("A deleted token no longer signs in; the user's other tokens still do", arguments: StoreBackend.all)
    func deletedToken(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            try await store.createToken(hash: "phone", user: alice.id, expiresAt: .distantFuture)
            try await store.createToken(hash: "laptop", user: alice.id, expiresAt: .distantFuture)
            try await store.createToken(hash: "bobs", user: bob.id, expiresAt: .distantFuture)
            try await store.deleteToken(hash: "phone")
            #expect(try await store.user(tokenHash: "phone", now: Date()) == nil)
            #expect(try await store.user(tokenHash: "laptop", now: Date()) == alice)
            #expect(try await store.user(tokenHash: "bobs", now: Date()) == bob)
        }
    }

    @Test("Ending a user's other sign-ins deletes their tokens but the one kept, and says which; others' stay", arguments: StoreBackend.all)
    func deleteOtherTokens(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            for hash in ["phone", "laptop", "tablet"] { try await store.createToken(hash: hash, user: alice.id, expiresAt: .distantFuture) }
            try await store.createToken(hash: "bobs", user: bob.id, expiresAt: .distantFuture)
            #expect(Set(try await store.deleteTokens(of: alice.id, keeping: "laptop")) == ["phone", "tablet"])
            #expect(try await store.user(tokenHash: "laptop", now: Date()) == alice)
            #expect(try await store.user(tokenHash: "phone", now: Date()) == nil)
            #expect(try await store.deleteTokens(of: alice.id, keeping: nil) == ["laptop"], "nil keeps none")
            #expect(try await store.user(tokenHash: "bobs", now: Date()) == bob)
        }
    }

    @Test("A password change sets the hash and ends the other sign-ins in one step; an unknown user is notFound", arguments: StoreBackend.all)
    func changePassword(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            try await store.createToken(hash: "this", user: alice.id, expiresAt: .distantFuture)
            try await store.createToken(hash: "other", user: alice.id, expiresAt: .distantFuture)
            #expect(try await store.changePassword(hash: "new-hash", of: alice.id, keeping: "this") == ["other"])
            #expect(try await store.credentials(username: "alice")?.passwordHash == "new-hash")
            #expect(try await store.user(tokenHash: "this", now: Date()) == alice)
            await #expect(throws: StoreError.self) { try await store.changePassword(hash: "x", of: UserID(), keeping: nil) }
        }
    }

    @Test("Of a list of token hashes, those still signing someone in: not deleted, not expired", arguments: StoreBackend.all)
    func liveTokens(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            try await store.createToken(hash: "live", user: alice.id, expiresAt: now.addingTimeInterval(60))
            try await store.createToken(hash: "expired", user: alice.id, expiresAt: now.addingTimeInterval(-1))
            try await store.createToken(hash: "deleted", user: alice.id, expiresAt: now.addingTimeInterval(60))
            try await store.deleteToken(hash: "deleted")
            let many = ["live", "expired", "deleted", "never"] + (0..<1200).map { "filler-\($0)" }
            #expect(try await store.liveTokens(among: many, now: now) == ["live"])
            #expect(try await store.liveTokens(among: [], now: now).isEmpty)
        }
    }
}
