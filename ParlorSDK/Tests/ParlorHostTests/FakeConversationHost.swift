import Foundation
import ParlorHost
import ParlorKit
import Synchronization

/// A conversation host that records what an instance stages and sends, and can refuse sends as
/// stale session heads.
final class FakeConversationHost: ConversationHost {
    struct Attempt: Sendable, Equatable {
        var message: Message
        var replacing: MessageID?
    }

    private struct Record {
        var staged: [Attempt] = []
        var sendAttempts: [Attempt] = []
        var sent: [Message] = []
        var texts: [String] = []
        var stickers: [Sticker] = []
        var conflictHeads: [Message] = []
    }

    private let record = Mutex(Record())

    var staged: [Attempt] { record.withLock { $0.staged } }
    var sendAttempts: [Attempt] { record.withLock { $0.sendAttempts } }
    var sent: [Message] { record.withLock { $0.sent } }
    var texts: [String] { record.withLock { $0.texts } }
    var stickers: [Sticker] { record.withLock { $0.stickers } }
    /// Whether nothing reached the conversation.
    var isUntouched: Bool { record.withLock { $0.staged.isEmpty && $0.sendAttempts.isEmpty && $0.texts.isEmpty && $0.stickers.isEmpty } }

    /// The next sends fail with `.sessionConflict`, each naming the next of `heads` as the new head.
    func refuseNextSends(withHeads heads: [Message]) {
        record.withLock { $0.conflictHeads = heads }
    }

    func stage(_ message: Message, replacing: MessageID?) async throws {
        record.withLock { $0.staged.append(Attempt(message: message, replacing: replacing)) }
    }

    func send(_ message: Message, replacing: MessageID?) async throws -> Message {
        let head: Message? = record.withLock { record in
            record.sendAttempts.append(Attempt(message: message, replacing: replacing))
            return record.conflictHeads.isEmpty ? nil : record.conflictHeads.removeFirst()
        }
        if let head {
            throw MessagesError(.sessionConflict, "Someone else updated this first.", sessionHead: head)
        }
        var committed = message
        committed.isPending = false
        record.withLock { $0.sent.append(committed) }
        return committed
    }

    func insertText(_ text: String) async throws {
        record.withLock { $0.texts.append(text) }
    }

    func insertSticker(_ sticker: Sticker) async throws {
        record.withLock { $0.stickers.append(sticker) }
    }
}

/// An HTTP client that answers every request with `200 ok`, or fails when told to.
struct FakeHTTPClient: FetchClient {
    var failure: (any Error & Sendable)?

    func send(_ request: FetchRequest) async throws -> FetchResponse {
        if let failure { throw failure }
        return FetchResponse(status: 200, body: Data("ok from \(request.url.host ?? "")".utf8))
    }
}
