import Foundation
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Synchronization
import Testing

/// A connection's store jobs (`CatchUp`) against a source in memory, their frames recorded.
@Suite("Replays and gap fills")
struct CatchUpTests {
    let a = ConversationID()
    let b = ConversationID()
    let c = ConversationID()
    private var names: [ConversationID: String] { [a: "a", b: "b", c: "c"] }

    /// The frames a job writes, call by call; a call past `refusingFrom` throws as a closed
    /// connection does.
    final class Recorder: Sendable {
        struct Refused: Error {}
        private let calls = Mutex<[[String]]>([])
        private let refusingFrom: Int

        init(refusingFrom: Int = .max) {
            self.refusingFrom = refusingFrom
        }

        func write(_ frames: [String]) throws {
            let count = calls.withLock { calls in
                calls.append(frames)
                return calls.count
            }
            if count >= refusingFrom { throw Refused() }
        }

        var writes: [[String]] { calls.withLock { $0 } }
    }

    private func run(_ job: ConnectionStateMachine.StoreJob, from source: FakeDeliverySource, into recorder: Recorder) async throws
        -> ConnectionStateMachine.Delivered
    {
        try await CatchUp.run(job, for: DeliveryFixture.user, from: source) { try recorder.write($0) }
    }

    private func labels(_ recorder: Recorder) -> [String] {
        recorder.writes.joined().map { DeliveryFixture.label($0, names: names) }
    }

    private func messages(_ range: ClosedRange<Int64>, in conversation: ConversationID) -> [Wire.Message] {
        range.map { DeliveryFixture.wire($0, in: conversation) }
    }

    @Test("The replay writes what each conversation missed, then ready and the session frames, then the messages that came before hello, each once")
    func replay() async throws {
        let source = FakeDeliverySource(
            [(a, 5), (b, 7), (c, 4)], messages: messages(1...6, in: a) + messages(1...7, in: b) + messages(1...4, in: c),
            sessionFrames: [.pong(requestId: "session")])
        let early = [
            // Replayed already: not written twice.
            ConnectionStateMachine.EarlyMessage(message: DeliveryFixture.stored(5, in: a), frame: DeliveryFixture.frame(5, in: a)),
            // Not replayed (the client named no sequence for b), but it came before hello: it goes out.
            ConnectionStateMachine.EarlyMessage(message: DeliveryFixture.stored(7, in: b), frame: DeliveryFixture.frame(7, in: b)),
            // Drawn for this viewer.
            ConnectionStateMachine.EarlyMessage(message: DeliveryFixture.stored(6, in: a), frame: nil),
        ]
        let recorder = Recorder()
        let since: [String: Int64] = [a.description.lowercased(): 2, "not an id": 1]
        let delivered = try await run(.replay(since: since, delivered: [:], early: early), from: source, into: recorder)
        #expect(labels(recorder) == ["a3", "a4", "a5", "ready", "pong session", "b7", "a6"])
        #expect(delivered == [a: 6, b: 7, c: 4])
    }

    @Test("What the client says it has is kept within what exists")
    func sinceOutOfRange() async throws {
        let source = FakeDeliverySource([(a, 2), (b, 3)], messages: messages(1...2, in: a) + messages(1...3, in: b))
        let recorder = Recorder()
        let delivered = try await run(.replay(since: [a.description: -5, b.description: .max], delivered: [:], early: []), from: source, into: recorder)
        #expect(labels(recorder) == ["a1", "a2", "ready"])
        #expect(delivered == [a: 2, b: 3])
    }

    @Test("A gap is filled from the store, page by page, before the message after it")
    func gapFilled() async throws {
        let source = FakeDeliverySource([(a, 6)], messages: messages(1...6, in: a), pageSize: 2)
        let recorder = Recorder()
        let delivered = try await run(
            .deliver(DeliveryFixture.stored(6, in: a), frame: DeliveryFixture.frame(6, in: a), delivered: [a: 2]), from: source, into: recorder)
        #expect(labels(recorder) == ["a3", "a4", "a5", "a6"])
        #expect(recorder.writes.count == 3, "two pages, then the message")
        #expect(delivered == [a: 6])

        let drawn = Recorder()
        #expect(try await run(.deliver(DeliveryFixture.stored(7, in: a), frame: nil, delivered: [a: 6]), from: source, into: drawn) == [a: 7])
        #expect(labels(drawn) == ["a7"], "a message with no shared frame is drawn for this viewer")

        let old = Recorder()
        #expect(try await run(.deliver(DeliveryFixture.stored(4, in: a), frame: nil, delivered: [a: 6]), from: source, into: old) == [a: 6])
        #expect(old.writes.isEmpty, "delivered already")
    }

    @Test("More than 1000 missing in a conversation: resync instead of the messages; exactly 1000 are replayed")
    func resync() async throws {
        let source = FakeDeliverySource([(a, 1001)], messages: messages(1...1000, in: a), pageSize: 200)
        let far = Recorder()
        let delivered = try await run(
            .deliver(DeliveryFixture.stored(1002, in: a), frame: DeliveryFixture.frame(1002, in: a), delivered: [a: 0]), from: source, into: far)
        #expect(labels(far) == ["resync", "a1002"])
        #expect(delivered == [a: 1002])

        let near = Recorder()
        _ = try await run(.deliver(DeliveryFixture.stored(1001, in: a), frame: DeliveryFixture.frame(1001, in: a), delivered: [a: 0]), from: source, into: near)
        #expect(labels(near) == (1...1001).map { "a\($0)" })

        let replay = Recorder()
        #expect(try await run(.replay(since: [a.description: 0], delivered: [:], early: []), from: source, into: replay) == [a: 1001])
        #expect(labels(replay) == ["resync", "ready"])
    }

    @Test("A write the connection refuses ends the job: nothing more is written")
    func refusedWriteStops() async throws {
        let source = FakeDeliverySource([(a, 4)], messages: messages(1...4, in: a), pageSize: 2, sessionFrames: [.pong(requestId: "session")])
        let recorder = Recorder(refusingFrom: 2)
        let early = [ConnectionStateMachine.EarlyMessage(message: DeliveryFixture.stored(5, in: a), frame: DeliveryFixture.frame(5, in: a))]
        await #expect(throws: Recorder.Refused.self) {
            try await run(.replay(since: [a.description: 0], delivered: [:], early: early), from: source, into: recorder)
        }
        #expect(labels(recorder) == ["a1", "a2", "a3", "a4"], "the first page, and the refused second one; no ready, no early message")
        #expect(recorder.writes.count == 2)
    }

    @Test("A store that fails ends the job before anything is written")
    func storeFails() async throws {
        let recorder = Recorder()
        await #expect(throws: FakeDeliverySource.ReadFailed.self) {
            try await run(.replay(since: [:], delivered: [:], early: []), from: FakeDeliverySource([], failsReading: true), into: recorder)
        }
        #expect(recorder.writes.isEmpty)
    }
}
