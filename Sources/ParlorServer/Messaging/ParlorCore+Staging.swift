import Foundation
import ParlorKit
import ParlorStore

extension ParlorCore {
    /// Puts an item in the user's compose field (replacing what was there) and shows it in every tab.
    func stage(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async throws {
        _ = try await requireMember(user, of: conversation)
        try await store.setStaged(record, user: user, conversation: conversation)
        await pushStaged(record, user: user, conversation: conversation)
        await bus.publish(.stagedChanged(user: user, conversation: conversation))
    }

    func pushStaged(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async {
        let staged = await wireStaged(record, user: user, conversation: conversation)
        await hub.send(.staged(conversation: conversation, staged: staged), to: user)
    }

    func wireStaged(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async -> Wire.Staged? {
        switch record?.item {
        case .message(let message)?:
            return Wire.Staged(kind: "app", app: await renderApp(message, id: message.id, conversation: conversation, for: user))
        case .sticker(let sticker)?:
            return Wire.Staged(kind: "sticker", sticker: Self.wire(sticker))
        case nil:
            return nil
        }
    }

    /// Sends what the user staged. On a stale session head the staged message stays and the
    /// error says so; the app gets didStartSending once it is committed.
    func sendStaged(user: UserID, conversation: ConversationID) async throws -> StoredMessage? {
        _ = try await requireMember(user, of: conversation)
        guard let record = try await store.staged(user: user, conversation: conversation) else { return nil }
        let stored: StoredMessage
        switch record.item {
        case .message(let message):
            stored = try await commitAppMessage(message, replacing: record.replacing, from: user, in: conversation)
        case .sticker(let sticker):
            stored = try await commit(NewMessage(id: MessageID(), conversationID: conversation, sender: user, content: .sticker(sticker)))
        }
        try await store.setStaged(nil, user: user, conversation: conversation)
        await pushStaged(nil, user: user, conversation: conversation)
        await bus.publish(.stagedChanged(user: user, conversation: conversation))
        if case .message(let message) = record.item {
            await notifySending(message, sent: true, user: user, conversation: conversation)
        }
        return stored
    }

    /// Removes what the user staged (didCancelSending for an app message).
    func removeStaged(user: UserID, conversation: ConversationID) async throws {
        _ = try await requireMember(user, of: conversation)
        guard let record = try await store.staged(user: user, conversation: conversation) else { return }
        try await store.setStaged(nil, user: user, conversation: conversation)
        await pushStaged(nil, user: user, conversation: conversation)
        await bus.publish(.stagedChanged(user: user, conversation: conversation))
        if case .message(let message) = record.item {
            await notifySending(message, sent: false, user: user, conversation: conversation)
        }
    }
}
