import Synchronization

/// Waits for an operation or a deadline, whichever comes first.
enum Deadline {
    /// The deadline came first.
    struct Passed: Error {}

    /// The result of `operation`, or `Passed` once `timeout` has passed.
    ///
    /// When the deadline wins, the operation is left to finish on its own and its result is
    /// dropped; it is not cancelled, because cancelling URLSession's async data task while it
    /// completes can deadlock FoundationNetworking on Linux. The host's client still ends it at
    /// its own timeout.
    static func first<T: Sendable>(
        of operation: @escaping @Sendable () async throws -> T, orAfter timeout: Duration
    ) async throws -> T {
        let outcome = Outcome<T>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.wait(with: continuation)
            let timer = Task {
                try await Task.sleep(for: timeout)
                outcome.finish(with: .failure(Passed()))
            }
            Task {
                do {
                    outcome.finish(with: .success(try await operation()))
                } catch {
                    outcome.finish(with: .failure(error))
                }
                timer.cancel()
            }
        }
    }

    /// Resumes the waiting continuation once, with the first result given.
    private final class Outcome<T: Sendable>: Sendable {
        private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

        func wait(with continuation: CheckedContinuation<T, any Error>) {
            self.continuation.withLock { $0 = continuation }
        }

        func finish(with result: Result<T, any Error>) {
            continuation.withLock { $0.take() }?.resume(with: result)
        }
    }
}
