import Foundation
import ParlorKit
import ParlorStore
import ParlorStorePostgres
import PostgresNIO
import Testing

/// How nodes on one PostgreSQL database hear about each other's changes (LISTEN/NOTIFY).
@Suite("PostgreSQL: notifications between nodes")
struct PostgresNotificationTests {
    let backend = StoreBackend.postgres

    @Test("Node B receives the pointers of A's committed messages, and neither node hears itself")
    func pointersReachTheOtherNodeOnly() async throws {
        try await backend.withDatabase { database in
            let a = try await database.openNode()
            let b = try await database.openNode()
            let heardByA = EventRecorder(a)
            let heardByB = EventRecorder(b)
            let alice = try await a.makeUser("alice")
            let bob = try await a.makeUser("bob")
            let conversation = try await a.makeConversation(alice, bob)

            var fromA: [MessagePointer] = []
            for index in 0..<5 { fromA.append(try await a.sendText("from A \(index)", from: alice, in: conversation)) }
            let fromB = try await b.sendText("from B", from: bob, in: conversation)
            // A retried send commits nothing new, so it announces nothing.
            let retried = try await b.append(
                NewMessage(id: try #require(try await b.message(at: fromB, in: conversation)).id, conversationID: conversation.id,
                           sender: bob.id, content: .text("from B")),
                validate: acceptAll)
            #expect(retried.isDuplicate)

            try await heardByB.wait { _ in Set(heardByB.pointers).isSuperset(of: fromA) }
            try await heardByA.wait { _ in heardByA.pointers.contains(fromB) }
            try await Task.sleep(for: .milliseconds(300))  // time for anything wrongly sent to arrive
            #expect(heardByB.pointers == fromA)
            #expect(heardByA.pointers == [fromB])
            #expect(heardByB.envelopes.allSatisfy { $0.origin == a.nodeID })
            #expect(heardByA.envelopes.allSatisfy { $0.origin == b.nodeID })
        }
    }

    @Test("A burst of 300 appends sends one notification per group commit, naming every message once")
    func oneNotificationPerFlush() async throws {
        try await backend.withDatabase { database in
            let a = try await database.openNode()
            let b = try await database.openNode()
            let heardByB = EventRecorder(b)
            let alice = try await a.makeUser("alice")
            let bob = try await a.makeUser("bob")
            let conversations = [try await a.makeConversation(alice, bob), try await a.makeConversation(alice, bob)]
            let before = await a.commitStatistics()

            let sent = try await withThrowingTaskGroup(of: MessagePointer.self) { group in
                for index in 0..<300 {
                    group.addTask { try await a.sendText("burst \(index)", from: alice, in: conversations[index % 2]) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let statistics = await a.commitStatistics()
            let flushes = statistics.transactions - before.transactions
            #expect(statistics.messages - before.messages == 300)
            #expect(statistics.notifications - before.notifications == flushes, "one NOTIFY per group commit")
            #expect(flushes < 300, "the burst was committed in batches")

            try await heardByB.wait { _ in heardByB.pointers.count >= 300 }
            try await Task.sleep(for: .milliseconds(300))
            #expect(heardByB.commitNotices.count == flushes)
            #expect(heardByB.pointers.count == 300)
            #expect(Set(heardByB.pointers) == Set(sent))
        }
    }

    @Test("publish reaches the other node with its event; the sender does not hear it")
    func publishedEventsReachTheOtherNode() async throws {
        try await backend.withDatabase { database in
            let a = try await database.openNode()
            let b = try await database.openNode()
            let heardByA = EventRecorder(a)
            let heardByB = EventRecorder(b)
            let (user, conversation) = (UserID(), ConversationID())
            let events: [ClusterEvent] = [
                .stagedChanged(user: user, conversation: conversation),
                .instanceChanged(user: user, conversation: nil, app: "org.parlor.todo"),
                .instanceChanged(user: user, conversation: conversation, app: "org.parlor.rsvp"),
                .instanceDropped(user: user, conversation: conversation, app: "org.parlor.tictactoe"),
                .conversationChanged(conversation),
            ]
            for event in events { await a.publish(event) }

            try await heardByB.wait { $0.count >= events.count }
            try await Task.sleep(for: .milliseconds(300))
            #expect(heardByB.envelopes == events.map { ClusterEnvelope(origin: a.nodeID, event: $0) })
            #expect(heardByA.envelopes.isEmpty)
        }
    }

    @Test("When B's listening connection is killed, B reports .listenerRestarted and keeps receiving")
    func listenerRestartsAfterItsConnectionIsKilled() async throws {
        try await backend.withDatabase { database in
            let a = try await database.openNode()
            let b = try await database.openNode()
            let heardByB = EventRecorder(b)
            let alice = try await a.makeUser("alice")
            let bob = try await a.makeUser("bob")
            let conversation = try await a.makeConversation(alice, bob)
            let first = try await a.sendText("before", from: alice, in: conversation)
            #expect(try await heardByB.wait { _ in heardByB.pointers == [first] })

            let admin = try PostgresTestServer.shared()
            let killed = try await admin.rows("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \("parlor-listener \(b.nodeID)")
                """).map { try $0.decode(Bool.self) }
            #expect(killed == [true], "B has exactly one listening connection, and it was ended")

            #expect(try await heardByB.wait { $0.contains { $0.event == .listenerRestarted } }, "B reported that it listens again")
            #expect(heardByB.envelopes.filter { $0.event == .listenerRestarted }.count == 1)
            let restart = try #require(heardByB.envelopes.firstIndex { $0.event == .listenerRestarted })
            #expect(heardByB.envelopes[restart].origin == b.nodeID)

            let second = try await a.sendText("after", from: alice, in: conversation)
            #expect(try await heardByB.wait { _ in heardByB.pointers.contains(second) }, "B hears A again after the restart")
            #expect(heardByB.pointers == [first, second])
        }
    }
}

extension PostgresStore {
    /// The message a pointer names.
    func message(at pointer: MessagePointer, in conversation: ConversationRecord) async throws -> StoredMessage? {
        try await messages(in: conversation.id, after: pointer.sequence - 1, limit: 1).first
    }
}
