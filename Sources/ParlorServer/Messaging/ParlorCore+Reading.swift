import Foundation
import ParlorHost
import ParlorKit
import ParlorStore

extension ParlorCore {
    /// Marks messages read up to `sequence`; expiring messages from others start their countdown.
    func markRead(user: UserID, conversation: ConversationID, upTo sequence: Int64) async throws {
        _ = try await requireMember(user, of: conversation)
        let previous = try await store.markRead(user: user, conversation: conversation, upTo: sequence)
        // The user's other tabs show the new unread count.
        await sendConversation(conversation, to: [user])
        // Everything newly read, however far back the previous mark was.
        let now = Date()
        try await store.forEachPage(in: conversation, after: previous, through: sequence) { page in
            for message in page
            where MessageRules.startsExpiry(
                of: message.content.appMessage, sender: message.sender, reader: user, sequence: message.sequence, readUpTo: sequence)
            {
                try await store.recordExpiringRead(user: user, message: message.id, conversation: conversation, at: now)
            }
        }
    }

    /// Keeps an expiring message for `user`.
    func keep(_ message: MessageID, user: UserID, conversation: ConversationID) async throws {
        _ = try await requireMember(user, of: conversation)
        try await store.keep(user: user, message: message, conversation: conversation)
    }

    /// Hides expiring messages whose time is up and tells their readers' connections.
    func sweepExpired(now: Date = Date()) async throws {
        let delay = Double(configuration.expiryDelay.components.seconds)
        for (user, conversation, message) in try await store.expireReads(readBefore: now.addingTimeInterval(-delay)) {
            await hub.send(.expired(conversation: conversation, messageID: message), to: user)
        }
    }

    /// The messages `user` sees in a conversation (expired ones hidden).
    func visibleMessages(user: UserID, conversation: ConversationID, after: Int64?, limit: Int) async throws -> [StoredMessage] {
        _ = try await requireMember(user, of: conversation)
        let hidden = try await store.hiddenMessages(user: user, conversation: conversation)
        let messages = if let after {
            try await store.messages(in: conversation, after: after, limit: limit)
        } else {
            try await store.latestMessages(in: conversation, limit: limit)
        }
        return messages.filter { !hidden.contains($0.id) }
    }
}
