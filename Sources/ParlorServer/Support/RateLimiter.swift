import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// At most `limit` events per key in any sliding `window` (sign-ups per address, additions to
/// conversations per person). Memory is bounded: past `capacity` keys, the least recently seen
/// go first, and a key whose events are all a window old is forgotten.
actor RateLimiter {
    let limit: Int
    let window: Duration
    let capacity: Int
    private let clock = ContinuousClock()
    /// Each key's recent events, oldest first.
    private var events: [String: [ContinuousClock.Instant]] = [:]

    init(limit: Int, window: Duration, capacity: Int = 100_000) {
        self.limit = limit
        self.window = window
        self.capacity = capacity
    }

    /// Counts one event for each of `keys` if none of them is over its limit, else counts none.
    /// - Returns: nil when counted; else the seconds until the first refused key may go again.
    func take(_ keys: [String]) -> Int? {
        guard limit > 0 else { return nil }
        let now = clock.now
        var recent: [String: [ContinuousClock.Instant]] = [:]
        for key in keys {
            let kept = (recent[key] ?? events[key] ?? []).filter { now - $0 < window }
            if kept.count >= limit, let oldest = kept.first {
                return max(1, Int((window - (now - oldest)).components.seconds) + 1)
            }
            recent[key] = kept + [now]
        }
        for (key, times) in recent { events[key] = times }
        if events.count > capacity { evict(now: now) }
        return nil
    }

    /// Counts one event for `key`; see `take(_:)`.
    func take(_ key: String) -> Int? { take([key]) }

    /// Takes back the newest event of `key` (the attempt it counted did not happen after all).
    func refund(_ key: String) {
        guard var times = events[key], !times.isEmpty else { return }
        times.removeLast()
        events[key] = times.isEmpty ? nil : times
    }

    /// The key a client address counts under: an IPv4 address itself, an IPv6 address's /64
    /// network (one subscriber gets a whole /64, so single addresses would be free to change).
    static func networkKey(of address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        // An IPv4 client of a dual-stack listener (`::ffff:a.b.c.d`) is one address, not a /64.
        if bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) {
            return bytes.suffix(4).map(String.init).joined(separator: ".")
        }
        return bytes.prefix(8).map { String(format: "%02x", $0) }.joined() + "::/64"
    }

    /// Drops keys with no event in the window, then the least recently seen past `capacity`.
    private func evict(now: ContinuousClock.Instant) {
        events = events.filter { now - ($0.value.last ?? now) < window }
        guard events.count > capacity else { return }
        let newestFirst = events.sorted { ($0.value.last ?? now) > ($1.value.last ?? now) }
        events = Dictionary(uniqueKeysWithValues: newestFirst.prefix(capacity * 9 / 10).map { ($0.key, $0.value) })
    }
}
