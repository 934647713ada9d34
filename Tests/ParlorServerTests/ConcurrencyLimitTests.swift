@testable import ParlorServer
import Synchronization
import Testing

/// `ConcurrencyLimit`, as the image proxy (a person's fetches) and the push sender (a push
/// service's requests) use it: how many run, how many wait, in what order, for how long.
@Suite("A limit on things at once")
struct ConcurrencyLimitTests {
    /// Returns once `count` wait in `limit` (their tasks may start in any order otherwise).
    static func untilWaiting(_ count: Int, in limit: ConcurrencyLimit) async {
        while limit.waitingCount < count { try? await Task.sleep(for: .milliseconds(2)) }
    }

    @Test("One over the limit waits and enters when a place is given back, first come first served; past the waiting bound, refused at once")
    func waitsInOrder() async {
        let limit = ConcurrencyLimit(perKey: 1, total: 10, patience: .seconds(30), waitingPerKey: 2)
        #expect(await limit.enter("a") == .entered)
        let first = Task { await limit.enter("a") }
        await Self.untilWaiting(1, in: limit)
        let second = Task { await limit.enter("a") }
        await Self.untilWaiting(2, in: limit)
        #expect(await limit.enter("a") == .keyFull, "two wait already: the third is refused at once")
        #expect(await limit.enter("b") == .entered, "another key has its own places")
        limit.leave("a")
        #expect(await first.value == .entered, "the first waiter takes the place")
        limit.leave("a")
        #expect(await second.value == .entered)
    }

    @Test("The total bounds every key together; its waiting bound too")
    func totalBound() async {
        let limit = ConcurrencyLimit(perKey: 5, total: 1, patience: .seconds(30), waitingTotal: 1)
        #expect(await limit.enter("a") == .entered)
        let waiting = Task { await limit.enter("b") }
        await Self.untilWaiting(1, in: limit)
        #expect(await limit.enter("c") == .totalFull)
        limit.leave("a")
        #expect(await waiting.value == .entered)
    }

    @Test("A wait ends with a refusal once its patience runs out, and a cancelled wait ends at once; neither keeps its place in the queue")
    func patienceAndCancellation() async {
        let limit = ConcurrencyLimit(perKey: 1, total: 10, patience: .milliseconds(200), waitingPerKey: 1)
        #expect(await limit.enter("a") == .entered)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(await limit.enter("a") == .keyFull, "refused after waiting its patience")
        #expect(clock.now - started >= .milliseconds(190))

        let long = ConcurrencyLimit(perKey: 1, total: 10, patience: .seconds(60), waitingPerKey: 1)
        #expect(await long.enter("a") == .entered)
        let cancelled = Task { await long.enter("a") }
        await Self.untilWaiting(1, in: long)
        #expect(await long.enter("a") == .keyFull, "one waits: the bound is full")
        cancelled.cancel()
        #expect(await cancelled.value == .cancelled)
        // Its place in the queue is free again: the next one waits, and enters when a place is given back.
        #expect(long.waitingCount == 0)
        let next = Task { await long.enter("a") }
        await Self.untilWaiting(1, in: long)
        long.leave("a")
        #expect(await next.value == .entered)
    }
}
