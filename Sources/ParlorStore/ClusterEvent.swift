import Foundation
import ParlorKit

/// A committed message, named rather than carried: nodes read the message from the store.
public struct MessagePointer: Sendable, Hashable, Codable {
    public var conversation: ConversationID
    public var sequence: Int64

    public init(conversation: ConversationID, sequence: Int64) {
        self.conversation = conversation
        self.sequence = sequence
    }
}

/// What server nodes sharing one store tell each other. Events carry pointers, never bodies.
public enum ClusterEvent: Sendable, Hashable, Codable {
    /// Messages were committed (one event per group commit, from the store itself).
    case messagesCommitted([MessagePointer])
    /// A user's compose field changed in a conversation.
    case stagedChanged(user: UserID, conversation: ConversationID)
    /// A user's app instance changed (its snapshot in the store is newer).
    case instanceChanged(user: UserID, conversation: ConversationID?, app: AppID)
    /// A message a user's app instance sent dropped its saved snapshot; its new state follows as
    /// `instanceChanged` at the end of the call that sent (unless a hook failed after sending).
    /// Nodes forget their copy (without showing the emptied one: a crash before the save reopens
    /// the app afresh there too).
    case instanceDropped(user: UserID, conversation: ConversationID?, app: AppID)
    /// A conversation's title or members changed.
    case conversationChanged(ConversationID)
    /// Where a conversation sits in one user's own list changed (muted, pinned, archived, marked
    /// unread): only that user's connections hear of it.
    case listChanged(user: UserID, conversation: ConversationID)
    /// A message was edited or unsent (the store has it as it is now).
    case messageChanged(conversation: ConversationID, message: MessageID)
    /// A message's reactions changed (the store has them).
    case reactionsChanged(conversation: ConversationID, message: MessageID)
    /// A member who shares read receipts read further (the store has their mark): their receipt
    /// shows, and their own tabs show the conversation read. (Without receipts: `listChanged`.)
    case readMoved(user: UserID, conversation: ConversationID)
    /// An account's profile changed (its picture): nodes read it again when next needed.
    case userChanged(UserID)
    /// Sign-ins of a user ended (signed out, everywhere, or by a password change): every node
    /// closes the connections opened with these tokens (their SHA-256 hashes, never the tokens).
    case sessionsEnded(user: UserID, tokenHashes: [String])
    /// Someone started or stopped typing: never stored, only relayed.
    case typing(user: UserID, conversation: ConversationID, isTyping: Bool)
    /// This node's listener reconnected: it may have missed events and must catch up from the store.
    case listenerRestarted
}

/// An event and the node it came from.
public struct ClusterEnvelope: Sendable, Hashable, Codable {
    public var origin: String
    public var event: ClusterEvent

    public init(origin: String, event: ClusterEvent) {
        self.origin = origin
        self.event = event
    }
}
