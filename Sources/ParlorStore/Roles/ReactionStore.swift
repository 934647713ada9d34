import Foundation
import ParlorKit

/// Emoji on messages.
public protocol ReactionStore: Sendable {
    /// Puts `user`'s `emoji` on a message (`on`), or takes it off; doing what is already done
    /// changes nothing. A new emoji on a message that already has `maxKinds` different ones is
    /// refused (`.full`), so members cannot grow a message's reactions without bound.
    /// - Returns: the message's reactions now, oldest first, and whether this call changed them.
    /// - Throws: `.notFound` when the message is not in the conversation, or was unsent; `.full` as said.
    func setReaction(
        _ emoji: String, on: Bool, user: UserID, message: MessageID, conversation: ConversationID, maxKinds: Int
    ) async throws -> (reactions: [ReactionRecord], changed: Bool)
    /// The reactions on these messages of a conversation, oldest first for each; messages with
    /// none are left out.
    func reactions(to messages: [MessageID], in conversation: ConversationID) async throws -> [MessageID: [ReactionRecord]]
}
