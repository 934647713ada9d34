import Foundation
import ParlorKit
import ParlorStore
import Synchronization
import Testing

/// Accepts every message, as the server does for messages no app validates.
let acceptAll: @Sendable (NewMessage, StoredMessage?) throws -> Void = { _, _ in }

/// Refuses every message, as an app's `validate` does with a move it rejects.
let refuseAll: @Sendable (NewMessage, StoredMessage?) throws -> Void = { _, _ in throw Refused() }

/// What a test's `validate` closure throws to refuse a message.
struct Refused: Error, Equatable {
    var reason = "refused"
}

extension ParlorStore {
    /// Starts appending `text` with a validation that takes `seconds`, and returns once that commit
    /// is in progress: appends made before the task ends queue up and are committed together in
    /// the next transaction, one group commit.
    func holdingACommit(_ text: String, from sender: User, in conversation: ConversationRecord, for seconds: Double) async throws
        -> Task<(message: StoredMessage, isDuplicate: Bool), any Error>
    {
        let entered = Locked(false)
        let slow = NewMessage(id: MessageID(), conversationID: conversation.id, sender: sender.id, content: .text(text))
        let task = Task {
            try await append(slow, validate: { _, _ in
                entered.update { $0 = true }
                Thread.sleep(forTimeInterval: seconds)
            })
        }
        for _ in 0..<500 where !entered.value { try await Task.sleep(for: .milliseconds(10)) }
        #expect(entered.value, "the slow commit started")
        return task
    }

    /// Creates the account `username`, shown as the capitalized name, with the hash `hash-<username>`.
    func makeUser(_ username: String) async throws -> User {
        try await createUser(username: username, displayName: username.capitalized, passwordHash: "hash-\(username)")
    }

    /// Creates a conversation of `members`: a group when there are more than two.
    func makeConversation(_ members: User..., title: String? = nil) async throws -> ConversationRecord {
        try await createConversation(title: title, isGroup: members.count > 2, members: members.map(\.id))
    }

    /// Sends a text message and returns it as stored.
    @discardableResult
    func send(
        _ text: String, from sender: User, in conversation: ConversationRecord, id: MessageID = MessageID()
    ) async throws -> StoredMessage {
        let message = NewMessage(id: id, conversationID: conversation.id, sender: sender.id, content: .text(text))
        return try await append(message, validate: acceptAll).message
    }

    /// Sends an app message in `session` that replaces `replacing` (nil to start the session).
    @discardableResult
    func sendApp(
        _ caption: String, in session: Session, replacing: StoredMessage?, from sender: User, in conversation: ConversationRecord,
        validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void = acceptAll
    ) async throws -> StoredMessage {
        try await append(appMessage(caption, in: session, replacing: replacing, from: sender, in: conversation), validate: validate).message
    }

    /// Bob opens a game in `conversation`; Alice's move on it, ready to append, and the compose
    /// field that stages it (not stored).
    func stagedMove(
        by alice: User, after bob: User, in conversation: ConversationRecord
    ) async throws -> (game: Session, move: NewMessage, record: StagedRecord) {
        let game = Session()
        let head = try await sendApp("opening", in: game, replacing: nil, from: bob, in: conversation)
        let move = appMessage("X in the centre", in: game, replacing: head, from: alice, in: conversation)
        let staged = try #require(move.content.appMessage)
        return (game, move, StagedRecord(item: .message(staged), replacing: head.id))
    }

    /// Every message of a conversation, oldest first.
    func allMessages(in conversation: ConversationRecord) async throws -> [StoredMessage] {
        try await messages(in: conversation.id, after: 0, limit: 10_000)
    }

    /// The user's summary of one conversation, nil when it is not in their list.
    func summary(of conversation: ConversationRecord, for user: User) async throws -> ConversationSummary? {
        try await conversations(of: user.id).first { $0.conversation.id == conversation.id }
    }
}

/// An app message with a template caption in `session`, ready to append.
func appMessage(
    _ caption: String, in session: Session, replacing: StoredMessage?, from sender: User, in conversation: ConversationRecord
) -> NewMessage {
    let message = Message(session: session, layout: .template(TemplateLayout(caption: caption)))
    return NewMessage(id: message.id, conversationID: conversation.id, sender: sender.id, content: .app(message), replacing: replacing?.id)
}

extension StoredMessage {
    /// The text of a text message, the caption of an app message, or an attachment's name.
    var text: String? {
        switch content {
        case .text(let text, _, _): text
        case .app(let message): message.template?.caption
        case .sticker, .event: nil
        case .attachment(let attachment): attachment.name
        }
    }
}

/// A value that `@Sendable` closures (a `validate`, concurrent tasks) can share and change.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func update<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
