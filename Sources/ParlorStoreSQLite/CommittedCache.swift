import GRDB
import ParlorKit
import ParlorStore
import Synchronization

/// Rows this store committed lately, as committed, answered from memory. On the benchmark machine
/// any read after a write costs about half a millisecond even for one row (SQLite empties a
/// reader's page cache whenever the database changed, and the pages come back through syscalls).
///
/// Exact because this store is the database's only writer: entries are set on the writer queue
/// right after their transaction commits (`Database.keepOnCommit`), in commit order. A write that
/// changes a kept row some other way drops its entry before it writes, so a read until its commit
/// finds the row as it was, and after it the changed row. Reads never fill it: a read racing a
/// change could otherwise put back what the change replaced. Holds at most `capacity` entries.
final class CommittedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries: Mutex<LRUCache<Key, Value>>

    init(capacity: Int = 1_024) {
        entries = Mutex(LRUCache(capacity: capacity))
    }

    /// The value as committed, if this store committed it lately.
    func value(for key: Key) -> Value? {
        entries.withLock { $0[key] }
    }

    /// Drops an entry about to change.
    func forget(_ key: Key) {
        entries.withLock { $0[key] = nil }
    }

    /// Drops the entries about to change.
    func forget(where isChanging: @Sendable (Key) -> Bool) {
        entries.withLock { $0.removeAll { key, _ in isChanging(key) } }
    }

    fileprivate func keep(_ committed: [(Key, Value)]) {
        entries.withLock { cache in
            for (key, value) in committed { cache[key] = value }
        }
    }
}

extension Database {
    /// Keeps `committed` in `cache` once this transaction commits (nothing if it rolls back).
    func keepOnCommit<Key, Value>(_ committed: [(Key, Value)], in cache: CommittedCache<Key, Value>) {
        guard !committed.isEmpty else { return }
        afterNextTransaction { _ in cache.keep(committed) }
    }
}

/// The app messages this store committed lately. The message a person taps to open its app is
/// most often one just sent: reading it back cost about half a millisecond of a tap's two.
/// Messages are never deleted; an unsend or an edit drops its entry before it writes.
typealias RecentAppMessages = CommittedCache<AppMessageKey, StoredMessage>

struct AppMessageKey: Hashable, Sendable {
    let conversation: ConversationID
    let message: MessageID
}

extension RecentAppMessages {
    /// The message as committed, if it is one of the recent app messages.
    func message(_ id: MessageID, in conversation: ConversationID) -> StoredMessage? {
        value(for: AppMessageKey(conversation: conversation, message: id))
    }

    /// Drops a message about to change.
    func forget(_ id: MessageID, in conversation: ConversationID) {
        forget(AppMessageKey(conversation: conversation, message: id))
    }
}

extension Database {
    /// Keeps `committed`'s app messages in `recent` once this transaction commits.
    func keepOnCommit(_ committed: [StoredMessage], in recent: RecentAppMessages) {
        keepOnCommit(
            committed.filter { $0.content.appMessage != nil }.map { (AppMessageKey(conversation: $0.conversationID, message: $0.id), $0) },
            in: recent)
    }
}

/// The compose fields this store wrote lately, empty ones included: `sendStaged` reads the field
/// the app filled a moment before (half a millisecond from the database). An account's deletion
/// drops its entries once it has committed (dropped before, a field staged meanwhile would stay
/// kept after its row is gone); until then a read finds the field as it was.
typealias ComposeFields = CommittedCache<ComposeFieldKey, ComposeField>

struct ComposeFieldKey: Hashable, Sendable {
    let user: UserID
    let conversation: ConversationID
}

/// What a compose field holds; nil when it is empty.
struct ComposeField: Sendable {
    let record: StagedRecord?
}

extension ComposeFields {
    /// The field as written, if this store wrote it lately.
    func field(user: UserID, conversation: ConversationID) -> ComposeField? {
        value(for: ComposeFieldKey(user: user, conversation: conversation))
    }
}

extension Database {
    /// Keeps the compose fields among `writes` in `fields` once this transaction commits.
    func keepOnCommit(_ writes: [StateWrite], in fields: ComposeFields) {
        keepOnCommit(
            writes.compactMap { write in
                guard case .staged(let record, let user, let conversation) = write else { return nil }
                return (ComposeFieldKey(user: user, conversation: conversation), ComposeField(record: record))
            },
            in: fields)
    }
}
