import Foundation
import Logging
import ParlorHost
import ParlorKit
import ParlorStore
import PostgresNIO

/// Group commit on PostgreSQL, as `CommitBatcher` does on SQLite: appends that arrive while a
/// transaction is being written wait and are then committed together in the next one. Every
/// caller resumes only after its transaction is durable.
///
/// Each transaction first locks the rows of the conversations it appends to, in id order (so two
/// nodes' batches cannot deadlock), then appends one message after another: a duplicate id
/// returns the stored message, a stale session head throws `SessionConflict`, `validate` runs with
/// exactly the head. A refused append writes nothing before it is refused, so it cannot affect the
/// others and needs no savepoint; its `alongside` writes run only after it succeeded. The
/// transaction ends with one `NOTIFY` announcing what it committed, delivered by PostgreSQL only
/// once the commit is durable.
actor PostgresCommitBatcher {
    typealias Validate = @Sendable (NewMessage, StoredMessage?) throws -> Void
    typealias Appended = (message: StoredMessage, isDuplicate: Bool)
    typealias Outcome = Result<Appended, any Error>

    /// The most appends one transaction takes.
    static let maxBatch = 512
    /// How often a batch is retried when PostgreSQL aborts it for a deadlock or serialization failure.
    static let maxRetries = 3

    private let client: PostgresClient
    private let channel: String
    private let nodeID: String
    private let logger: Logger
    private(set) var statistics = CommitStatistics()

    init(client: PostgresClient, channel: String, nodeID: String, logger: Logger) {
        self.client = client
        self.channel = channel
        self.nodeID = nodeID
        self.logger = logger
    }

    /// The queue that feeds this batcher: appends that arrive together share one transaction.
    nonisolated func queue() -> GroupCommitQueue<AppendRequest, Appended> {
        GroupCommitQueue(maxBatch: Self.maxBatch) { requests in await self.commit(requests) }
    }

    func commit(_ requests: [AppendRequest]) async -> [Outcome] {
        var attempt = 0
        while true {
            do {
                let (outcomes, notifications) = try await client.withConnection { connection in
                    try await Self.commit(requests, channel: self.channel, origin: self.nodeID, on: connection, logger: self.logger)
                }
                let committed = outcomes.filter { (try? $0.get().isDuplicate) == false }.count
                if committed > 0 {
                    statistics.transactions += 1
                    statistics.messages += committed
                    statistics.notifications += notifications
                }
                return outcomes
            } catch let error as PSQLError where ["40P01", "40001"].contains(PostgresStore.sqlState(error) ?? "") && attempt < Self.maxRetries {
                attempt += 1
                logger.notice("A group commit was aborted by the database; retrying", metadata: ["attempt": "\(attempt)"])
            } catch {
                logger.error("A group commit failed", metadata: ["error": "\(String(reflecting: error))", "messages": "\(requests.count)"])
                let failure = StoreError(.unavailable, "The message could not be saved; try again.")
                return Array(repeating: .failure(failure), count: requests.count)
            }
        }
    }

    /// One batch transaction; returns each append's outcome and how many notifications it sent.
    /// Throws (and rolls back) when the database fails.
    private static func commit(
        _ requests: [AppendRequest], channel: String, origin: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> ([Outcome], Int) {
        try await PostgresStore.inTransaction(connection, logger: logger) { connection in
            let conversations = Set(requests.map(\.message.conversationID.description)).sorted()
            try await connection.rows(
                "SELECT id FROM conversations WHERE id = ANY(\(conversations)) ORDER BY id FOR NO KEY UPDATE", logger: logger
            )
            var outcomes: [Outcome] = []
            var pointers: [MessagePointer] = []
            for request in requests {
                let message = request.message
                do {
                    let alongside = try request.alongside.map(PostgresStore.query(for:))
                    let appended = try await append(message, validate: request.validate, on: connection, logger: logger)
                    // After the append: a refused one writes nothing, so neither do its companions.
                    for query in alongside { try await connection.rows(query, logger: logger) }
                    outcomes.append(.success(appended))
                    if !appended.isDuplicate {
                        pointers.append(MessagePointer(conversation: message.conversationID, sequence: appended.message.sequence))
                    }
                } catch let error as PSQLError {
                    throw error  // the database itself failed: the transaction is aborted
                } catch {
                    outcomes.append(.failure(error))
                }
            }
            let payloads = try ClusterNotice.payloads(committed: pointers, origin: origin)
            for payload in payloads {
                try await connection.rows("SELECT pg_notify(\(channel), \(payload))", logger: logger)
            }
            return (outcomes, payloads.count)
        }
    }

    /// Appends one message inside the batch transaction, which holds its conversation's row lock.
    private static func append(
        _ message: NewMessage, validate: Validate, on connection: PostgresConnection, logger: Logger
    ) async throws -> Appended {
        let conversation = message.conversationID.description
        let session = message.content.appMessage?.session?.id.description
        // The message itself if already stored (role 0), and the session's head (role 1).
        let rows = try await connection.rows("""
            SELECT \(unescaped: PostgresStore.messageColumns), 0 AS role FROM messages
            WHERE conversation_id = \(conversation) AND id = \(message.id.description)
            UNION ALL
            (SELECT \(unescaped: PostgresStore.messageColumns), 1 FROM messages
             WHERE conversation_id = \(conversation) AND session_id = \(session) ORDER BY seq DESC LIMIT 1)
            """, logger: logger)
        var existing: StoredMessage?
        var head: StoredMessage?
        for row in rows {
            let stored = try PostgresStore.decodeMessage(row)
            if try row.makeRandomAccess()[PostgresStore.messageColumnCount].decode(Int32.self) == 0 { existing = stored } else { head = stored }
        }
        if let existing { return (existing, true) }
        if session != nil, let head, !MessageRules.isCurrent(head: head.id, replacing: message.replacing) { throw SessionConflict(head: head) }
        try validate(message, session != nil ? head : nil)

        let now = Timestamp(Date())
        let sequence = try await connection.rows("""
            WITH next AS (
                UPDATE conversations SET last_seq = last_seq + 1,
                    last_message_seq = CASE WHEN \(message.content.isEvent) THEN last_message_seq ELSE last_seq + 1 END,
                    last_activity = \(now)
                WHERE id = \(conversation) RETURNING last_seq
            )
            INSERT INTO messages (conversation_id, seq, id, sender_id, kind, session_id, content, sent_at, reply_to, search_text)
            SELECT \(conversation), last_seq, \(message.id.description), \(message.sender.description), \(message.content.kind),
                \(session), \(try PostgresStore.encode(message.content)), \(now), \(message.replyTo?.description),
                \(message.content.searchIndexText)
            FROM next
            RETURNING seq
            """, logger: logger).first?.decode(Int64.self)
        guard let sequence else { throw StoreError(.notFound, "There is no such conversation.") }
        let mentioned = message.content.alertedUsers
        if !mentioned.isEmpty {
            try await PostgresStore.recordMentions(mentioned, conversation: conversation, sequence: sequence, on: connection, logger: logger)
        }
        for hash in message.content.blobHashes {
            try await connection.rows("""
                INSERT INTO message_blobs (conversation_id, seq, hash) VALUES (\(conversation), \(sequence), \(hash))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        let stored = StoredMessage(
            id: message.id, conversationID: message.conversationID, sequence: sequence, sender: message.sender,
            content: message.content, sentAt: now.date, replyTo: message.replyTo)
        return (stored, false)
    }
}
