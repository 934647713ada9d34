import Foundation
import ParlorKit
import ParlorStore
import ParlorStorePostgres
import PostgresNIO
import Testing

/// Collects what a node's `events()` yields, from the moment it is made.
final class EventRecorder: Sendable {
    private let received: Locked<[ClusterEnvelope]>
    private let task: Task<Void, Never>

    init(_ node: PostgresStore) {
        let stream = node.events()
        let received = Locked<[ClusterEnvelope]>([])
        self.received = received
        task = Task { for await envelope in stream { received.update { $0.append(envelope) } } }
    }

    deinit { task.cancel() }

    var envelopes: [ClusterEnvelope] { received.value }

    /// Every `.messagesCommitted` envelope received so far.
    var commitNotices: [[MessagePointer]] {
        envelopes.compactMap { envelope in
            if case .messagesCommitted(let pointers) = envelope.event { return pointers }
            return nil
        }
    }

    /// Every pointer received so far, in order of arrival.
    var pointers: [MessagePointer] { commitNotices.flatMap { $0 } }

    /// Waits until `condition` holds of what was received, for at most `timeout`; returns whether it did.
    @discardableResult
    func wait(timeout: Duration = .seconds(10), until condition: ([ClusterEnvelope]) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(envelopes) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition(envelopes)
    }
}

extension TestDatabase {
    /// Opens a node on this database and waits until it listens for the other nodes.
    func openNode() async throws -> PostgresStore {
        let store = try #require(try await open() as? PostgresStore)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { await store.waitUntilListening(); return true }
            group.addTask { try await Task.sleep(for: .seconds(10)); return false }
            let listening = try await group.next() ?? false
            group.cancelAll()
            #expect(listening, "node \(store.nodeID) did not start listening within 10 s")
        }
        return store
    }
}

extension PostgresStore {
    /// Appends a text message and returns where it was committed.
    func sendText(_ text: String, from sender: User, in conversation: ConversationRecord) async throws -> MessagePointer {
        let stored = try await send(text, from: sender, in: conversation)
        return MessagePointer(conversation: stored.conversationID, sequence: stored.sequence)
    }
}
