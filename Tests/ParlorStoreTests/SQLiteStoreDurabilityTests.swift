import Foundation
import GRDB
import Logging
import ParlorStore
@testable import ParlorStoreSQLite
import Testing

@Suite("SQLiteStore durability")
struct SQLiteStoreDurabilityTests {
    @Test("The writer syncs as asked: FULL fsyncs every commit, NORMAL only at checkpoints", arguments: [
        (SQLiteStore.Durability.full, 2), (.normal, 1),
    ])
    func writerSynchronousLevel(durability: SQLiteStore.Durability, expected: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("parlor.sqlite").path, durability: durability, logger: Logger(label: "test"))
        let level = try await store.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(level == expected)
    }

    @Test("A write that does not wait for the disk runs at NORMAL and leaves the writer at FULL for the next message", arguments: [
        SQLiteStore.Durability.full, .normal,
    ])
    func unsyncedWriteRestoresTheLevel(durability: SQLiteStore.Durability) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("parlor.sqlite").path, durability: durability, logger: Logger(label: "test"))
        let during = try await store.write(synced: false) { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(during == 1, "NORMAL inside the unsynced write")
        let alice = try await store.makeUser("alice")
        let bob = try await store.makeUser("bob")
        let conversation = try await store.makeConversation(alice, bob)
        let message = try await store.send("hello", from: bob, in: conversation)
        try await store.markRead(user: alice.id, conversation: conversation.id, upTo: message.sequence)
        let after = try await store.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(after == (durability == .full ? 2 : 1), "messages after a read are synced as the store was asked")
        #expect(try await store.readMark(user: alice.id, conversation: conversation.id).mark == message.sequence)
    }
}
