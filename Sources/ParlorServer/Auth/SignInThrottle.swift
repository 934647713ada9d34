import Foundation

/// Slows down password guessing without letting a stranger lock the owner out.
///
/// Every attempt takes a slot *before* its password is checked, so a burst sent at once cannot
/// pass the allowance. Attempts are counted per (account, client address): after `freeAttempts`
/// failures from one address, that address waits for the account (`firstLockout`), a wait that doubles with
/// each new failure up to 15 minutes; the owner signing in from elsewhere is not affected. Each address
/// also has a budget of failures across all accounts (`addressBudget` per `window`), so spraying
/// names from one address stops too. A success resets the (account, address) record.
///
/// Memory is bounded without ever forgetting everything at once: records expire after `window`
/// when not locked, and past `capacity` the least recently used go first.
actor SignInThrottle {
    struct Policy: Sendable {
        var freeAttempts = 5
        var addressBudget = 50
        var window: Duration = .seconds(15 * 60)
        var capacity = 100_000
        /// The wait after `freeAttempts` failures; it doubles with each further one.
        var firstLockout: Duration = .seconds(30)
        var maxLockout: Duration = .seconds(15 * 60)
    }

    private struct Record {
        var failures = 0
        var inFlight = 0
        var lockedUntil: ContinuousClock.Instant?
        var lastSeen: ContinuousClock.Instant
        var lastFailure: ContinuousClock.Instant
    }

    private struct AddressRecord {
        /// When each recent failure happened, oldest first.
        var failures: [ContinuousClock.Instant] = []
        var inFlight = 0
        var lastSeen: ContinuousClock.Instant
    }

    let policy: Policy
    private let clock = ContinuousClock()
    private var accounts: [String: Record] = [:]
    private var addresses: [String: AddressRecord] = [:]

    init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// How an attempt ended.
    enum Outcome: Sendable {
        case succeeded
        /// A wrong password (or an unknown name): counts towards a lockout.
        case failed
        /// Neither: the store could not answer. Frees the slot without counting.
        case abandoned
    }

    /// Takes a slot for one attempt at `account` from `address`.
    /// - Returns: nil when the attempt may go ahead (then call `finish`), else the seconds to wait.
    func begin(account: String, address: String) -> Int? {
        let now = clock.now
        let key = Self.key(account, address)
        var record = accounts[key] ?? Record(lastSeen: now, lastFailure: now)
        var perAddress = addresses[address] ?? AddressRecord(lastSeen: now)
        perAddress.failures.removeAll { now - $0 > policy.window }
        record.lastSeen = now
        perAddress.lastSeen = now
        defer {
            accounts[key] = record
            addresses[address] = perAddress
            evictIfNeeded(now: now)
        }
        if let until = record.lockedUntil, until > now { return Self.seconds(until - now) }
        // Failures a whole window old are forgotten.
        if record.inFlight == 0, record.failures > 0, now - record.lastFailure > policy.window { record.failures = 0 }
        // Past the free attempts, once a lockout has ended, one attempt at a time; a failure locks
        // again for twice as long.
        let allowance = record.failures >= policy.freeAttempts ? 1 : policy.freeAttempts - record.failures
        guard record.inFlight < allowance else { return Self.seconds(.seconds(1)) }
        guard perAddress.failures.count + perAddress.inFlight < policy.addressBudget else {
            let oldest = perAddress.failures.first ?? now
            return Self.seconds(policy.window - (now - oldest))
        }
        record.inFlight += 1
        perAddress.inFlight += 1
        return nil
    }

    /// Ends an attempt `begin` allowed.
    func finish(account: String, address: String, outcome: Outcome) {
        let now = clock.now
        let key = Self.key(account, address)
        if var perAddress = addresses[address] {
            perAddress.inFlight = max(0, perAddress.inFlight - 1)
            if outcome == .failed { perAddress.failures.append(now) }
            addresses[address] = perAddress
        }
        guard var record = accounts[key] else { return }
        record.inFlight = max(0, record.inFlight - 1)
        switch outcome {
        case .abandoned:
            break
        case .succeeded:
            record.failures = 0
            record.lockedUntil = nil
        case .failed:
            record.failures += 1
            record.lastFailure = now
            if record.failures >= policy.freeAttempts {
                let doubling = policy.firstLockout * (1 << min(20, record.failures - policy.freeAttempts))
                record.lockedUntil = now + min(policy.maxLockout, doubling)
            }
        }
        accounts[key] = record
    }

    private func evictIfNeeded(now: ContinuousClock.Instant) {
        guard accounts.count > policy.capacity || addresses.count > policy.capacity else { return }
        // First what has expired: idle for a window and not locked.
        accounts = accounts.filter { _, record in
            record.inFlight > 0 || (record.lockedUntil.map { $0 > now } ?? false) || now - record.lastSeen < policy.window
        }
        addresses = addresses.filter { _, record in record.inFlight > 0 || now - record.lastSeen < policy.window }
        // Then the least recently used, down to 90% of the capacity.
        let target = policy.capacity * 9 / 10
        if accounts.count > policy.capacity {
            let idle = accounts.filter { $0.value.inFlight == 0 }
            for (key, _) in idle.sorted(by: { $0.value.lastSeen < $1.value.lastSeen }).prefix(accounts.count - target) {
                accounts[key] = nil
            }
        }
        if addresses.count > policy.capacity {
            let idle = addresses.filter { $0.value.inFlight == 0 }
            for (key, _) in idle.sorted(by: { $0.value.lastSeen < $1.value.lastSeen }).prefix(addresses.count - target) {
                addresses[key] = nil
            }
        }
    }

    /// A fixed-size key, whatever the username sent (a refused attempt costs no hash, so a long
    /// name must not cost memory either).
    private static func key(_ account: String, _ address: String) -> String {
        Digest.sha256Hex(account.lowercased() + "\u{0}" + address)
    }

    private static func seconds(_ duration: Duration) -> Int { max(1, Int(duration.components.seconds)) }
}
