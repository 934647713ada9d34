@testable import ParlorHost
import Testing

/// An instance's calls, one at a time and first come first served, driven event by event with no
/// actor and no continuation: the waiters are names.
@Suite("An instance's call queue")
struct CallQueueTests {
    typealias Queue = CallQueue<String>

    @Test("A call into an idle instance runs at once; when it ends the instance is idle again")
    func aloneRunsAtOnce() {
        var queue = Queue()
        #expect(queue.enter() == .run)
        #expect(queue.state == .running(waiting: []))
        #expect(queue.exit() == .idle)
        #expect(queue.state == .idle)
        #expect(queue.enter() == .run, "the next call runs at once too")
    }

    @Test("Calls that come while one runs wait, and run one by one in the order they came")
    func firstComeFirstServed() {
        var queue = Queue()
        #expect(queue.enter() == .run)
        for name in ["b", "c", "d"] {
            #expect(queue.enter() == .wait)
            queue.wait(name)
        }
        #expect(queue.waiting == 3)
        #expect(queue.exit() == .resume("b"))
        #expect(queue.exit() == .resume("c"))
        #expect(queue.exit() == .resume("d"))
        #expect(queue.exit() == .idle)
        #expect(queue.waiting == 0)
    }

    @Test("An ending call hands its turn over: a call that comes then waits behind the one resumed, never beside it")
    func handedOverNotReleased() {
        var queue = Queue()
        _ = queue.enter()
        _ = queue.enter()
        queue.wait("b")
        #expect(queue.exit() == .resume("b"))
        #expect(queue.state == .running(waiting: []), "b runs: the queue never went idle between a and b")
        #expect(queue.enter() == .wait, "c, which came while b runs, waits")
        queue.wait("c")
        #expect(queue.exit() == .resume("c"))
    }

    @Test("A call that comes after the queue emptied runs at once, though others waited before")
    func idleAgainAfterTheLast() {
        var queue = Queue()
        _ = queue.enter()
        _ = queue.enter()
        queue.wait("b")
        _ = queue.exit()
        #expect(queue.exit() == .idle)
        #expect(queue.enter() == .run)
    }
}
