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
///
/// A request that finds nothing being written is written by its own caller, at once: no task to
/// start and no executor to hop to, which is most of a lone message's wait besides the disk.
/// Requests that come meanwhile wait, and a task writes them once that write is done.
public final class GroupCommitQueue<Request: Sendable, Output: Sendable>: Sendable {
    /// Writes one batch; returns one outcome per request, in order.
    public typealias Commit = @Sendable ([Request]) async -> [Result<Output, any Error>]

    private struct Pending: Sendable {
        let request: Request
        let continuation: CheckedContinuation<Output, any Error>
    }

    private let commit: Commit
    private let machine: Mutex<GroupCommitStateMachine<Pending>>
    private let observer = Mutex<Observer?>(nil)

    /// The observer in a struct of its own: a closure kept directly in the `Mutex` came back
    /// re-wrapped in a reabstraction thunk from each `withLock` (which passes the value `inout`
    /// through a generic), so every commit added layers to every later call: a profile found it
    /// 127 frames deep after a few thousand commits, and a server running long enough would have
    /// overflowed its stack there.
    private struct Observer: Sendable {
        let notify: CommitObserver
    }

    public init(maxBatch: Int, commit: @escaping Commit) {
        self.commit = commit
        machine = Mutex(GroupCommitStateMachine(maxBatch: maxBatch))
    }

    /// Calls `observer` after each batch from now on (metrics).
    public func observe(_ observer: @escaping CommitObserver) {
        self.observer.withLock { $0 = Observer(notify: observer) }
    }

    /// Queues `request` and returns its outcome once its batch is committed.
    public func submit(_ request: Request) async throws -> Output {
        if machine.withLock({ $0.startAlone() }) {
            let outcome = await written([request]).first ?? .failure(Self.lost)
            if case .writeBatch(let next) = machine.withLock({ $0.batchWritten() }) {
                Task { await self.write(next) }
            }
            return try outcome.get()
        }
        return try await withCheckedThrowingContinuation { continuation in
            if case .writeBatch(let batch) = machine.withLock({ $0.submit(Pending(request: request, continuation: continuation)) }) {
                Task { await self.write(batch) }
            }
        }
    }

    private static var lost: StoreError { StoreError(.unavailable, "The message could not be saved; try again.") }

    /// Commits `requests`, telling the observer.
    private func written(_ requests: [Request]) async -> [Result<Output, any Error>] {
        let start = ContinuousClock.now
        let outcomes = await commit(requests)
        observer.withLock { $0 }?.notify(requests.count, .now - start)
        return outcomes
    }

    /// Writes batches until none waits.
    private func write(_ first: [Pending]) async {
        var batch = first
        while true {
            let outcomes = await written(batch.map(\.request))
            for (index, pending) in batch.enumerated() {
                pending.continuation.resume(with: index < outcomes.count ? outcomes[index] : .failure(Self.lost))
            }
            guard case .writeBatch(let next) = machine.withLock({ $0.batchWritten() }) else { return }
            batch = next
        }
    }
}
