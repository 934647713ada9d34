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
}
