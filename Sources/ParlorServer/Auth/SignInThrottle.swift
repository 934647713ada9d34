import Foundation

/// Slows down password guessing without letting a stranger lock the owner out.
///
/// Every attempt takes a slot *before* its password is checked, so a burst sent at once cannot
/// pass the allowance. Attempts are counted per (account, client address): after `freeAttempts`
/// failures from one address, that address waits for the account, a wait that doubles with each
/// new failure up to 15 minutes; the owner signing in from elsewhere is not affected. Each address
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
        var maxLockout: Duration = .seconds(15 * 60)
    }

    private struct Record {
        var failures = 0
        var inFlight = 0
        var lockedUntil: ContinuousClock.Instant?
        var lastSeen: ContinuousClock.Instant
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

    /// Takes a slot for one attempt at `account` from `address`.
    /// - Returns: nil when the attempt may go ahead (then call `finish`), else the seconds to wait.
    func begin(account: String, address: String) -> Int? {
        let now = clock.now
        let key = Self.key(account, address)
        var record = accounts[key] ?? Record(lastSeen: now)
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
        guard record.failures + record.inFlight < policy.freeAttempts else { return Self.seconds(.seconds(1)) }
        guard perAddress.failures.count + perAddress.inFlight < policy.addressBudget else {
            let oldest = perAddress.failures.first ?? now
            return Self.seconds(policy.window - (now - oldest))
        }
        record.inFlight += 1
        perAddress.inFlight += 1
        return nil
    }

    /// Ends an attempt `begin` allowed.
    func finish(account: String, address: String, succeeded: Bool) {
        let now = clock.now
        let key = Self.key(account, address)
        if var perAddress = addresses[address] {
            perAddress.inFlight = max(0, perAddress.inFlight - 1)
            if !succeeded { perAddress.failures.append(now) }
            addresses[address] = perAddress
        }
        guard var record = accounts[key] else { return }
        record.inFlight = max(0, record.inFlight - 1)
        if succeeded {
            record.failures = 0
            record.lockedUntil = nil
        } else {
            record.failures += 1
            if record.failures >= policy.freeAttempts {
                let doubling = Duration.seconds(1 << min(20, record.failures - policy.freeAttempts))
                record.lockedUntil = now + min(policy.maxLockout, doubling)
            }
        }
        accounts[key] = record
    }

    /// How many (account, address) and address records are kept.
    var recordCount: (accounts: Int, addresses: Int) { (accounts.count, addresses.count) }

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
            for (key, _) in accounts.sorted(by: { $0.value.lastSeen < $1.value.lastSeen }).prefix(accounts.count - target) {
                accounts[key] = nil
            }
        }
        if addresses.count > policy.capacity {
            for (key, _) in addresses.sorted(by: { $0.value.lastSeen < $1.value.lastSeen }).prefix(addresses.count - target) {
                addresses[key] = nil
            }
        }
    }

    private static func key(_ account: String, _ address: String) -> String { account.lowercased() + "\u{0}" + address }

    private static func seconds(_ duration: Duration) -> Int { max(1, Int(duration.components.seconds)) }
}
