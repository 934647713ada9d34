import Foundation
import NIOCore
import ParlorHost
import ParlorKit
import ParlorStore

/// The compose field: what an app (or a sticker browser) staged for the user to send.
extension AppHost {
    /// Puts an item in the user's compose field (replacing what was there) and shows it in every tab.
    func stage(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async throws {
        try await membership.requireMember(user, of: conversation)
        try await setStaged(record, user: user, conversation: conversation)
    }

    /// Shows a compose field to this node's connections of the user.
    func pushStaged(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async {
        let staged = await renderer.staged(record, user: user, conversation: conversation)
        await answer(.staged(conversation: conversation, staged: staged), to: user)
    }

    /// Sends what the user staged. On a stale session head the app re-applies the message to the
    /// new head when it can (`MessagesApp.rebase`); otherwise the staged message stays and the
    /// error says so. The compose field is cleared in the message's own transaction, so a crash
    /// leaves either both or neither. The app gets `didStartSending` once it is committed.
    func sendStaged(user: UserID, conversation: ConversationID) async throws -> Messaging.Sent? {
        try await membership.requireMember(user, of: conversation)
        // The compose field is shown while the app's call that filled it still runs: that call
        // ends, its state saved, before the message commits, so the commit's sync covers both.
        await instances.openInstance(of: user, in: conversation)?.instance.settle()
        guard let record = try await store.staged(user: user, conversation: conversation) else { return nil }
        let clear = [StateWrite.staged(nil, user: user, conversation: conversation)]
        let sent: Messaging.Sent
        var sentMessage: Message?
        switch record.item {
        case .message(let message):
            do {
                (sent, sentMessage) = try await MessageRules.sendStaged(message, replacing: record.replacing) { staged, head in
                    // Only after a conflict: the sender's participant id costs a store write.
                    guard let app = staged.appID.flatMap(directory.app) else { return nil }
                    return try await app.rebase(staged, onto: head, sender: try await store.participantID(user: user, app: app.manifest.id))
                } commit: {
                    try await messaging.sendAppMessage($0, replacing: $1, from: user, in: conversation, alongside: clear)
                }
            } catch {
                // Refused: the message stays staged saying why (`Message.error`), in every tab and after a reload.
                let refusal = APIError(error)
                // Only onto the compose field that was sent: not over a newer one, staged or removed meanwhile.
                if refusal.status.code < 500, (try? await store.staged(user: user, conversation: conversation)) == record {
                    let failed = MessageRules.failedToSend(message, SendFailure(code: refusal.code, message: refusal.message))
                    try? await setStaged(StagedRecord(item: .message(failed), replacing: record.replacing), user: user, conversation: conversation)
                }
                throw error
            }
        case .sticker(let sticker):
            sent = try await messaging.commit(
                NewMessage(id: MessageID(), conversationID: conversation, sender: user, content: .sticker(sticker)), alongside: clear)
        }
        await showStaged(nil, user: user, conversation: conversation)
        if let sentMessage {
            await notifySending(sentMessage, sent: true, user: user, conversation: conversation)
        }
        return sent
    }

    /// Removes what the user staged (`didCancelSending` for an app message).
    func removeStaged(user: UserID, conversation: ConversationID) async throws {
        try await membership.requireMember(user, of: conversation)
        guard let record = try await store.staged(user: user, conversation: conversation) else { return }
        try await setStaged(nil, user: user, conversation: conversation)
        if case .message(let message) = record.item {
            await notifySending(message, sent: false, user: user, conversation: conversation)
        }
    }

    /// Stores the compose field and shows it in every tab, here and on the other nodes.
    private func setStaged(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async throws {
        try await store.setStaged(record, user: user, conversation: conversation)
        await showStaged(record, user: user, conversation: conversation)
    }

    /// Shows a stored compose field in every tab, here and on the other nodes.
    private func showStaged(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async {
        await pushStaged(record, user: user, conversation: conversation)
        await bus.publish(.stagedChanged(user: user, conversation: conversation))
    }

    /// The user's staged app message was sent or removed: tell the app when it is open.
    private func notifySending(_ message: Message, sent: Bool, user: UserID, conversation: ConversationID) async {
        guard let open = await instances.openInstance(of: user, in: conversation), open.app == message.appID else { return }
        let instance = open.instance
        _ = sent ? await instance.didStartSending(message) : await instance.didCancelSending(message)
    }
}

/// One user's conversation as their app instances see it.
struct ServerConversationHost: ConversationHost {
    let host: AppHost
    let user: UserID
    let conversation: ConversationID

    func stage(_ message: Message, replacing: MessageID?) async throws {
        try await host.stage(StagedRecord(item: .message(MessageRules.staging(message)), replacing: replacing), user: user, conversation: conversation)
    }

    /// Commits the message with the app's saved snapshot dropped in the same transaction: the
    /// state that produced it exists only once the hook returns, and is saved at the end of the
    /// call (`AppHost.save`), unless the hook failed and kept its state from before the message.
    /// A crash between the two, or such a failure, reopens the app afresh, never with a state
    /// older than its message.
    func send(_ message: Message, replacing: MessageID?) async throws -> Message {
        let key = message.appID.map { InstanceKey(user: user, scope: .conversation(conversation), app: $0) }
        let drop = key.map { [StateWrite.instance(nil, user: $0.user, scope: $0.scope, app: $0.app)] } ?? []
        let sent = try await host.messaging.sendAppMessage(message, replacing: replacing, from: user, in: conversation, alongside: drop)
        if let key {
            await host.instances.droppedBySend(for: key)
            await host.bus.publish(.instanceDropped(user: key.user, conversation: key.scope.conversation, app: key.app))
        }
        return sent.stored.content.appMessage ?? message
    }

    func insertText(_ text: String) async throws {
        await host.hub.send(.composeText(conversation: conversation, text: text), to: user)
    }

    func insertSticker(_ sticker: Sticker) async throws {
        try await host.stage(StagedRecord(item: .sticker(sticker), replacing: nil), user: user, conversation: conversation)
    }

    /// Kept as this person's upload (their quota, the image rules of `POST /api/blobs`).
    func upload(image: Data) async throws -> String {
        do {
            return try await host.uploads.store(ByteBuffer(bytes: image), owner: user).hash
        } catch let refusal as APIError where refusal.status.code < 500 {
            // Said to the app as its own errors are: the code when Messages has it, the sentence as it is.
            throw MessagesError(MessagesError.Code(name: refusal.code) ?? .invalidValue, refusal.message)
        }
    }
}
