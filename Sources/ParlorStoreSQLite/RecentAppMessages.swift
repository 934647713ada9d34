import GRDB
import ParlorKit
import ParlorStore
import Synchronization

/// The app messages this store committed lately, as committed. The message a person taps to open
/// its app is most often one just sent, and reading it back from the database cost a read
/// transaction and a decode (about half a millisecond of a tap's two on the benchmark machine).
///
/// Exact because this store is the database's only writer: entries are set on the writer queue
/// right after their transaction commits (`Database.afterNextTransaction`), in commit order; an
/// unsend (or an edit) drops its message's entry before it writes, so a read until its commit
/// finds the message as it was, and after it the changed row. Reads never fill it: a read racing a
/// change could otherwise put back what the change replaced. Messages are never deleted. Holds at
/// most `capacity` messages.
final class RecentAppMessages: Sendable {
    private struct Key: Hashable {
        let conversation: ConversationID
        let message: MessageID
    }

    private let messages: Mutex<LRUCache<Key, StoredMessage>>

    init(capacity: Int = 1_024) {
        messages = Mutex(LRUCache(capacity: capacity))
    }

    /// The message as committed, if it is one of the recent app messages.
    func message(_ id: MessageID, in conversation: ConversationID) -> StoredMessage? {
        messages.withLock { $0[Key(conversation: conversation, message: id)] }
    }

    /// Keeps `committed`, app messages whose transaction committed (`Database.keepOnCommit`).
    fileprivate func keep(_ committed: [StoredMessage]) {
        messages.withLock { cache in
            for message in committed { cache[Key(conversation: message.conversationID, message: message.id)] = message }
        }
    }

    /// Drops a message about to change.
    func forget(_ id: MessageID, in conversation: ConversationID) {
        messages.withLock { $0[Key(conversation: conversation, message: id)] = nil }
    }
}

extension Database {
    /// Keeps `committed`'s app messages in `recent` once this transaction commits.
    func keepOnCommit(_ committed: [StoredMessage], in recent: RecentAppMessages) {
        let apps = committed.filter { $0.content.appMessage != nil }
        guard !apps.isEmpty else { return }
        afterNextTransaction { _ in recent.keep(apps) }
    }
}
