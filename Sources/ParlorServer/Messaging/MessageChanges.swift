import Foundation
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorStore

/// Changing what was sent, as Messages allows: the sender edits a text message (within
/// `editWindow`, at most `maxEdits` times; others see "Edited" and may read the earlier texts) and
/// unsends any of their messages (within `unsendWindow`; everyone sees that it was unsent, and
/// its content, versions and reactions are gone). App messages are not edited: their session
/// rules stand, and a message in a session is not unsent either, since the session goes on from
/// it. Also reads what a message had before and who replied to it.
final class MessageChanges: Sendable {
    /// The roles of the store changes use: the message, its edits, unsends and replies, what
    /// expired for the reader, and its conversation's newest message (for the list's preview).
    typealias Store = MessageStore & MessageChangeStore & ExpiryStore & ConversationStore

    /// How long after sending a message can be edited and unsent, and how many times edited.
    struct Limits: Sendable {
        let editWindow: Duration
        let maxEdits: Int
        let unsendWindow: Duration

        /// The limits `configuration` sets.
        init(_ configuration: ServerConfiguration) {
            editWindow = configuration.editWindow
            maxEdits = configuration.maxEdits
            unsendWindow = configuration.unsendWindow
        }
    }

    let store: any Store
    let messaging: Messaging
    let renderer: Renderer
    let hub: Hub
    let bus: any ClusterBus
    let limits: Limits

    init(store: any Store, messaging: Messaging, renderer: Renderer, fanOut: FanOut, limits: Limits) {
        self.store = store
        self.messaging = messaging
        self.renderer = renderer
        hub = fanOut.hub
        bus = fanOut.bus
        self.limits = limits
    }

    /// The most replies `replies(to:)` lists.
    static let maxReplies = 500

    /// Replaces the text of `user`'s text message, and shows every member the new text.
    /// - Throws: `notFound`; `notYourMessage`; `messageUnsent`; `notEditable` (a sticker or an app's
    ///   message); the text rules (`invalidValue`, `textExceedsMaxSize`); `editWindowClosed`;
    ///   `tooManyEdits`; `conflict` when it changed meanwhile.
    func edit(_ id: MessageID, text: String, by user: UserID, in conversation: ConversationID) async throws {
        let (message, record) = try await ownMessage(id, of: user, in: conversation, doing: "edit")
        guard case .text(let old, _, _) = message.content else {
            throw APIError(.badRequest, code: .notEditable, "Only text messages can be edited; an app's messages follow its own rules.")
        }
        try MessageRules.checkText(text)
        // Someone the message already mentioned stays mentionable in its edits, even after leaving.
        try Messaging.checkMentions(in: text, members: record.members + MentionTokens.users(in: old))
        guard text != old else { throw APIError.invalid("The text is the same as before.") }
        let cutoff = Date().addingTimeInterval(-Self.seconds(limits.editWindow))
        guard message.sentAt > cutoff else {
            throw APIError(.conflict, code: .editWindowClosed, "A message can be edited for \(Self.minutes(limits.editWindow)) after it is sent.")
        }
        guard try await store.versions(of: id, in: conversation).count < limits.maxEdits else {
            throw APIError(.conflict, code: .tooManyEdits, "A message can be edited \(limits.maxEdits) times.")
        }
        // A mention the edit adds alerts within the sender's allowance, as a new message's does.
        let added = Set(MentionTokens.users(in: text)).subtracting(MentionTokens.users(in: old))
        let mentions = await messaging.chargeMentions(of: added, from: user)
        let edited: StoredMessage?
        do {
            edited = try await store.editMessage(
                id, in: conversation, sender: user, text: text, quieting: mentions.quiet, sentAfter: cutoff, maxEdits: limits.maxEdits)
        } catch {
            await messaging.refund(mentions)
            throw error
        }
        guard let edited else {
            await messaging.refund(mentions)
            throw APIError(.conflict, code: .conflict, "The message changed meanwhile; try again.")
        }
        await changed(edited)
    }

    /// Erases one of `user`'s messages for everyone, and shows every member that it was unsent.
    /// - Throws: `notFound`; `notYourMessage`; `messageUnsent`; `notUnsendable` (a message in an
    ///   app's session); `unsendWindowClosed`; `conflict` when it changed meanwhile.
    func unsend(_ id: MessageID, by user: UserID, in conversation: ConversationID) async throws {
        let (message, _) = try await ownMessage(id, of: user, in: conversation, doing: "unsend")
        if message.content.isEvent {
            throw APIError(.badRequest, code: .notUnsendable, "A line about a change to the conversation stays: it says what happened.")
        }
        if message.content.appMessage?.session != nil {
            throw APIError(
                .badRequest, code: .notUnsendable, "A message in an app's session (a game, a poll) cannot be unsent: the session goes on from it.")
        }
        let cutoff = Date().addingTimeInterval(-Self.seconds(limits.unsendWindow))
        guard message.sentAt > cutoff else {
            throw APIError(.conflict, code: .unsendWindowClosed, "A message can be unsent for \(Self.minutes(limits.unsendWindow)) after it is sent.")
        }
        guard let unsent = try await store.unsendMessage(id, in: conversation, sender: user, sentAfter: cutoff) else {
            throw APIError(.conflict, code: .conflict, "The message changed meanwhile; try again.")
        }
        await changed(unsent)
    }

    /// The texts a message had before its edits, oldest first.
    /// - Throws: `notFound` for a message `user` cannot see.
    func versions(of id: MessageID, for user: UserID, in conversation: ConversationID) async throws -> [MessageVersion] {
        try await messaging.membership.requireMember(user, of: conversation)
        guard try await messaging.visibleMessage(id, user: user, conversation: conversation) != nil else { throw APIError.notFound }
        return try await store.versions(of: id, in: conversation)
    }

    /// The replies to a message that `user` sees, oldest first.
    /// - Throws: `notFound` for a message `user` cannot see.
    func replies(to id: MessageID, for user: UserID, in conversation: ConversationID) async throws -> [StoredMessage] {
        try await messaging.membership.requireMember(user, of: conversation)
        // One read of what is hidden for the user serves the message and its replies.
        let hidden = try await store.hiddenMessages(user: user, conversation: conversation)
        guard let message = try await store.message(id: id, in: conversation), !hidden.contains(message) else { throw APIError.notFound }
        return try await store.replies(to: id, in: conversation, limit: Self.maxReplies).filter { !hidden.contains($0) }
    }

    /// Another node changed a message: shows it to the members connected here.
    func changedElsewhere(_ id: MessageID, in conversation: ConversationID) async throws {
        guard let message = try await store.message(id: id, in: conversation) else { return }
        await show(message)
    }

    /// `user`'s own message, still there, and the conversation it is in.
    private func ownMessage(
        _ id: MessageID, of user: UserID, in conversation: ConversationID, doing verb: String
    ) async throws -> (StoredMessage, ConversationRecord) {
        let record = try await messaging.membership.requireMember(user, of: conversation)
        guard let message = try await messaging.visibleMessage(id, user: user, conversation: conversation) else { throw APIError.notFound }
        guard message.sender == user else {
            throw APIError(.forbidden, code: .notYourMessage, "Only its sender can \(verb) a message.")
        }
        guard message.unsentAt == nil else { throw APIError(.conflict, code: .messageUnsent, "That message was unsent.") }
        return (message, record)
    }

    private func changed(_ message: StoredMessage) async {
        await show(message)
        await bus.publish(.messageChanged(conversation: message.conversationID, message: message.id))
        // The conversation list's preview shows the newest message: members' lists follow.
        if let record = try? await store.conversation(id: message.conversationID), record.lastSequence == message.sequence {
            await messaging.notices.announce(record.id, to: record.members)
        }
    }

    /// Sends every member's connections here the message as it is now. A changed message reads
    /// the same for everyone (an edited text, or nothing once unsent), so it is rendered once,
    /// with its reactions, as history renders it.
    private func show(_ message: StoredMessage) async {
        guard let conversation = try? await messaging.membership.conversation(message.conversationID),
              let wire = try? await renderer.render([message], for: message.sender).first
        else { return }
        await hub.send(.frame(Wire.ServerFrame.messageChanged(wire).json()), to: conversation.members)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// "15 minutes", "2 minutes", "1 minute".
    private static func minutes(_ duration: Duration) -> String {
        let minutes = max(1, Int((seconds(duration) / 60).rounded()))
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}
