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
/// own outcome once its batch is durable. The decisions are `GroupCommitStateMachine`'s.
public actor GroupCommitQueue<Request: Sendable, Output: Sendable> {
    /// Writes one batch; returns one outcome per request, in order.
    public typealias Commit = @Sendable ([Request]) async -> [Result<Output, any Error>]

    private struct Pending {
        let request: Request
        let continuation: CheckedContinuation<Output, any Error>
    }

    private let commit: Commit
    private var machine: GroupCommitStateMachine<Pending>

    public init(maxBatch: Int, commit: @escaping Commit) {
        self.commit = commit
        machine = GroupCommitStateMachine(maxBatch: maxBatch)
    }

    /// Queues `request` and returns its outcome once its batch is committed.
    public func submit(_ request: Request) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            if case .writeBatch(let batch) = machine.submit(Pending(request: request, continuation: continuation)) {
                Task { await self.write(batch) }
            }
        }
    }

    /// Writes batches until none waits.
    private func write(_ first: [Pending]) async {
        var batch = first
        while true {
            let outcomes = await commit(batch.map(\.request))
            for (index, pending) in batch.enumerated() {
                pending.continuation.resume(with: index < outcomes.count
                    ? outcomes[index] : .failure(StoreError(.unavailable, "The message could not be saved; try again.")))
            }
            guard case .writeBatch(let next) = machine.batchWritten() else { return }
            batch = next
        }
    }
}
