import Foundation
import ParlorInput
import ParlorKit
import ParlorStore
import Synchronization

/// Reactions (Messages' tapbacks, and any other emoji) on any message, app bubbles and stickers
/// included: each person puts each emoji once, and takes it off again. A reaction is not a
/// message: it never touches an app's session, nor the unread count.
final class Reactions: Sendable {
    let store: any ReactionStore & ExpiryStore & MessageStore
    let membership: Membership
    let hub: Hub
    let bus: any ClusterBus
    /// The most different emoji one message carries (`maxReactionKinds`).
    let maxKinds: Int
    /// Reactions each person may put on or take off per minute.
    let perPerson: RateLimiter

    /// - Parameters:
    ///   - perMinute: how many reactions each person may put on or take off per minute.
    ///   - maxKinds: the most different emoji one message carries.
    init(store: any ReactionStore & ExpiryStore & MessageStore, membership: Membership, fanOut: FanOut, perMinute: Int, maxKinds: Int) {
        self.store = store
        self.membership = membership
        hub = fanOut.hub
        bus = fanOut.bus
        self.maxKinds = maxKinds
        perPerson = RateLimiter(limit: perMinute, window: .seconds(60))
    }

    /// A reaction is one emoji of at most this many bytes (a couple with two skin tones takes 35).
    static let maxEmojiBytes = 64

    /// Refuses what is not one emoji.
    /// - Throws: `invalidReaction`.
    static func check(_ emoji: String) throws {
        guard emoji.count == 1, emoji.utf8.count <= maxEmojiBytes, isEmoji(emoji) else {
            throw APIError(.badRequest, code: .invalidReaction, "A reaction is one emoji, such as ❤️ or 👍.")
        }
    }

    /// Whether `character` is drawn as an emoji: made of emoji scalars (with the joiner,
    /// variation selector, keycap and tag scalars that build them) starting with an emoji that is
    /// not a modifier, one of them drawn as an emoji by default or asked to be by U+FE0F. A plain
    /// digit, `#` or `©` is not, nor a run of skin tones on their own.
    private static func isEmoji(_ character: String) -> Bool {
        let scalars = character.unicodeScalars
        let builders: Set<UInt32> = [0x200D, 0xFE0F, 0x20E3]
        let isPart = { (scalar: Unicode.Scalar) in
            scalar.properties.isEmoji || builders.contains(scalar.value) || (0xE0020...0xE007F).contains(scalar.value)
        }
        guard let first = scalars.first, first.properties.isEmoji, !first.properties.isEmojiModifier else { return false }
        return scalars.allSatisfy(isPart) && scalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }
    }

    /// Puts `user`'s `emoji` on a message (`on`) or takes it off, and shows every member the
    /// message's reactions now.
    /// Doing what is already done (a second heart) changes nothing and tells nobody.
    /// - Throws: `notFound` for a conversation the user is not in, or a message they cannot see or
    ///   that was unsent; `invalidReaction`; `tooManyReactions` for a new emoji on a message that
    ///   has `maxReactionKinds` already; `reactingTooFast` past `reactionsPerMinute`.
    func react(_ emoji: String, on: Bool, to message: MessageID, by user: UserID, in conversation: ConversationID) async throws {
        let record = try await membership.requireMember(user, of: conversation)
        try Self.check(emoji)
        guard let stored = try await store.message(id: message, in: conversation), !stored.content.isEvent,
              try await !store.hiddenMessages(user: user, conversation: conversation).contains(stored)
        else { throw APIError.notFound }
        if let wait = await perPerson.take(user.description) {
            throw APIError.tooMany(
                .reactingTooFast, "You reacted more than \(perPerson.limit) times in the last minute; try again in \(wait) seconds.",
                retryAfter: wait)
        }
        let result: (reactions: [ReactionRecord], changed: Bool)
        do {
            result = try await store.setReaction(
                emoji, on: on, user: user, message: message, conversation: conversation, maxKinds: maxKinds)
        } catch let error as StoreError where error.code == .full {
            throw APIError(.conflict, code: .tooManyReactions, "\(error.message) Add one of those instead.")
        }
        guard result.changed else { return }
        await show(result.reactions, on: message, in: record)
        await bus.publish(.reactionsChanged(conversation: conversation, message: message))
    }

    /// Another node changed a message's reactions: shows them to the members connected here.
    func changedElsewhere(_ message: MessageID, in conversation: ConversationID) async throws {
        guard let record = try await membership.conversation(conversation) else { return }
        let reactions = try await store.reactions(to: [message], in: conversation)[message] ?? []
        await show(reactions, on: message, in: record)
    }

    private func show(_ reactions: [ReactionRecord], on message: MessageID, in conversation: ConversationRecord) async {
        let frame = Wire.ServerFrame.reactions(conversation: conversation.id, messageID: message, reactions: Wire.Reaction.grouped(reactions))
        await hub.send(.frame(frame.json()), to: conversation.members)
    }
}
