import Foundation
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// The outbound side of a connection, driven event by event with no channel and no store.
@Suite("A connection's state machine")
struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    let a = ConversationID()

    private func stored(_ sequence: Int64) -> StoredMessage { DeliveryFixture.stored(sequence, in: a) }
    private func frame(_ sequence: Int64) -> String { DeliveryFixture.frame(sequence, in: a) }
    private func live(_ sequence: Int64) -> Outgoing { DeliveryFixture.live(sequence, in: a) }

    /// A machine past hello and its replay, with `delivered` delivered.
    private func streaming(_ delivered: Machine.Delivered, limit: Int = 8) -> Machine {
        var machine = Machine(limit: limit)
        #expect(machine.enqueue(.start(since: [:])) == .drain)
        #expect(machine.drain(writable: true) == .writeAndStart([], .replay(since: [:], delivered: [:], early: [])))
        #expect(machine.storeJobDone(.delivered(delivered), writable: true) == .none)
        #expect(machine.state == .streaming(delivered, .idle))
        return machine
    }

    @Test("Messages that come before hello wait; frames do not; at hello the replay takes the messages, to follow it in order")
    func beforeHello() {
        var machine = Machine(limit: 8)
        #expect(machine.enqueue(.frame("welcome")) == .drain)
        #expect(machine.enqueue(live(5)) == .queued, "a drain is due already")
        #expect(machine.enqueue(.message(stored(6), frame: nil)) == .queued)
        #expect(machine.drain(writable: true) == .write(["welcome"]))
        #expect(machine.drain(writable: true) == .none)
        #expect(machine.waiting == 0, "the messages wait for hello, outside the queue")
        #expect(machine.enqueue(.start(since: ["x": 4])) == .drain)
        let early = [Machine.EarlyMessage(message: stored(5), frame: frame(5)), Machine.EarlyMessage(message: stored(6), frame: nil)]
        #expect(machine.drain(writable: true) == .writeAndStart([], .replay(since: ["x": 4], delivered: [:], early: early)))
        #expect(machine.state == .replaying)
    }

    @Test("A message delivered already is skipped; the next in sequence goes out")
    func duplicateSkipped() {
        var machine = streaming([a: 3])
        for sequence: Int64 in [2, 3, 4, 4] { _ = machine.enqueue(live(sequence)) }
        #expect(machine.drain(writable: true) == .write([frame(4)]))
        #expect(machine.drain(writable: true) == .none)
        #expect(machine.state == .streaming([a: 4], .idle))
    }

    @Test("A message after a gap goes to the store with what was delivered; what comes meanwhile waits and follows it")
    func gapAsksTheStore() {
        var machine = streaming([a: 3])
        #expect(machine.enqueue(.frame("before")) == .drain)
        #expect(machine.enqueue(live(5)) == .queued)
        #expect(machine.enqueue(.frame("after")) == .queued)
        #expect(machine.drain(writable: true) == .writeAndStart(["before"], .deliver(stored(5), frame: frame(5), delivered: [a: 3])))
        #expect(machine.state == .waitingForStore)
        #expect(machine.enqueue(live(6)) == .queued)
        #expect(machine.drain(writable: true) == .none, "nothing is written while the store job runs")
        #expect(machine.waiting == 2)
        #expect(machine.storeJobWrites([frame(4), frame(5)]) == .write([frame(4), frame(5)]))
        #expect(machine.storeJobDone(.delivered([a: 5]), writable: true) == .write(["after", frame(6)]))
        #expect(machine.drain(writable: true) == .none)
    }

    @Test("A message drawn for each viewer goes to the store even in sequence; one of a conversation not seen yet goes out")
    func drawnPerViewer() {
        var machine = streaming([a: 3])
        let b = ConversationID()
        _ = machine.enqueue(DeliveryFixture.live(9, in: b))
        _ = machine.enqueue(.message(stored(4), frame: nil))
        #expect(machine.drain(writable: true)
            == .writeAndStart([DeliveryFixture.frame(9, in: b)], .deliver(stored(4), frame: nil, delivered: [a: 3, b: 9])))
    }

    @Test("Past the queue limit the connection is cut off with 1013; it takes nothing more and stays cut off when the channel closes")
    func overTheLimit() {
        var machine = streaming([a: 0], limit: 2)
        #expect(machine.enqueue(live(1)) == .drain)
        #expect(machine.drain(writable: false) == .none, "the socket takes no more")
        #expect(machine.enqueue(live(2)) == .queued)
        #expect(machine.enqueue(live(3)) == .close(.fellBehind))
        #expect(Machine.CloseFrame.fellBehind == .init(code: 1013, reason: "Too far behind; reconnect to catch up."))
        #expect(machine.hasFallenBehind)
        #expect(machine.isClosed)
        #expect(machine.waiting == 0, "what waited is dropped")
        #expect(machine.enqueue(live(4)) == .refused)
        #expect(machine.writable() == .none)
        machine.channelClosed()
        #expect(machine.hasFallenBehind, "counted as a slow consumer when it is unregistered")
    }

    @Test("A client that never says hello is cut off once more messages than the limit wait for it")
    func silentClient() {
        var machine = Machine(limit: 2)
        #expect(machine.enqueue(live(1)) == .drain)
        #expect(machine.enqueue(live(2)) == .queued)
        #expect(machine.drain(writable: true) == .write([]))
        #expect(machine.drain(writable: true) == .none)
        #expect(machine.enqueue(.frame("pong")) == .drain)
        #expect(machine.enqueue(live(3)) == .queued)
        #expect(machine.drain(writable: true) == .writeAndClose(["pong"], .fellBehind))
        #expect(machine.hasFallenBehind)
    }

    @Test("After close nothing is written: not what waited, not a due drain, not a store job's frames")
    func closeStopsWrites() {
        var machine = streaming([a: 0])
        #expect(machine.enqueue(live(1)) == .drain)
        let bye = Machine.CloseFrame(code: 1001, reason: "The server is shutting down; reconnecting shortly.")
        #expect(machine.close(bye) == .writeAndClose([], bye))
        #expect(machine.drain(writable: true) == .none, "the drain that was due writes nothing")
        #expect(machine.enqueue(live(2)) == .refused)
        #expect(machine.writable() == .none)
        #expect(machine.close(bye) == .none, "one close frame")
        #expect(machine.cutOff() == .none)
        #expect(machine.isClosed)
        #expect(!machine.hasFallenBehind)

        var replaying = Machine(limit: 8)
        _ = replaying.enqueue(.start(since: [:]))
        _ = replaying.drain(writable: true)
        #expect(replaying.close(bye) == .writeAndClose([], bye))
        #expect(replaying.storeJobWrites([frame(1)]) == .none, "the replay's frames are refused: the job stops")
        #expect(replaying.storeJobDone(.failed, writable: true) == .none, "no second close frame")
        #expect(!replaying.hasFallenBehind)
    }

    @Test("The channel gone during a replay: the job's frames are refused, its end writes nothing, and the connection is not counted as fallen behind")
    func channelClosedDuringReplay() {
        var machine = Machine(limit: 8)
        _ = machine.enqueue(.start(since: [:]))
        _ = machine.drain(writable: true)
        #expect(machine.state == .replaying)
        #expect(machine.enqueue(live(1)) == .queued)
        machine.channelClosed()
        #expect(machine.state == .closed)
        #expect(machine.waiting == 0, "what waited is dropped")
        #expect(machine.storeJobWrites([frame(1)]) == .none, "the job stops at its next page")
        #expect(machine.storeJobDone(.failed, writable: false) == .none, "no close frame on a channel that is gone")
        #expect(machine.isClosed)
        #expect(!machine.hasFallenBehind, "not a slow consumer")
        #expect(machine.enqueue(live(2)) == .refused)
    }

    @Test("While the socket takes no more, items wait without asking for a drain; writable again, they go out in order")
    func pausedResumes() {
        var machine = streaming([a: 0])
        #expect(machine.writable() == .none, "not paused")
        #expect(machine.enqueue(live(1)) == .drain)
        #expect(machine.drain(writable: false) == .none)
        #expect(machine.state == .streaming([a: 0], .paused))
        #expect(machine.enqueue(.frame("f")) == .queued)
        #expect(machine.enqueue(live(2)) == .queued)
        #expect(machine.waiting == 3)
        #expect(machine.writable() == .write([frame(1), "f", frame(2)]))
        #expect(machine.drain(writable: true) == .none)
        #expect(machine.enqueue(live(3)) == .drain, "idle again")
    }

    @Test("A store job that fails cuts the connection off with 1011 and drops what waited")
    func storeFailure() {
        var machine = streaming([a: 3])
        _ = machine.enqueue(live(5))
        _ = machine.enqueue(live(6))
        _ = machine.drain(writable: true)
        #expect(machine.state == .waitingForStore)
        #expect(machine.storeJobDone(.failed, writable: true) == .writeAndClose([], .storeFailed))
        #expect(Machine.CloseFrame.storeFailed == .init(code: 1011, reason: "The server could not send what you missed; reconnect to catch up."))
        #expect(machine.waiting == 0)
        #expect(machine.isClosed)
        #expect(machine.hasFallenBehind)
        #expect(machine.enqueue(live(7)) == .refused)
    }

    @Test("What comes during a replay waits, counts toward the limit, and goes out after it in order")
    func duringReplay() {
        var machine = Machine(limit: 4)
        _ = machine.enqueue(.start(since: [:]))
        _ = machine.drain(writable: true)
        #expect(machine.state == .replaying)
        #expect(machine.enqueue(live(1)) == .queued)
        #expect(machine.enqueue(.frame("f")) == .queued)
        #expect(machine.enqueue(live(2)) == .queued)
        #expect(machine.drain(writable: true) == .none)
        #expect(machine.writable() == .none)
        #expect(machine.storeJobWrites(["replayed"]) == .write(["replayed"]))
        #expect(machine.storeJobDone(.delivered([a: 0]), writable: true) == .write([frame(1), "f", frame(2)]))
        #expect(machine.drain(writable: true) == .none)

        var full = Machine(limit: 2)
        _ = full.enqueue(.start(since: [:]))
        _ = full.drain(writable: true)
        _ = full.enqueue(live(1))
        _ = full.enqueue(live(2))
        #expect(full.enqueue(live(3)) == .close(.fellBehind))
    }

    @Test("A replay that ends while the socket takes no more leaves what waited for writable")
    func replayEndsUnwritable() {
        var machine = Machine(limit: 4)
        _ = machine.enqueue(.start(since: [:]))
        _ = machine.drain(writable: true)
        _ = machine.enqueue(live(1))
        #expect(machine.storeJobDone(.delivered([a: 0]), writable: false) == .none)
        #expect(machine.state == .streaming([a: 0], .paused))
        #expect(machine.writable() == .write([frame(1)]))
    }

    @Test("Another hello replays again from what was delivered")
    func secondHello() {
        var machine = streaming([a: 2])
        _ = machine.enqueue(live(3))
        _ = machine.enqueue(.start(since: ["x": 1]))
        #expect(machine.drain(writable: true) == .writeAndStart([frame(3)], .replay(since: ["x": 1], delivered: [a: 3], early: [])))
    }
}
