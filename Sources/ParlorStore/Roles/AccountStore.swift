import Foundation
import ParlorKit

/// Accounts: who can sign in, their names and profile pictures.
public protocol AccountStore: Sendable {
    /// - Throws: `StoreError(.conflict)` when the username is taken (case-insensitively).
    func createUser(username: String, displayName: String, passwordHash: String) async throws -> User
    /// The user and their password hash, by username (case-insensitive).
    func credentials(username: String) async throws -> (user: User, passwordHash: String)?
    func user(id: UserID) async throws -> User?
    func users(ids: [UserID]) async throws -> [User]
    func allUsers() async throws -> [User]
    /// Deletes the account with its tokens, memberships, compose fields, app instances, participant
    /// ids, containers, drawer and expiry records. Messages they sent stay.
    func deleteUser(id: UserID) async throws
    /// Sets (a blob's hash) or clears `user`'s profile picture. The blob is kept while it is one,
    /// and readable by whoever shares a conversation with them.
    func setAvatar(_ hash: String?, user: UserID) async throws
    /// Changes the name `user` shows to others (already checked by `NameRules`).
    func setDisplayName(_ name: String, user: UserID) async throws
    /// Sets or clears (nil) the line a person wrote about themselves.
    func setAbout(_ about: String?, user: UserID) async throws
}
