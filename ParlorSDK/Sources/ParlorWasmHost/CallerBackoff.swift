#if WasmHost
import ParlorKit

/// Whom a module failed lately (a trap, its budget spent, its deadline passed while it ran, an
/// answer that cannot be read; never `render`, which draws what someone else sent), and until
/// when their calls rest: after `failuresBeforeRest` failures in a
/// row, a person's calls to that app fail at once, without running, for `firstRest`, doubling at
/// each further failure up to `longestRest`; the first call after a rest is tried, and one good
/// answer forgets it all. Kept per person (the participant the call is for), never for the app as
/// a whole: someone who found a message that crashes the app cannot make it rest for everyone, and
/// an app broken for everyone costs each person a few failed calls, not one per tap.
struct CallerBackoff: Sendable {
    static let failuresBeforeRest = 3
    static let firstRest: Duration = .seconds(1)
    static let longestRest: Duration = .seconds(60)
    /// The most people remembered; past it the oldest failures are forgotten.
    static let capacity = 10_000

    private struct Record: Sendable {
        var failures: Int
        var restsUntil: ContinuousClock.Instant?
        var lastFailure: ContinuousClock.Instant
    }

    private var records: [ParticipantID: Record] = [:]

    /// How long `caller`'s calls still rest; nil when their next call runs.
    func rest(of caller: ParticipantID, now: ContinuousClock.Instant = .now) -> Duration? {
        guard let until = records[caller]?.restsUntil, until > now else { return nil }
        return until - now
    }

    /// One more failure of a call for `caller`. Failures further apart than `longestRest` are
    /// not "in a row": the count starts again.
    mutating func failed(_ caller: ParticipantID, now: ContinuousClock.Instant = .now) {
        var record = records[caller].flatMap { now - $0.lastFailure > Self.longestRest ? nil : $0 }
            ?? Record(failures: 0, restsUntil: nil, lastFailure: now)
        record.failures += 1
        record.lastFailure = now
        let beyond = record.failures - Self.failuresBeforeRest
        if beyond >= 0 {
            record.restsUntil = now + min(Self.firstRest * (1 << min(beyond, 16)), Self.longestRest)
        }
        records[caller] = record
        if records.count > Self.capacity, let oldest = records.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key {
            records[oldest] = nil
        }
    }

    /// A call for `caller` was answered well.
    mutating func answered(_ caller: ParticipantID) {
        records[caller] = nil
    }
}
#endif
