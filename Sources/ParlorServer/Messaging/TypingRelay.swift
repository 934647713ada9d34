import Foundation
import ParlorInput
import ParlorKit
import ParlorStore
import Synchronization

/// Typing indicators: never stored, relayed to the conversation's other members (but those blocked
/// either way): a start when the
/// person is not shown typing (then at most once per `typingInterval` as a refresh), a stop only
/// after a start, and at most `maxNoticesPerInterval` notices per interval for one person in one
/// conversation, however often a client says so. Clients stop showing the dots on their own after two intervals
/// without a notice, so a tab that closes mid-word leaves nothing behind.
final class TypingRelay: Sendable {
    let membership: Membership
    let hub: Hub
    let bus: any ClusterBus
    let interval: Duration

    private struct Key: Hashable {
        let user: UserID
        let conversation: ConversationID
    }

    /// One person's typing in one conversation, as relayed.
    private struct Relayed {
        /// When the last start went out, and whether a stop has gone out since.
        var startedAt: ContinuousClock.Instant
        var isTyping: Bool
        /// The notices that went out in the interval that began at `windowStart`.
        var windowStart: ContinuousClock.Instant
        var inWindow: Int
    }

    /// The most notices (starts and stops) relayed for one person in one conversation per interval.
    static let maxNoticesPerInterval = 4

    private let relayed = Mutex<[Key: Relayed]>([:])

    init(membership: Membership, fanOut: FanOut, interval: Duration) {
        self.membership = membership
        hub = fanOut.hub
        bus = fanOut.bus
        self.interval = interval
    }

    /// `user` is typing in a conversation (or stopped): tells the other members, unless told
    /// within the interval already.
    /// - Throws: `notFound` for a conversation the user is not in.
    func typing(_ isTyping: Bool, user: UserID, in conversation: ConversationID) async throws {
        let record = try await membership.requireMember(user, of: conversation)
        guard shouldRelay(isTyping, key: Key(user: user, conversation: conversation), now: .now) else { return }
        await show(isTyping, user: user, in: record)
        await bus.publish(.typing(user: user, conversation: conversation, isTyping: isTyping))
    }

    /// Another node relayed a typing notice: shows it to the members connected here.
    func relayedElsewhere(_ isTyping: Bool, user: UserID, in conversation: ConversationID) async throws {
        guard let record = try await membership.conversation(conversation), record.members.contains(user) else { return }
        await show(isTyping, user: user, in: record)
    }

    /// Whether this notice goes out: a start when the person is not shown typing, or as a
    /// refresh once the interval has passed since the last start; a stop when they are shown
    /// typing; and never more than `maxNoticesPerInterval` in one interval, so typing on and off
    /// in a loop cannot flood anyone. Entries older than the interval are dropped as the table
    /// grows, so it holds only people typing lately.
    private func shouldRelay(_ isTyping: Bool, key: Key, now: ContinuousClock.Instant) -> Bool {
        relayed.withLock { relayed in
            if relayed.count > 1_000 { relayed = relayed.filter { now - $0.value.startedAt < interval } }
            var entry = relayed[key] ?? Relayed(startedAt: now - interval, isTyping: false, windowStart: now, inWindow: 0)
            if now - entry.windowStart >= interval { (entry.windowStart, entry.inWindow) = (now, 0) }
            let wanted = isTyping ? !entry.isTyping || now - entry.startedAt >= interval : entry.isTyping
            guard wanted, entry.inWindow < Self.maxNoticesPerInterval else { return false }
            entry.inWindow += 1
            entry.isTyping = isTyping
            if isTyping { entry.startedAt = now }
            relayed[key] = entry
            return true
        }
    }

    private func show(_ isTyping: Bool, user: UserID, in conversation: ConversationRecord) async {
        let frame = Wire.ServerFrame.typing(conversation: conversation.id, userID: user, isTyping: isTyping)
        await hub.send(.frame(frame.json()), to: await membership.audience(of: user, in: conversation))
    }
}
