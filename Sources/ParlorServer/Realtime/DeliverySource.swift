import ParlorInput
import ParlorKit
import ParlorStore

/// What a connection's store jobs read (`CatchUp`): the smallest part of the store, the renderer
/// and the apps that a replay and a gap fill need. The server's is `StoreDeliverySource`; tests
/// hand in their own.
protocol DeliverySource: Sendable {
    /// The conversations `user` is a member of, each with its last sequence number.
    func conversations(of user: UserID) async throws -> [(id: ConversationID, lastSequence: Int64)]

    /// The messages of `conversation` after `sequence` up to and including `last`, as `user` sees
    /// them and without those hidden for them, handed to `body` one page at a time, in order.
    /// - Returns: the sequence of the last message read, hidden or not (`sequence` when none was).
    func messages(
        in conversation: ConversationID, for user: UserID, after sequence: Int64, through last: Int64,
        _ body: ([Wire.Message]) async throws -> Void
    ) async throws -> Int64

    /// `message` as `user` sees it.
    func render(_ message: StoredMessage, for user: UserID) async -> Wire.Message

    /// What a reconnecting tab needs besides messages: its compose fields and the apps it has open.
    func sessionFrames(for user: UserID, in conversations: [ConversationID]) async -> [Wire.ServerFrame]
}

/// The server's `DeliverySource`: messages from the store, drawn by the `Renderer`, and the session
/// frames of the `AppHost`.
struct StoreDeliverySource: DeliverySource {
    let store: any ConversationStore & MessageStore & ExpiryStore
    let renderer: Renderer
    let apps: AppHost

    func conversations(of user: UserID) async throws -> [(id: ConversationID, lastSequence: Int64)] {
        try await store.conversations(of: user).map { ($0.conversation.id, $0.conversation.lastSequence) }
    }

    func messages(
        in conversation: ConversationID, for user: UserID, after sequence: Int64, through last: Int64,
        _ body: ([Wire.Message]) async throws -> Void
    ) async throws -> Int64 {
        let hidden = try await store.hiddenMessages(user: user, conversation: conversation)
        return try await store.forEachPage(in: conversation, after: sequence, through: last) { page in
            try await body(try await renderer.render(page.filter { !hidden.contains($0) }, for: user))
        }
    }

    func render(_ message: StoredMessage, for user: UserID) async -> Wire.Message {
        await renderer.render(message, for: user)
    }

    func sessionFrames(for user: UserID, in conversations: [ConversationID]) async -> [Wire.ServerFrame] {
        await apps.sessionFrames(for: user, in: conversations)
    }
}
