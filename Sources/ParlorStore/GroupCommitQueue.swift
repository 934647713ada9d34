import Foundation
import Synchronization

/// One pending append: the message, the check to run against its session head, and the writes
/// that commit with it or not at all.
public struct AppendRequest: Sendable {
    public var message: NewMessage
    public var validate: @Sendable (NewMessage, StoredMessage?) throws -> Void
    public var alongside: [StateWrite]

    public init(
        message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void, alongside: [StateWrite] = []
    ) {
        self.message = message
        self.validate = validate
        self.alongside = alongside
    }
}

/// Told about each group commit: how many requests it wrote, and how long the commit took.
public typealias CommitObserver = @Sendable (_ batch: Int, _ duration: Duration) -> Void

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
    private let observer = Mutex<CommitObserver?>(nil)

    public init(maxBatch: Int, commit: @escaping Commit) {
        self.commit = commit
        machine = GroupCommitStateMachine(maxBatch: maxBatch)
    }

    /// Calls `observer` after each batch from now on (metrics).
    public nonisolated func observe(_ observer: @escaping CommitObserver) {
        self.observer.withLock { $0 = observer }
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
            let start = ContinuousClock.now
            let outcomes = await commit(batch.map(\.request))
            observer.withLock { $0 }?(batch.count, .now - start)
            for (index, pending) in batch.enumerated() {
                pending.continuation.resume(with: index < outcomes.count
                    ? outcomes[index] : .failure(StoreError(.unavailable, "The message could not be saved; try again.")))
            }
            guard case .writeBatch(let next) = machine.batchWritten() else { return }
            batch = next
        }
    }
}
