import Foundation
import GRDB
import Logging
import ParlorHost
import ParlorKit
import ParlorStore

/// Group commit: appends that arrive while a transaction is being written wait and are then
/// committed together in the next one. Every check that can refuse an append (a duplicate, a
/// stale session head, an app's validation, content that does not encode) runs before its first
/// write, so a refusal writes nothing and the others in the transaction go on; its `alongside`
/// writes commit with it. A failure of the database itself fails the whole transaction. Every
/// caller resumes only after its transaction is durable.
///
/// No savepoint per append: FTS5 writes its pending terms to disk at every savepoint, so one per
/// message made the search index write a segment per message instead of one per transaction
/// (three times the WAL bytes of a message, `bench/README.md`).
enum CommitBatcher {
    typealias Validate = @Sendable (NewMessage, StoredMessage?) throws -> Void
    typealias Appended = (message: StoredMessage, isDuplicate: Bool)
    typealias Outcome = Result<Appended, any Error>

    /// The most appends one transaction takes.
    static let maxBatch = 512

    /// A queue that commits its batches to `pool`.
    static func queue(
        pool: DatabasePool, recent: RecentAppMessages, fields: ComposeFields, logger: Logger
    ) -> GroupCommitQueue<AppendRequest, Appended> {
        GroupCommitQueue(maxBatch: maxBatch) { requests in
            do {
                return try await pool.write { db in
                    let outcomes = try requests.map { try commitOne($0, db: db) }
                    db.keepOnCommit(outcomes.compactMap { try? $0.get() }.filter { !$0.isDuplicate }.map(\.message), in: recent)
                    // An append's writes beside it ran when it succeeded (`commitOne`).
                    let written = zip(requests, outcomes).flatMap { request, outcome -> [StateWrite] in
                        if case .success = outcome { request.alongside } else { [] }
                    }
                    db.keepOnCommit(written, in: fields)
                    return outcomes
                }
            } catch {
                logger.error("A group commit failed", metadata: ["error": "\(error)", "messages": "\(requests.count)"])
                let failure = StoreError(.unavailable, "The message could not be saved; try again.")
                return Array(repeating: .failure(failure), count: requests.count)
            }
        }
    }

    private static func commitOne(_ request: AppendRequest, db: Database) throws -> Outcome {
        let prepared: Prepared
        let alongside: [StateStatement]
        do {
            alongside = try request.alongside.map(SQLiteStore.statement(for:))
            prepared = try prepare(request, db: db)
        } catch let error as DatabaseError {
            throw error  // the database itself failed: fail the whole batch
        } catch {
            return .failure(error)  // refused before any write
        }
        // Only statements from here on: what throws now is the database, and fails the batch.
        let appended: Appended
        switch prepared {
        case .duplicate(let existing):
            appended = (existing, true)
        case .new(let insert):
            guard let stored = try insert.write(db) else { return .failure(StoreError(.notFound, "There is no such conversation.")) }
            appended = (stored, false)
        }
        // A retry's writes beside it happen too (a compose field staged again is cleared).
        for statement in alongside { try statement.execute(db) }
        return .success(appended)
    }

    /// What an append does, decided before it writes.
    private enum Prepared {
        /// The message is already stored (a retried send).
        case duplicate(StoredMessage)
        case new(Insert)
    }

    /// An append's writes, with every value computed.
    private struct Insert {
        let message: NewMessage
        let conversation: String
        let session: String?
        let content: String

        /// The stored message; nil when the conversation is gone (the sequence's update, the first
        /// write, then matched no row: nothing was written).
        func write(_ db: Database) throws -> StoredMessage? {
            let now = SQLiteStore.now()
            guard let sequence = try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        UPDATE conversations SET last_seq = last_seq + 1,
                            last_message_seq = CASE WHEN ? THEN last_message_seq ELSE last_seq + 1 END, last_activity = ?
                        WHERE id = ? RETURNING last_seq
                        """),
                arguments: [message.content.isEvent, SQLiteStore.time(now), conversation])
            else { return nil }
            try db.cachedStatement(
                sql: """
                    INSERT INTO messages (conversation_id, seq, id, sender_id, kind, session_id, content, sent_at, reply_to, search_text)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    conversation, sequence, message.id.description, message.sender.description, message.content.kind, session,
                    content, SQLiteStore.time(now), message.replyTo?.description, message.content.searchIndexText,
                ])
            let mentioned = message.content.alertedUsers
            if !mentioned.isEmpty { try SQLiteStore.recordMentions(mentioned, conversation: conversation, sequence: sequence, in: db) }
            for hash in message.content.blobHashes {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO message_blobs (conversation_id, seq, hash) VALUES (?, ?, ?)")
                    .execute(arguments: [conversation, sequence, hash])
            }
            return StoredMessage(
                id: message.id, conversationID: message.conversationID, sequence: sequence, sender: message.sender,
                content: message.content, sentAt: now, replyTo: message.replyTo)
        }
    }

    /// Reads and checks; writes nothing.
    private static func prepare(_ request: AppendRequest, db: Database) throws -> Prepared {
        let message = request.message
        let conversation = message.conversationID.description
        // Cached statements: compiling them for every message cost ~9% of the server's CPU
        // under load (GRDB's authorizer runs at each compilation).
        if let existing = try MessageRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM messages WHERE conversation_id = ? AND id = ?"), arguments: [conversation, message.id.description])
        {
            return .duplicate(try existing.stored())
        }
        let session = message.content.appMessage?.session?.id.description
        var head: StoredMessage?
        if let session {
            head = try MessageRow.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM messages WHERE conversation_id = ? AND session_id = ? ORDER BY seq DESC LIMIT 1"),
                arguments: [conversation, session]
            ).map { try $0.stored() }
            if let head, !MessageRules.isCurrent(head: head.id, replacing: message.replacing) { throw SessionConflict(head: head) }
        }
        try request.validate(message, head)
        return .new(
            Insert(
                message: message, conversation: conversation, session: session, content: try SQLiteStore.encode(message.content)))
    }
}
