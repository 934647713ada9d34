import Synchronization

/// A connection's app frames, one `SerialLane` per place an app runs (a conversation, or an app's
/// home surface): in their order within that place, beside the connection's other frames and
/// other places' apps, so an app outside the server that is slow to answer holds up only itself.
///
/// A lane holds at most `limit` frames; past it a frame is refused (`submit` returns false) rather
/// than waiting, so a hung app can neither pile up work nor stop the socket being read. A lane
/// that empties is dropped: the lanes of a connection are those with work.
final class AppLanes: Sendable {
    private let lanes = Mutex<[String: SerialLane]>([:])
    /// App messages being sent (`sendStaged`) per place, queued or running.
    private let sends = Mutex<[String: Int]>([:])
    /// The most frames one lane holds, running one included.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Queues `job` in the lane of `place`.
    /// - Parameter sendsMessage: the job sends an app message (`sendStaged`): until it is done, a
    ///   text sent in the same place waits behind it (`isSending`).
    /// - Returns: false when that lane is full: the job is not queued.
    func submit(to place: String, sendsMessage: Bool = false, _ job: @escaping SerialLane.Job) -> Bool {
        lanes.withLock { lanes in
            let lane = lanes[place] ?? SerialLane { [weak self] in self?.dropIfIdle(place) }
            guard lane.pending < limit else { return false }
            lanes[place] = lane
            guard sendsMessage else {
                lane.submit(job)
                return true
            }
            sends.withLock { $0[place, default: 0] += 1 }
            lane.submit { [weak self] in
                await job()
                self?.sends.withLock { sends in
                    sends[place] = (sends[place] ?? 1) > 1 ? (sends[place] ?? 1) - 1 : nil
                }
            }
            return true
        }
    }

    /// Whether an app message is being sent in `place`: a text sent there now waits behind it,
    /// so it cannot overtake the app message it was written with.
    func isSending(in place: String) -> Bool {
        sends.withLock { $0[place] != nil }
    }

    /// Forgets every frame not started (the connection closed).
    func cancelAll() {
        lanes.withLock { lanes in
            for lane in lanes.values { lane.cancel() }
        }
    }

    private func dropIfIdle(_ place: String) {
        lanes.withLock { lanes in
            if let lane = lanes[place], lane.pending == 0 { lanes[place] = nil }
        }
    }
}
