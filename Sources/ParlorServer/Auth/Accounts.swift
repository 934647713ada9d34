import Foundation
import HummingbirdBcrypt
import Logging
import NIOPosix
import ParlorKit
import ParlorStore

/// Sign-up, sign-in and sign-out: bcrypt password hashes (computed off the event loops), random
/// session tokens stored only as SHA-256 hashes, and a throttle on failed sign-ins.
public struct Accounts: Sendable {
    /// The roles of the store accounts use: accounts and tokens, and a person's settings (read
    /// receipts, a profile picture from their uploads).
    public typealias Store = AccountStore & TokenStore & ReceiptStore & BlobStore & BlockStore

    let store: any Store
    let configuration: ServerConfiguration
    let throttle: SignInThrottle
    /// Accounts created per client address (`signUpsPerHour`).
    let signUps: RateLimiter
    /// Sign-ins and sign-ups together per client address (`passwordAttemptsPerMinute`): each
    /// costs a password hash, whichever route it came by.
    let passwordAttempts: RateLimiter
    /// Display name changes per person (`nameChangesPerHour`): each is told to everyone they talk to.
    let nameChanges = RateLimiter(limit: Accounts.nameChangesPerHour, window: .seconds(3600))
    /// What an unknown username's password is checked against: a hash of the same cost as real
    /// ones, so an unknown name takes as long to refuse as a wrong password.
    private let standInHash: String
    let metrics: ServerMetrics

    /// The cookie that carries the browser's token.
    public static let cookieName = "parlor_session"

    /// - Parameter metrics: where sign-in failures and lockouts are counted (a server's; a command
    ///   that signs nobody in can leave the default).
    public init(store: any Store, configuration: ServerConfiguration, metrics: ServerMetrics = ServerMetrics()) {
        self.store = store
        self.metrics = metrics
        self.configuration = configuration
        self.throttle = SignInThrottle(policy: .init(firstLockout: configuration.signInLockout))
        signUps = RateLimiter(limit: configuration.signUpsPerHour, window: .seconds(3600))
        passwordAttempts = RateLimiter(limit: configuration.passwordAttemptsPerMinute, window: .seconds(60))
        standInHash = Bcrypt.hash("parlor-stand-in-password", cost: configuration.passwordCost)
    }

    /// A display name has at most this many characters (`NameRules`).
    public static let maxDisplayNameLength = 64
    /// How many times a person may change their display name in an hour.
    public static let nameChangesPerHour = 20
    /// What a person writes about themselves has at most this many characters (`NameRules`).
    public static let maxAboutLength = 140
    /// A username has this many letters, digits, dots, dashes or underscores.
    public static let usernameLength = 3...32
    /// bcrypt reads at most this many bytes of a password; longer ones are refused rather than cut.
    public static let maxPasswordBytes = 72
    /// A password has at least this many characters.
    public static let minPasswordLength = 8

    /// Creates an account.
    /// - Parameter address: the client's address for sign-ups over HTTP (at most `signUpsPerHour`
    ///   each); nil for an operator's command.
    /// - Throws: `APIError` with `invalidValue` for a bad username, name or password, `conflict` when
    ///   taken, `tooManySignUps` (429) past the address's hourly allowance, `tooManyAttempts` (429)
    ///   past its per-minute allowance of sign-ins and sign-ups.
    public func signUp(username: String, displayName: String, password: String, address: String? = nil) async throws -> User {
        let username = username.trimmingCharacters(in: .whitespaces)
        let displayName = try Self.validate(username: username, displayName: displayName, password: password)
        let network = address.map(RateLimiter.networkKey(of:))
        if let network { try await takePasswordAttempt(network) }
        if let network, let wait = await signUps.take(network) {
            throw APIError.tooMany(
                .tooManySignUps,
                "\(signUps.limit) accounts were created from here in the last hour, the most allowed; try again in \(wait / 60 + 1) minutes.",
                retryAfter: wait)
        }
        do {
            let hash = try await hashPassword(password)
            return try await store.createUser(username: username, displayName: displayName, passwordHash: hash)
        } catch {
            if let network { await signUps.refund(network) }  // only accounts made count
            if let error = error as? StoreError, error.code == .conflict {
                throw APIError(.conflict, code: .usernameTaken, "The username '\(username)' is taken, or looks too much like one that is; pick another.")
            }
            throw error
        }
    }

    /// Checks a username and password and issues a session token. The attempt is counted before
    /// the password is checked (`SignInThrottle`).
    /// - Parameter address: the client's address, as `ParlorRequestContext.clientAddress` finds it.
    /// - Throws: `unauthorized` for a wrong pair, `tooManyAttempts` (429) after repeated failures
    ///   from this address, or past its per-minute allowance of sign-ins and sign-ups.
    public func signIn(username: String, password: String, address: String) async throws -> (user: User, token: String) {
        let address = RateLimiter.networkKey(of: address)
        try await takePasswordAttempt(address)
        if let wait = await throttle.begin(account: username, address: address) {
            metrics.signInLockouts.increment()
            throw APIError.tooMany(.tooManyAttempts, "Too many failed sign-ins from here; try again in \(wait) seconds.", retryAfter: wait)
        }
        let user: User
        do {
            user = try await check(username: username, password: password)
        } catch let error as APIError where error.code == "wrongCredentials" {
            await throttle.finish(account: username, address: address, outcome: .failed)
            metrics.signInFailures.increment()
            throw error
        } catch {
            // The store could not answer: not a guess, so not counted.
            await throttle.finish(account: username, address: address, outcome: .abandoned)
            throw error
        }
        await throttle.finish(account: username, address: address, outcome: .succeeded)
        return (user, try await issueToken(for: user.id))
    }

    /// Checks that `password` is `user`'s current one, as a sign-in would (counted and throttled
    /// the same way, so a session in someone else's hands cannot guess the password faster here).
    /// - Throws: `wrongPassword` (403: the session stays signed in), `tooManyAttempts` (429).
    func confirmPassword(_ password: String, of user: User, address: String) async throws {
        let address = RateLimiter.networkKey(of: address)
        try await takePasswordAttempt(address)
        if let wait = await throttle.begin(account: user.username, address: address) {
            metrics.signInLockouts.increment()
            throw APIError.tooMany(.tooManyAttempts, "Too many wrong passwords from here; try again in \(wait) seconds.", retryAfter: wait)
        }
        do {
            _ = try await check(username: user.username, password: password)
        } catch let error as APIError where error.code == "wrongCredentials" {
            await throttle.finish(account: user.username, address: address, outcome: .failed)
            metrics.signInFailures.increment()
            throw APIError(.forbidden, code: .wrongPassword, "That is not your current password.")
        } catch {
            await throttle.finish(account: user.username, address: address, outcome: .abandoned)
            throw error
        }
        await throttle.finish(account: user.username, address: address, outcome: .succeeded)
    }

    /// Counts one sign-in or sign-up from `network` against the shared per-minute allowance.
    private func takePasswordAttempt(_ network: String) async throws {
        guard let wait = await passwordAttempts.take(network) else { return }
        throw APIError.tooMany(
            .tooManyAttempts,
            "\(passwordAttempts.limit) sign-ins and sign-ups were tried from here in the last minute, the most allowed; try again in \(wait) seconds.",
            retryAfter: wait)
    }

    /// The account whose password this is.
    /// - Throws: `wrongCredentials` otherwise, in as long for an unknown name as for a wrong password.
    private func check(username: String, password: String) async throws -> User {
        let credentials = try await store.credentials(username: username)
        // bcrypt would compare only the first 72 bytes: a longer password never matches.
        let fits = password.utf8.count <= Self.maxPasswordBytes
        let matches = try await verifyPassword(password, hash: credentials?.passwordHash) && fits
        guard let credentials, matches else {
            throw APIError(.unauthorized, code: .wrongCredentials, "That username and password do not match.")
        }
        return credentials.user
    }

    /// A new token for `user`, valid for the configured lifetime.
    public func issueToken(for user: UserID) async throws -> String {
        let token = Digest.randomToken()
        let lifetime = Double(configuration.sessionLifetime.components.seconds)
        try await store.createToken(hash: Self.hash(token: token), user: user, expiresAt: Date().addingTimeInterval(lifetime))
        return token
    }

    /// The user a token belongs to.
    public func user(token: String) async throws -> User? {
        try await store.user(tokenHash: Self.hash(token: token), now: Date())
    }

    static func hash(token: String) -> String {
        Digest.sha256Hex(token)
    }

    func hashPassword(_ password: String) async throws -> String {
        let cost = configuration.passwordCost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Verifies against `hash`, or against the stand-in hash when the user does not exist, so
    /// both cases take as long.
    func verifyPassword(_ password: String, hash: String?) async throws -> Bool {
        let target = hash ?? standInHash
        let result = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: target) }
        return hash != nil && result
    }

    /// The rules for new accounts.
    /// - Returns: the display name as stored.
    static func validate(username: String, displayName: String, password: String) throws -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard usernameLength.contains(username.count), username.unicodeScalars.allSatisfy(allowed.contains) else {
            throw APIError.invalid(
                "A username has \(usernameLength.lowerBound) to \(usernameLength.upperBound) letters, digits, dots, dashes or underscores.")
        }
        let displayName = try NameRules.check(displayName, what: "A display name", maxLength: maxDisplayNameLength)
        try validate(password: password)
        return displayName
    }

    /// The rules for a password: at least `minPasswordLength` characters, at most
    /// `maxPasswordBytes` bytes, not one of the most common.
    /// - Throws: `invalidValue` with the rule broken.
    static func validate(password: String) throws {
        guard password.count >= minPasswordLength else {
            throw APIError.invalid("A password has at least \(minPasswordLength) characters.")
        }
        guard password.utf8.count <= maxPasswordBytes else {
            throw APIError.invalid("A password is at most \(maxPasswordBytes) bytes (about \(maxPasswordBytes) letters, fewer with accents or emoji).")
        }
        guard !commonPasswords.contains(password.lowercased()) else {
            throw APIError.invalid("That password is one of the 10,000 most common, the first ones an attacker tries; pick another.")
        }
    }

    /// The 10,000 most common passwords long enough to pass the other rules, lowercase (NIST SP
    /// 800-63B: refuse passwords from lists of commonly used ones). Read once, from the bundle.
    static let commonPasswords: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
    }()
}
