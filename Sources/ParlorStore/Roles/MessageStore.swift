import Foundation
import ParlorKit

/// A conversation's messages: committing them in order and reading them back.
public protocol MessageStore: Sendable {
    /// Commits a message durably and gives it the conversation's next sequence number.
    ///
    /// Idempotent: a message whose id is already in the conversation returns the stored one with
    /// `isDuplicate`. For an app message in a session, the session's head must be
    /// `message.replacing`, else it throws `SessionConflict` carrying the head. `validate` runs
    /// inside the commit with the head, so a message is checked against exactly what it replaces.
    /// `alongside` commits in the same transaction when the message does (or is a duplicate), and
    /// not at all when it is refused.
    func append(
        _ message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void, alongside: [StateWrite]
    ) async throws -> (message: StoredMessage, isDuplicate: Bool)
    /// Messages with a sequence number above `sequence`, oldest first, at most `limit`.
    func messages(in conversation: ConversationID, after sequence: Int64, limit: Int) async throws -> [StoredMessage]
    /// The newest messages, at most `limit`, oldest first.
    func latestMessages(in conversation: ConversationID, limit: Int) async throws -> [StoredMessage]
    func message(id: MessageID, in conversation: ConversationID) async throws -> StoredMessage?
    /// The newest message of a session.
    func sessionHead(_ session: SessionID, in conversation: ConversationID) async throws -> StoredMessage?
    /// Who sent a session's first message: the name a message answering the session
    /// (`Message.answersSession`) keeps the session's bubble in. Never changes once the session has
    /// a message.
    func sessionStarter(_ session: SessionID, in conversation: ConversationID) async throws -> UserID?
}

extension MessageStore {
    /// `append` with nothing alongside.
    public func append(
        _ message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void
    ) async throws -> (message: StoredMessage, isDuplicate: Bool) {
        try await append(message, validate: validate, alongside: [])
    }
}

/// A session's head changed before this message could replace it.
public struct SessionConflict: Error, Sendable {
    /// The session's head now.
    public var head: StoredMessage

    /// The conflict a store throws when `head` is the session's head now.
    public init(head: StoredMessage) { self.head = head }
}
