import Foundation
import GRDB
import Logging
import ParlorHost
import ParlorKit
import ParlorStore

/// Group commit: appends that arrive while a transaction is being written wait and are then
/// committed together in the next one, each in its own savepoint so one refusal (a stale session
/// head, an app's validation) does not affect the others; an append's `alongside` writes share its
/// savepoint. Every caller resumes only after its transaction is durable.
enum CommitBatcher {
    typealias Validate = @Sendable (NewMessage, StoredMessage?) throws -> Void
    typealias Appended = (message: StoredMessage, isDuplicate: Bool)
    typealias Outcome = Result<Appended, any Error>

    /// The most appends one transaction takes.
    static let maxBatch = 512

    /// A queue that commits its batches to `pool`.
    static func queue(pool: DatabasePool, logger: Logger) -> GroupCommitQueue<AppendRequest, Appended> {
        GroupCommitQueue(maxBatch: maxBatch) { requests in
            do {
                return try await pool.write { db in try requests.map { try commitOne($0, db: db) } }
            } catch {
                logger.error("A group commit failed", metadata: ["error": "\(error)", "messages": "\(requests.count)"])
                let failure = StoreError(.unavailable, "The message could not be saved; try again.")
                return Array(repeating: .failure(failure), count: requests.count)
            }
        }
    }

    private static func commitOne(_ request: AppendRequest, db: Database) throws -> Outcome {
        var outcome: Outcome?
        try db.inSavepoint {
            do {
                let appended = try append(request.message, validate: request.validate, db: db)
                for write in request.alongside { try SQLiteStore.statement(for: write).execute(db) }
                outcome = .success(appended)
                return .commit
            } catch let error as DatabaseError {
                throw error  // the database itself failed: fail the whole batch
            } catch {
                outcome = .failure(error)
                return .rollback
            }
        }
        return outcome ?? .failure(StoreError(.unavailable, "The message could not be saved."))
    }

    private static func append(_ message: NewMessage, validate: Validate, db: Database) throws -> (message: StoredMessage, isDuplicate: Bool) {
        let conversation = message.conversationID.description
        // Cached statements: compiling these four for every message cost ~9% of the server's CPU
        // under load (GRDB's authorizer runs at each compilation).
        if let existing = try MessageRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM messages WHERE conversation_id = ? AND id = ?"), arguments: [conversation, message.id.description])
        {
            return (try existing.stored(), true)
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
        try validate(message, head)
        let now = SQLiteStore.now()
        guard let sequence = try Int64.fetchOne(
            db.cachedStatement(sql: "UPDATE conversations SET last_seq = last_seq + 1, last_activity = ? WHERE id = ? RETURNING last_seq"),
            arguments: [SQLiteStore.time(now), conversation])
        else { throw StoreError(.notFound, "There is no such conversation.") }
        let stored = StoredMessage(
            id: message.id, conversationID: message.conversationID, sequence: sequence, sender: message.sender,
            content: message.content, sentAt: now, replyTo: message.replyTo)
        try db.cachedStatement(
            sql: """
                INSERT INTO messages (conversation_id, seq, id, sender_id, kind, session_id, content, sent_at, reply_to, search_text)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                conversation, sequence, message.id.description, message.sender.description, message.content.kind, session,
                try SQLiteStore.encode(message.content), SQLiteStore.time(now), message.replyTo?.description,
                message.content.searchIndexText,
            ])
        let mentioned = message.content.mentionedUsers
        if !mentioned.isEmpty { try SQLiteStore.recordMentions(mentioned, conversation: conversation, sequence: sequence, in: db) }
        if case .attachment(let attachment) = message.content {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO message_blobs (conversation_id, seq, hash) VALUES (?, ?, ?)")
                .execute(arguments: [conversation, sequence, attachment.hash])
        }
        return (stored, false)
    }
}
