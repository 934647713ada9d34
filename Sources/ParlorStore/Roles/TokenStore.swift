import Foundation
import ParlorKit

/// Sign-in tokens, stored hashed: what a sign-in is until it ends.
public protocol TokenStore: Sendable {
    func createToken(hash: String, user: UserID, expiresAt: Date) async throws
    /// The user a token belongs to, if it exists and has not expired at `now`.
    func user(tokenHash: String, now: Date) async throws -> User?
    func deleteToken(hash: String) async throws
    /// Deletes every token of `user` but `keeping` (nil: every one).
    /// - Returns: the hashes deleted, so their connections can be closed.
    func deleteTokens(of user: UserID, keeping: String?) async throws -> [String]
    /// Sets `user`'s password hash and deletes every token of theirs but `keeping`, in one
    /// transaction: no session signed in with the old password outlives the change.
    /// - Returns: the hashes deleted.
    /// - Throws: `StoreError(.notFound)` when there is no such user.
    func changePassword(hash: String, of user: UserID, keeping: String?) async throws -> [String]
    /// Of `hashes`, those that still sign someone in at `now` (not deleted, not expired).
    func liveTokens(among hashes: [String], now: Date) async throws -> Set<String>
}
