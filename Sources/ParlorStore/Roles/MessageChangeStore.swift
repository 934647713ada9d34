import Foundation
import ParlorKit

/// What happens to a message after it is sent: edits (with their versions), unsends, replies.
public protocol MessageChangeStore: Sendable {
    /// Replaces a text message's text, keeping the old one as a version, when `sender` sent it
    /// after `sentAfter`, it is not unsent, and it has fewer than `maxEdits` versions.
    /// The people the new text mentions alert as before (`StoredContent.edited(to:quieting:)`);
    /// `quieting` names those it newly mentions but does not alert.
    /// - Returns: the message as it is now; nil when any of that no longer holds (the caller
    ///   checked first, to say which: this is the race-free commit).
    func editMessage(
        _ id: MessageID, in conversation: ConversationID, sender: UserID, text: String, quieting: [UserID], sentAfter: Date, maxEdits: Int
    ) async throws -> StoredMessage?
    /// Erases a message's content, versions and reactions, when `sender` sent it after `sentAfter`
    /// and it is not unsent yet.
    /// - Returns: the message as it is now; nil when that no longer holds.
    func unsendMessage(_ id: MessageID, in conversation: ConversationID, sender: UserID, sentAfter: Date) async throws -> StoredMessage?
    /// The texts a message had before its edits, oldest first.
    func versions(of message: MessageID, in conversation: ConversationID) async throws -> [MessageVersion]
    /// The messages replying to `message`, oldest first, at most `limit`.
    func replies(to message: MessageID, in conversation: ConversationID, limit: Int) async throws -> [StoredMessage]
}

extension MessageChangeStore {
    /// `editMessage` where every mention the new text adds alerts.
    public func editMessage(
        _ id: MessageID, in conversation: ConversationID, sender: UserID, text: String, sentAfter: Date, maxEdits: Int
    ) async throws -> StoredMessage? {
        try await editMessage(id, in: conversation, sender: sender, text: text, quieting: [], sentAfter: sentAfter, maxEdits: maxEdits)
    }
}
