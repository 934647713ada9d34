import Synchronization

/// The store did not answer in time.
public struct DeadlinePassed: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "no answer within \(limit)" }
}

/// Runs `body` and returns its result, or throws `DeadlinePassed` once `limit` has passed,
/// whether or not `body` notices that it is cancelled (a database client waiting for a connection
/// may not): the caller is never held longer than `limit`.
public func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withCheckedThrowingContinuation { continuation in
        race.start(continuation)
        let work = Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            race.finish(with: result)
        }
        race.setTimer(Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            work.cancel()
            race.finish(with: .failure(DeadlinePassed(limit: limit)))
        })
    }
}

/// The continuation `withDeadline` resumes once, with whichever comes first.
private final class DeadlineRace<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, timer: Task<Void, Never>?)>((nil, nil))

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func setTimer(_ timer: Task<Void, Never>) {
        let finished = state.withLock { state in
            state.timer = timer
            return state.continuation == nil
        }
        if finished { timer.cancel() }
    }

    func finish(with result: Result<T, any Error>) {
        let (continuation, timer) = state.withLock { state in
            defer { state = (nil, nil) }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
