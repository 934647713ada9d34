/// At most `limit` events in any `window`, exactly (a sliding log, not fixed windows that let
/// twice the limit through across a boundary). It keeps the times of the last `limit` events, so
/// it is meant for small limits per connection.
struct FrameAllowance: Sendable {
    let limit: Int
    let window: Duration
    /// The last `limit` events' times, a ring: `next` is the oldest once it is full.
    private var times: [ContinuousClock.Instant] = []
    private var next = 0

    init(limit: Int, window: Duration = .seconds(1)) {
        precondition(limit > 0, "an allowance of nothing refuses everything; say so elsewhere")
        self.limit = limit
        self.window = window
        times.reserveCapacity(limit)
    }

    /// Counts one event at `now`.
    /// - Returns: false when it would be the `limit + 1`th within `window` (then it is not counted).
    mutating func admit(at now: ContinuousClock.Instant = .now) -> Bool {
        guard times.count == limit else {
            times.append(now)
            return true
        }
        guard now - times[next] >= window else { return false }
        times[next] = now
        next = (next + 1) % limit
        return true
    }
}
