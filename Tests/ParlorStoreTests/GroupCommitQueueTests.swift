import Foundation
import ParlorStore
import Synchronization
import Testing

@Suite("Group commit's queue")
struct GroupCommitQueueTests {
    @Test("The commit observer is called with each batch's size, and calling it costs the same after thousands of commits")
    func observerStaysFlat() async throws {
        let queue = GroupCommitQueue<Int, Int>(maxBatch: 64) { requests in requests.map { .success($0 * 2) } }
        // The call stack's depth inside the observer, per commit: a closure kept where each read
        // wrote it back re-wrapped grows by a layer or two per commit (a server that ran long
        // enough would overflow its stack there).
        let depths = Mutex<[Int]>([])
        let sizes = Mutex<[Int]>([])
        queue.observe { batch, _ in
            sizes.withLock { $0.append(batch) }
            depths.withLock { $0.append(Thread.callStackSymbols.count) }
        }
        for request in 0..<3_000 {
            #expect(try await queue.submit(request) == request * 2)
        }
        #expect(sizes.withLock { $0 } == Array(repeating: 1, count: 3_000), "one request at a time: batches of one")
        let (first, last) = try depths.withLock { (try #require($0.first), try #require($0.last)) }
        #expect(last - first <= 2, "the observer was reached through \(last - first) more frames after 3,000 commits")
    }
}
