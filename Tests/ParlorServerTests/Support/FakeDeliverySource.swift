import Foundation
import NIOWebSocket
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Synchronization

/// A `DeliverySource` over messages held in memory, read `pageSize` to a page. With
/// `holdsAfterFirstPage`, every page after a conversation's first waits until the test opens
/// `gate`; how each page's write ended is told in `pageWrites`, in order.
final class FakeDeliverySource: DeliverySource {
    struct ReadFailed: Error {}

    private let heads: [(id: ConversationID, lastSequence: Int64)]
    private let stored: [ConversationID: [Wire.Message]]
    private let pageSize: Int
    private let session: [Wire.ServerFrame]
    private let holdsAfterFirstPage: Bool
    private let failsReading: Bool
    /// Opened by the test to let held pages go.
    let gate = Gate()
    /// For each page handed out: true when the connection wrote it, false when it refused it.
    let pageWrites: AsyncStream<Bool>
    private let pageWritten: AsyncStream<Bool>.Continuation

    /// - Parameters:
    ///   - heads: the user's conversations with their last sequence numbers, as the replay reads them.
    ///   - messages: what the store holds, in any conversation (more than `heads` say: committed since).
    init(
        _ heads: [(id: ConversationID, lastSequence: Int64)], messages: [Wire.Message] = [], pageSize: Int = 2,
        sessionFrames: [Wire.ServerFrame] = [], holdsAfterFirstPage: Bool = false, failsReading: Bool = false
    ) {
        self.heads = heads
        stored = Dictionary(grouping: messages, by: \.conversation)
        self.pageSize = pageSize
        session = sessionFrames
        self.holdsAfterFirstPage = holdsAfterFirstPage
        self.failsReading = failsReading
        let (pageWrites, pageWritten) = AsyncStream<Bool>.makeStream()
        self.pageWrites = pageWrites
        self.pageWritten = pageWritten
    }

    func conversations(of user: UserID) async throws -> [(id: ConversationID, lastSequence: Int64)] {
        guard !failsReading else { throw ReadFailed() }
        return heads
    }

    func messages(
        in conversation: ConversationID, for user: UserID, after sequence: Int64, through last: Int64,
        _ body: ([Wire.Message]) async throws -> Void
    ) async throws -> Int64 {
        let all = (stored[conversation] ?? []).sorted { $0.sequence < $1.sequence }
        var after = sequence
        var pages = 0
        while after < last {
            let page = Array(all.filter { $0.sequence > after && $0.sequence <= last }.prefix(pageSize))
            guard let newest = page.last else { break }
            pages += 1
            if holdsAfterFirstPage, pages > 1 { await gate.wait() }
            do {
                try await body(page)
                pageWritten.yield(true)
            } catch {
                pageWritten.yield(false)
                throw error
            }
            after = newest.sequence
        }
        return after
    }

    func render(_ message: StoredMessage, for user: UserID) async -> Wire.Message {
        DeliveryFixture.wire(message.sequence, in: message.conversationID)
    }

    func sessionFrames(for user: UserID, in conversations: [ConversationID]) async -> [Wire.ServerFrame] {
        session
    }
}

extension FakeDeliverySource {
    /// Shut until `open()`; then every `wait()` returns at once.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                if isOpen { continuation.resume() }
            }
        }

        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }
}

/// Messages and frames for the delivery tests: the same sequence in the same conversation is the
/// same message, and every frame reads back as a short label (`a3`: conversation `a`, sequence 3).
enum DeliveryFixture {
    static let user = UserID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)))
    static let sentAt = Date(timeIntervalSince1970: 1_700_000_000)

    /// The message of `sequence` in `conversation`, as stored.
    static func stored(_ sequence: Int64, in conversation: ConversationID) -> StoredMessage {
        StoredMessage(id: id(sequence, in: conversation), conversationID: conversation, sequence: sequence, sender: user, content: .text("\(sequence)"), sentAt: sentAt)
    }

    /// The message of `sequence` in `conversation`, as the wire carries it.
    static func wire(_ sequence: Int64, in conversation: ConversationID) -> Wire.Message {
        var message = Wire.Message(
            id: id(sequence, in: conversation), conversation: conversation, sequence: sequence, sender: user, senderName: "Alice",
            sentAt: sentAt, kind: "text")
        message.text = "\(sequence)"
        return message
    }

    /// Its `message` frame, as `Outgoing.message` carries it when it reads the same for everyone.
    static func frame(_ sequence: Int64, in conversation: ConversationID) -> String {
        Wire.ServerFrame.message(Wire.EncodedMessage(wire(sequence, in: conversation))).json()
    }

    /// A queued live message with its frame.
    static func live(_ sequence: Int64, in conversation: ConversationID) -> Outgoing {
        .message(stored(sequence, in: conversation), frame: frame(sequence, in: conversation))
    }

    /// A frame to tell apart from the others: `pong <name>`.
    static func marker(_ name: String) -> String {
        Wire.ServerFrame.pong(requestId: name).json()
    }

    /// A frame's label: `a3` for message 3 of the conversation named `a`, `pong <name>` for a
    /// marker, `close <code>` for a close frame, else the frame's type.
    static func label(_ text: String, names: [ConversationID: String]) -> String {
        switch TestSocket.serverFrame(text) {
        case .message(let frame)?: "\(names[frame.message.conversation] ?? "?")\(frame.message.sequence)"
        case .pong(let name)?: "pong \(name ?? "")"
        case let frame?: frame.type
        case nil: "unreadable: \(text)"
        }
    }

    static func label(_ outbound: SocketOutbound, names: [ConversationID: String]) -> String {
        switch outbound {
        case .text(let text): label(text, names: names)
        case .close(let code, _): "close \(UInt16(webSocketErrorCode: code))"
        }
    }

    private static func id(_ sequence: Int64, in conversation: ConversationID) -> MessageID {
        // The conversation's id with the sequence number in its last twelve digits.
        let text = "\(conversation.description.prefix(24))\(String(format: "%012llX", sequence))"
        guard let uuid = UUID(uuidString: text) else { preconditionFailure("not a UUID: \(text)") }
        return MessageID(uuid)
    }
}
