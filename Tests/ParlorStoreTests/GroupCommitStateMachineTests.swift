import ParlorStore
import Testing

@Suite("Group commit's decisions")
struct GroupCommitStateMachineTests {
    @Test("The first request is written at once; those that arrive during the write go together into the next batch")
    func batchesWhatArrivesDuringAWrite() {
        var machine = GroupCommitStateMachine<Int>(maxBatch: 512)
        #expect(batch(machine.submit(1)) == [1])
        #expect(isWait(machine.submit(2)))
        #expect(isWait(machine.submit(3)))
        #expect(machine.waitingCount == 2)
        #expect(batch(machine.batchWritten()) == [2, 3])
        #expect(isIdle(machine.batchWritten()))
        #expect(batch(machine.submit(4)) == [4], "idle again: the next request starts a batch")
    }

    @Test("A batch takes at most maxBatch requests, oldest first; the rest follow in order")
    func maxBatch() {
        var machine = GroupCommitStateMachine<Int>(maxBatch: 2)
        #expect(batch(machine.submit(0)) == [0])
        for element in 1...5 { #expect(isWait(machine.submit(element))) }
        #expect(batch(machine.batchWritten()) == [1, 2])
        #expect(batch(machine.batchWritten()) == [3, 4])
        #expect(batch(machine.batchWritten()) == [5])
        #expect(isIdle(machine.batchWritten()))
        #expect(machine.waitingCount == 0)
    }

    @Test("A maxBatch below 1 still writes one request per batch")
    func maxBatchAtLeastOne() {
        var machine = GroupCommitStateMachine<Int>(maxBatch: 0)
        #expect(batch(machine.submit(1)) == [1])
        #expect(isWait(machine.submit(2)))
        #expect(batch(machine.batchWritten()) == [2])
    }

    @Test("A request that finds the queue idle is written alone by its caller; what comes meanwhile waits for it")
    func startAlone() {
        var machine = GroupCommitStateMachine<Int>(maxBatch: 512)
        let alone = machine.startAlone()
        #expect(alone)
        let second = machine.startAlone()
        #expect(!second, "one write at a time")
        #expect(isWait(machine.submit(2)))
        #expect(isWait(machine.submit(3)))
        #expect(batch(machine.batchWritten()) == [2, 3], "the caller's write done: the others go together")
        let during = machine.startAlone()
        #expect(!during, "a batch is being written")
        #expect(isIdle(machine.batchWritten()))
        let again = machine.startAlone()
        #expect(again, "idle again")
    }

    private func batch(_ action: GroupCommitStateMachine<Int>.Action) -> [Int]? {
        if case .writeBatch(let batch) = action { return batch }
        return nil
    }

    private func isWait(_ action: GroupCommitStateMachine<Int>.Action) -> Bool {
        if case .wait = action { return true }
        return false
    }

    private func isIdle(_ action: GroupCommitStateMachine<Int>.Action) -> Bool {
        if case .idle = action { return true }
        return false
    }
}
