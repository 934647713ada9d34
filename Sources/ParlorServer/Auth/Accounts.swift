import Crypto
import Foundation
import HummingbirdBcrypt
import Logging
import NIOPosix
import ParlorStore

/// Sign-up, sign-in and sign-out: bcrypt password hashes (computed off the event loops), random
/// session tokens stored only as SHA-256 hashes, and a throttle on failed sign-ins.
public struct Accounts: Sendable {
    let store: any ParlorStore
    let configuration: ServerConfiguration
    let throttle: SignInThrottle

    /// The cookie that carries the browser's token.
    public static let cookieName = "parlor_session"

    public init(store: any ParlorStore, configuration: ServerConfiguration) {
        self.store = store
        self.configuration = configuration
        self.throttle = SignInThrottle()
    }

    /// Creates an account.
    /// - Throws: `APIError` with `invalidValue` for a bad username, name or password, `conflict` when taken.
    public func signUp(username: String, displayName: String, password: String) async throws -> User {
        let username = username.trimmingCharacters(in: .whitespaces)
        let displayName = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.validate(username: username, displayName: displayName, password: password)
        let hash = try await hashPassword(password)
        do {
            return try await store.createUser(username: username, displayName: displayName, passwordHash: hash)
        } catch let error as StoreError where error.code == .conflict {
            throw APIError(.conflict, code: "usernameTaken", "The username '\(username)' is taken; pick another.")
        }
    }

    /// Checks a username and password and issues a session token.
    /// - Throws: `unauthorized` for a wrong pair, `tooManyAttempts` (429) after repeated failures.
    public func signIn(username: String, password: String) async throws -> (user: User, token: String) {
        let key = username.lowercased()
        if let wait = await throttle.lockout(for: key) {
            throw APIError(
                .tooManyRequests, code: "tooManyAttempts",
                "Too many failed sign-ins for this account; try again in \(wait) seconds.", details: ["retryAfter": "\(wait)"])
        }
        let credentials = try await store.credentials(username: username)
        let matches = try await verifyPassword(password, hash: credentials?.passwordHash)
        guard let credentials, matches else {
            await throttle.recordFailure(for: key)
            throw APIError(.unauthorized, code: "wrongCredentials", "That username and password do not match.")
        }
        await throttle.recordSuccess(for: key)
        return (credentials.user, try await issueToken(for: credentials.user.id))
    }

    /// A new token for `user`, valid for the configured lifetime.
    public func issueToken(for user: UserID) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let lifetime = Double(configuration.sessionLifetime.components.seconds)
        try await store.createToken(hash: Self.hash(token: token), user: user, expiresAt: Date().addingTimeInterval(lifetime))
        return token
    }

    /// The user a token belongs to.
    public func user(token: String) async throws -> User? {
        try await store.user(tokenHash: Self.hash(token: token), now: Date())
    }

    public func signOut(tokenHash: String) async throws {
        try await store.deleteToken(hash: tokenHash)
    }

    static func hash(token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    func hashPassword(_ password: String) async throws -> String {
        let cost = configuration.passwordCost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Verifies against `hash`, or against a dummy hash when the user does not exist, so both cases take as long.
    func verifyPassword(_ password: String, hash: String?) async throws -> Bool {
        let target = hash ?? Self.dummyHash
        let result = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: target) }
        return hash != nil && result
    }

    private static let dummyHash = Bcrypt.hash("parlor-dummy-password", cost: 4)

    /// The rules for new accounts.
    static func validate(username: String, displayName: String, password: String) throws {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard (3...32).contains(username.count), username.unicodeScalars.allSatisfy(allowed.contains) else {
            throw APIError.invalid("A username has 3 to 32 letters, digits, dots, dashes or underscores.")
        }
        guard (1...64).contains(displayName.count) else {
            throw APIError.invalid("A display name has 1 to 64 characters.")
        }
        guard (8...200).contains(password.count) else {
            throw APIError.invalid("A password has at least 8 characters.")
        }
    }
}

/// Slows down guessing: after 5 failed sign-ins for an account, refuses further attempts for a
/// while that doubles with each new failure (up to 15 minutes). A success resets it.
actor SignInThrottle {
    private struct Record {
        var failures = 0
        var lockedUntil: ContinuousClock.Instant?
    }

    private var records: [String: Record] = [:]
    private let clock = ContinuousClock()
    static let freeAttempts = 5

    /// Seconds to wait, when locked out.
    func lockout(for key: String) -> Int? {
        guard let until = records[key]?.lockedUntil, until > clock.now else { return nil }
        return max(1, Int((until - clock.now).components.seconds))
    }

    func recordFailure(for key: String) {
        var record = records[key] ?? Record()
        record.failures += 1
        if record.failures >= Self.freeAttempts {
            let seconds = min(900, 1 << min(10, record.failures - Self.freeAttempts))
            record.lockedUntil = clock.now + .seconds(seconds)
        }
        records[key] = record
        if records.count > 100_000 { records.removeAll() }  // bounded memory under a username spray
    }

    func recordSuccess(for key: String) { records[key] = nil }
}
