import Foundation

/// A token bucket per key: at most `burst` events at once, then `perMinute` a minute on average
/// (messages a person sends). Unlike `RateLimiter`'s sliding window, a burst is allowed without
/// letting it repeat every window. Memory is bounded: a key whose bucket has filled up again is
/// forgotten, and past `capacity` keys the fullest go first.
actor TokenBuckets {
    let perMinute: Int
    let burst: Int
    let capacity: Int
    private let clock = ContinuousClock()
    /// Each key's tokens left, as of `at`.
    private var buckets: [String: (tokens: Double, at: ContinuousClock.Instant)] = [:]

    /// - Parameters:
    ///   - perMinute: the average rate; 0 for no limit.
    ///   - burst: the most events at once (at least 1).
    init(perMinute: Int, burst: Int, capacity: Int = 100_000) {
        self.perMinute = perMinute
        self.burst = max(1, burst)
        self.capacity = capacity
    }

    /// Counts one event for `key`.
    /// - Returns: nil when counted; else the whole seconds until one more is allowed.
    func take(_ key: String) -> Int? { take(key, at: clock.now) }

    /// `take(_:)` at a given instant (tests).
    func take(_ key: String, at now: ContinuousClock.Instant) -> Int? {
        guard perMinute > 0 else { return nil }
        let tokens = level(of: key, at: now)
        guard tokens >= 1 else {
            let seconds = (1 - tokens) * 60 / Double(perMinute)
            return max(1, Int(seconds.rounded(.up)))
        }
        buckets[key] = (tokens - 1, now)
        if buckets.count > capacity { evict(now: now) }
        return nil
    }

    /// Gives back one event of `key`'s that did not happen after all (refused later, or a retry).
    func refund(_ key: String) {
        guard perMinute > 0, let bucket = buckets[key] else { return }
        buckets[key] = (min(Double(burst), bucket.tokens + 1), bucket.at)
    }

    /// The tokens `key` has at `now`: what it had, refilled at `perMinute` since, at most `burst`.
    private func level(of key: String, at now: ContinuousClock.Instant) -> Double {
        guard let bucket = buckets[key] else { return Double(burst) }
        let elapsed = now - bucket.at
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return min(Double(burst), bucket.tokens + seconds * Double(perMinute) / 60)
    }

    /// Forgets full buckets (they are as a key never seen), then the fullest past `capacity`.
    private func evict(now: ContinuousClock.Instant) {
        buckets = buckets.filter { level(of: $0.key, at: now) < Double(burst) }
        guard buckets.count > capacity else { return }
        let emptiestFirst = buckets.keys.sorted { level(of: $0, at: now) < level(of: $1, at: now) }
        for key in emptiestFirst.dropFirst(capacity * 9 / 10) { buckets[key] = nil }
    }
}
