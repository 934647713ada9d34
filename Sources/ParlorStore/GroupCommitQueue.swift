import Foundation

/// One pending append: the message and the check to run against its session head.
public struct AppendRequest: Sendable {
    public var message: NewMessage
    public var validate: @Sendable (NewMessage, StoredMessage?) throws -> Void

    public init(message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void) {
        self.message = message
        self.validate = validate
    }
}

/// Group commit, for every backend: requests that arrive while a batch is being written wait and
/// go into the next batch, which `commit` writes in one transaction. Each caller resumes with its
/// own outcome once its batch is durable.
public actor GroupCommitQueue<Request: Sendable, Output: Sendable> {
    /// Writes one batch; returns one outcome per request, in order.
    public typealias Commit = @Sendable ([Request]) async -> [Result<Output, any Error>]

    private struct Pending {
        let request: Request
        let continuation: CheckedContinuation<Output, any Error>
    }

    private let maxBatch: Int
    private let commit: Commit
    private var queue: [Pending] = []
    private var draining = false

    public init(maxBatch: Int, commit: @escaping Commit) {
        self.maxBatch = maxBatch
        self.commit = commit
    }

    /// Queues `request` and returns its outcome once its batch is committed.
    public func submit(_ request: Request) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            queue.append(Pending(request: request, continuation: continuation))
            if !draining {
                draining = true
                Task { await self.drain() }
            }
        }
    }

    private func drain() async {
        while !queue.isEmpty {
            let batch = Array(queue.prefix(maxBatch))
            queue.removeFirst(batch.count)
            let outcomes = await commit(batch.map(\.request))
            for (index, pending) in batch.enumerated() {
                pending.continuation.resume(with: index < outcomes.count
                    ? outcomes[index] : .failure(StoreError(.unavailable, "The message could not be saved; try again.")))
            }
        }
        draining = false
    }
}
