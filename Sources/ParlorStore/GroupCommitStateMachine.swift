/// The decisions of group commit, without I/O or concurrency (postgres-nio's style): what to do
/// when a request arrives and when a batch has been written. `GroupCommitQueue` runs it.
///
/// At most one batch is being written at a time. A request that arrives while none is starts
/// one at once; requests that arrive during a write wait and go together into the next batch,
/// at most `maxBatch` of them.
public struct GroupCommitStateMachine<Element> {
    /// What the caller does next.
    public enum Action {
        /// Write these elements as one batch, then call `batchWritten()`.
        case writeBatch([Element])
        /// Nothing: a batch is being written, the element waits for the next one.
        case wait
        /// Nothing: every batch is written and nothing waits.
        case idle
    }

    private let maxBatch: Int
    private var waiting: [Element] = []
    private var writing = false

    /// - Parameter maxBatch: the most elements one batch takes (at least 1).
    public init(maxBatch: Int) {
        self.maxBatch = max(1, maxBatch)
    }

    /// An element arrived.
    public mutating func submit(_ element: Element) -> Action {
        waiting.append(element)
        guard !writing else { return .wait }
        return nextBatch()
    }

    /// A caller that finds nothing being written and nothing waiting writes its own element at
    /// once, outside the queue: true, and a batch counts as being written until `batchWritten()`.
    /// False otherwise: the caller submits its element.
    public mutating func startAlone() -> Bool {
        guard !writing, waiting.isEmpty else { return false }
        writing = true
        return true
    }

    /// The batch being written is durable (or failed, each element with its own outcome).
    public mutating func batchWritten() -> Action {
        precondition(writing, "batchWritten() without a batch being written")
        writing = false
        return nextBatch()
    }

    /// How many elements wait for a batch.
    public var waitingCount: Int { waiting.count }

    private mutating func nextBatch() -> Action {
        guard !waiting.isEmpty else { return .idle }
        let batch = Array(waiting.prefix(maxBatch))
        waiting.removeFirst(batch.count)
        writing = true
        return .writeBatch(batch)
    }
}
