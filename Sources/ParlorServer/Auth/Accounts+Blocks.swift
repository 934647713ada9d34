import Foundation
import ParlorInput
import ParlorKit
import ParlorStore

extension Accounts {
    /// The people `user` blocked, the latest first, to list in their settings.
    func blockedPeople(of user: UserID) async throws -> [Wire.User] {
        let blocked = try await store.blocks(of: user).blocked
        let people = Dictionary(try await store.users(ids: blocked).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return blocked.compactMap { id in people[id].map { Wire.User($0) } }
    }

    /// Blocks `other` for `user`, or unblocks them. The blocked person is not told: to them it is as
    /// if `user` had no account when they try to start a conversation or add them
    /// (`Conversations`), and neither sees the other's typing or read receipts (`Membership`).
    /// - Throws: `invalidValue` for `user` themselves; `notFound` for nobody with that id;
    ///   `tooManyBlocked` (409) past `BlockList.maxBlocked`.
    func setBlocked(_ isBlocked: Bool, _ other: UserID, by user: UserID) async throws {
        guard other != user else { throw APIError.invalid("You cannot block yourself.") }
        do {
            try await store.setBlocked(isBlocked, other, by: user, at: Date())
        } catch let error as StoreError where error.code == .notFound {
            throw APIError.notFound
        } catch let error as StoreError where error.code == .full {
            throw APIError(
                .conflict, code: .tooManyBlocked,
                "You have blocked \(BlockList.maxBlocked) people, the most Parlor keeps; unblock someone first.")
        }
    }
}
