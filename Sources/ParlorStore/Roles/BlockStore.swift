import Foundation
import ParlorKit

/// Who has blocked whom. A block is one person's decision about another (`blocker` → `blocked`);
/// the blocked person is never told, and the rules that follow from it (`Membership.audience`, `Conversations`)
/// apply both ways.
public protocol BlockStore: Sendable {
    /// Blocks `blocked` for `blocker` (`at` is when: the list shows the latest first), or unblocks.
    /// Blocking someone already blocked, or unblocking someone who is not, changes nothing.
    /// - Throws: `StoreError.notFound` when either person does not exist; `StoreError.full` when
    ///   `blocker` would block more than `BlockList.maxBlocked` people.
    func setBlocked(_ isBlocked: Bool, _ blocked: UserID, by blocker: UserID, at: Date) async throws
    /// The blocks `user` made and the blocks made against `user`.
    func blocks(of user: UserID) async throws -> BlockList
}

/// The blocks one person is part of: whom they blocked (the latest first) and who blocked them.
public struct BlockList: Sendable, Hashable {
    /// The most people one person may block: enough for anyone, and a bound on the rows a script
    /// can make one account write.
    public static let maxBlocked = 1_000

    /// The people this person blocked, the latest first.
    public var blocked: [UserID]
    /// The people who blocked this person.
    public var blockedBy: Set<UserID>

    public init(blocked: [UserID] = [], blockedBy: Set<UserID> = []) {
        self.blocked = blocked
        self.blockedBy = blockedBy
    }

    /// Everyone this person and they do not reach: typing, read receipts and (by the blocked side)
    /// new conversations stop here in both directions.
    public var separated: Set<UserID> { blockedBy.union(blocked) }
}
