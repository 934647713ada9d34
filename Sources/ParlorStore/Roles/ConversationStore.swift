import Foundation
import ParlorKit

/// Conversations: their members, admins, titles and each member's mute.
public protocol ConversationStore: Sendable {
    /// `members[0]` is the creator: a group's first admin.
    /// - Throws: `StoreError(.notFound)` when a member does not exist.
    func createConversation(title: String?, isGroup: Bool, members: [UserID]) async throws -> ConversationRecord
    func conversation(id: ConversationID) async throws -> ConversationRecord?
    /// The user's conversations, most recently active first.
    func conversations(of user: UserID) async throws -> [ConversationSummary]
    /// One of the user's conversations as their list shows it; nil when they are not in it.
    func conversationSummary(_ conversation: ConversationID, for user: UserID) async throws -> ConversationSummary?
    func addMember(_ user: UserID, to conversation: ConversationID) async throws
    /// Removes a member. When they were a group's last admin, the longest-standing member left
    /// becomes admin in the same transaction: a group with members always has one. When they were
    /// the last member, the group's photo goes in the same transaction.
    func removeMember(_ user: UserID, from conversation: ConversationID) async throws
    /// Makes a member a group admin, or not, as `actor` asks: in one transaction that checks
    /// `actor` is an admin and that the group keeps one. Nothing happens for a non-member.
    func setAdmin(_ user: UserID, _ isAdmin: Bool, in conversation: ConversationID, by actor: UserID) async throws -> AdminChange
    func setTitle(_ title: String?, of conversation: ConversationID) async throws
    /// Sets a group's photo to an uploaded image's hash, or removes it (nil).
    func setPhoto(_ hash: String?, of conversation: ConversationID) async throws
    /// Changes where `conversation` sits in `user`'s own list (`ListPlace`); `at` is when, for a pin.
    /// - Throws: `StoreError.notFound` when `user` is not a member; `StoreError.full` when pinning
    ///   one more than `ListPlace.maxPinned`.
    func changeList(_ change: ListChange, user: UserID, conversation: ConversationID, at: Date) async throws
    /// The members who muted the conversation.
    func mutedMembers(of conversation: ConversationID) async throws -> Set<UserID>
}
