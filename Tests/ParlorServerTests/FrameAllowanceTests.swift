@testable import ParlorServer
import Testing

@Suite("The flood limit on an app's frames")
struct FrameAllowanceTests {
    @Test("At most the limit in any second, across what would be two fixed windows; the allowance comes back as the oldest frames age")
    func slidingWindow() {
        var allowance = FrameAllowance(limit: 500)
        let start = ContinuousClock.now
        #expect(allowance.admitted(1, at: start) == 1)
        // 499 more late in the first second: 500 in all, allowed.
        #expect(allowance.admitted(499, at: start + .milliseconds(900)) == 499)
        // Just after the first second ends, a fixed window would start again from zero; here only
        // the one frame from the start has aged out.
        #expect(allowance.admitted(2, at: start + .milliseconds(1050)) == 1, "the first frame's slot only: 501 within a second are refused")
        #expect(allowance.admitted(1, at: start + .milliseconds(1899)) == 0, "the 499 are still within a second")
        // Once the late ones are a second old, their slots are free.
        #expect(allowance.admitted(500, at: start + .milliseconds(1900)) == 499)
    }

    @Test("A refused frame is not counted: a steady sender at the limit is never refused")
    func steadySender() {
        var allowance = FrameAllowance(limit: 10)
        let start = ContinuousClock.now
        // One frame every 100 ms for ten seconds: 10 a second, exactly the limit.
        var admitted = 0
        for index in 0..<100 { admitted += allowance.admitted(1, at: start + .milliseconds(100 * index)) }
        #expect(admitted == 100)
        #expect(allowance.admitted(1, at: start + .milliseconds(9950)) == 0, "one more in the same second is one too many")
    }
}

extension FrameAllowance {
    /// Offers `count` frames at `now`; returns how many were let through.
    fileprivate mutating func admitted(_ count: Int, at now: ContinuousClock.Instant) -> Int {
        var admitted = 0
        for _ in 0..<count where admit(at: now) { admitted += 1 }
        return admitted
    }
}
