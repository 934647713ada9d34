import Foundation
import Logging
import NIOWebSocket
import ParlorKit
import ParlorStore

/// Where a sign-in ends. Signing out, signing out everywhere, changing the password and an
/// account that no longer exists all come here, and each closes the WebSockets opened with the
/// tokens that ended, on this node at once and on the others through the cluster bus, so a
/// session that ended cannot go on reading or sending over a socket it opened before.
///
/// `sweep()` is the backstop the server runs every `sessionSweepInterval`: a connection whose
/// token no longer signs anyone in (it expired, `parlor user remove` deleted the account from
/// another process, or this node missed another node's event) is closed there.
final class Sessions: Sendable {
    let accounts: Accounts
    let store: any TokenStore
    let hub: Hub
    let bus: any ClusterBus
    let logger: Logger

    /// The close code of a socket whose sign-in ended (a private-use code, docs/PROTOCOL.md §7):
    /// the browser goes to its sign-in page instead of reconnecting.
    static let closeCode = WebSocketErrorCode.unknown(4401)
    static let closeReason = "You were signed out; sign in again."
    /// Token hashes named in one cluster event: a NOTIFY payload stays under PostgreSQL's limit.
    static let hashesPerEvent = 50

    init(accounts: Accounts, store: any TokenStore, hub: Hub, bus: any ClusterBus, logger: Logger) {
        self.accounts = accounts
        self.store = store
        self.hub = hub
        self.bus = bus
        self.logger = logger
    }

    /// Ends the sign-in of one token (`POST /api/auth/signout`).
    func signOut(user: UserID, tokenHash: String) async throws {
        try await store.deleteToken(hash: tokenHash)
        await ended([tokenHash], of: user)
    }

    /// Ends every sign-in of `user`, on every device, this one included.
    /// - Returns: how many sign-ins ended.
    @discardableResult
    func signOutEverywhere(user: UserID) async throws -> Int {
        let hashes = try await store.deleteTokens(of: user, keeping: nil)
        await ended(hashes, of: user)
        return hashes.count
    }

    /// Changes `user`'s password once they gave the current one, and ends every other sign-in of
    /// theirs: a device signed in by someone who knew the old password is out.
    /// - Parameters:
    ///   - keeping: the hash of the token the change was made with, which stays signed in.
    ///   - address: the client's address, for the sign-in throttle (the current password is
    ///     guessed no faster here than at sign-in).
    /// - Returns: how many other sign-ins ended.
    /// - Throws: `wrongPassword` (403) for a current password that does not match, `tooManyAttempts`
    ///   (429), `invalidValue` for a new password the rules refuse.
    func changePassword(of user: User, current: String, new: String, keeping: String, address: String) async throws -> Int {
        try await accounts.confirmPassword(current, of: user, address: address)
        try Accounts.validate(password: new)
        guard new != current else {
            throw APIError.invalid("That is your current password; choose a new one.")
        }
        let hash = try await accounts.hashPassword(new)
        let hashes = try await store.changePassword(hash: hash, of: user.id, keeping: keeping)
        await ended(hashes, of: user.id)
        logger.info("A password was changed", metadata: ["endedSessions": "\(hashes.count)"])
        return hashes.count
    }

    /// Closes the connections of these ended tokens here and on the other nodes.
    private func ended(_ hashes: [String], of user: UserID) async {
        guard !hashes.isEmpty else { return }
        await closeHere(hashes, of: user)
        for start in stride(from: 0, to: hashes.count, by: Self.hashesPerEvent) {
            let chunk = Array(hashes[start..<min(start + Self.hashesPerEvent, hashes.count)])
            await bus.publish(.sessionsEnded(user: user, tokenHashes: chunk))
        }
    }

    /// Closes this node's connections of `user` opened with one of `hashes` (another node's
    /// `sessionsEnded`, or this node's own).
    func closeHere(_ hashes: [String], of user: UserID) async {
        await hub.close(user: user, signedInWith: Set(hashes), code: Self.closeCode, reason: Self.closeReason)
    }

    /// Closes every connection here whose token no longer signs anyone in.
    func sweep(now: Date = Date()) async throws {
        let open = await hub.tokenHashes
        guard !open.isEmpty else { return }
        let ended = open.subtracting(try await store.liveTokens(among: Array(open), now: now))
        guard !ended.isEmpty else { return }
        await hub.close(signedInWith: ended, code: Self.closeCode, reason: Self.closeReason)
    }
}
