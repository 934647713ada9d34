import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Blocks: who blocked whom")
struct BlockStoreTests {
    @Test("A block is one person's, listed latest first, seen from the other side, undone, and gone with either account", arguments: StoreBackend.all)
    func blocks(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            try await store.setBlocked(true, bob.id, by: alice.id, at: start)
            try await store.setBlocked(true, carol.id, by: alice.id, at: start + 1)
            try await store.setBlocked(true, bob.id, by: alice.id, at: start + 2)
            let alices = try await store.blocks(of: alice.id)
            #expect(alices.blocked == [carol.id, bob.id], "latest first; blocking again changes nothing")
            #expect(alices.blockedBy.isEmpty)
            let bobs = try await store.blocks(of: bob.id)
            #expect(bobs.blocked.isEmpty && bobs.blockedBy == [alice.id])
            #expect(bobs.separated == [alice.id] && alices.separated == [bob.id, carol.id])

            try await store.setBlocked(false, bob.id, by: alice.id, at: start + 3)
            try await store.setBlocked(false, bob.id, by: carol.id, at: start + 3)
            #expect(try await store.blocks(of: bob.id).separated.isEmpty, "unblocked")
            #expect(try await store.blocks(of: alice.id).blocked == [carol.id])

            await #expect(throws: StoreError.self, "nobody with that id") {
                try await store.setBlocked(true, UserID(), by: alice.id, at: start)
            }
            try await store.deleteUser(id: carol.id)
            #expect(try await store.blocks(of: alice.id).blocked.isEmpty, "a deleted account's blocks go with it")
        }
    }

    @Test("One person blocks at most BlockList.maxBlocked people; unblocking one makes room", arguments: StoreBackend.all)
    func cap(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            var people: [User] = []
            for index in 0...BlockList.maxBlocked { people.append(try await store.makeUser("p\(index)")) }
            for person in people.dropLast() { try await store.setBlocked(true, person.id, by: alice.id, at: Date()) }
            let last = try #require(people.last)
            let error = await #expect(throws: StoreError.self) { try await store.setBlocked(true, last.id, by: alice.id, at: Date()) }
            #expect(error?.code == .full)
            try await store.setBlocked(true, people[0].id, by: alice.id, at: Date())
            try await store.setBlocked(false, people[0].id, by: alice.id, at: Date())
            try await store.setBlocked(true, last.id, by: alice.id, at: Date())
            #expect(try await store.blocks(of: alice.id).blocked.count == BlockList.maxBlocked)
        }
    }
}
