import Foundation

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

    /// Drops keys with no event in the window, then the least recently seen past `capacity`.
    private func evict(now: ContinuousClock.Instant) {
        events = events.filter { now - ($0.value.last ?? now) < window }
        guard events.count > capacity else { return }
        let newestFirst = events.sorted { ($0.value.last ?? now) > ($1.value.last ?? now) }
        events = Dictionary(uniqueKeysWithValues: newestFirst.prefix(capacity * 9 / 10).map { ($0.key, $0.value) })
    }
}
