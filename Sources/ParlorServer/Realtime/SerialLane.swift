import Synchronization

/// Jobs run one at a time, in the order submitted, in a task that lives only while there are
/// some: a connection's app frames, which may wait seconds for an app outside the server, run
/// here, beside the connection's other frames rather than in front of them.
final class SerialLane: Sendable {
    typealias Job = @Sendable () async -> Void

    private struct Queue {
        var jobs: [Job] = []
        var running = false
    }

    private let queue = Mutex(Queue())
    /// Called each time the lane has run every job it had.
    private let idle: @Sendable () -> Void

    init(idle: @escaping @Sendable () -> Void = {}) {
        self.idle = idle
    }

    /// Jobs waiting or running.
    var pending: Int { queue.withLock { $0.jobs.count + ($0.running ? 1 : 0) } }

    /// Queues `job` after those submitted before it.
    func submit(_ job: @escaping Job) {
        let start = queue.withLock { queue -> Bool in
            queue.jobs.append(job)
            guard !queue.running else { return false }
            queue.running = true
            return true
        }
        if start { Task { await drain() } }
    }

    /// Forgets the jobs not started (the connection closed).
    func cancel() {
        queue.withLock { $0.jobs = [] }
    }

    private func drain() async {
        while let job = queue.withLock({ queue -> Job? in
            guard !queue.jobs.isEmpty else {
                queue.running = false
                return nil
            }
            return queue.jobs.removeFirst()
        }) {
            await job()
        }
        idle()
    }
}
