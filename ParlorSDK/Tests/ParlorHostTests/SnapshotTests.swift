import Foundation
@testable import ParlorHost
import ParlorKit
import Synchronization
import Testing

@Suite("AppInstance snapshots")
struct SnapshotTests {
    @Test("A new instance made from a snapshot resumes the same state, style and selection, and takes actions at once")
    func resume() async throws {
        let harness = Harness()
        let original = harness.instance()
        let first = harness.message()
        var update = await original.tap(first)
        for _ in 0..<2 { update = await original.perform(.action(try update.action("Increment"))) }
        let snapshot = await original.snapshot()
        #expect(snapshot.isActive)
        #expect(snapshot.presentationStyle == .expanded)
        #expect(snapshot.selectedMessage == first)

        let wire = try JSONDecoder().decode(InstanceSnapshot.self, from: try JSONEncoder().encode(snapshot))
        #expect(wire == snapshot)

        let resumed = harness.instance(snapshot: wire)
        let current = await resumed.current()
        #expect(current.isActive)
        #expect(current.presentationStyle == .expanded)
        #expect(current.count == "count 2")
        #expect(current.error == nil)

        let next = await resumed.perform(.action(try update.action("Increment")))
        #expect(next.error == nil)
        #expect(next.count == "count 3")

        harness.log.clear()
        _ = await resumed.tap(harness.message())
        #expect(harness.log.all.first?.name == "willSelect")
        #expect(harness.log.all.first?.selected == first.id)
    }

    @Test("The same snapshot encodes to the same bytes every time, so a host can skip saving one that did not change")
    func stableEncoding() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let first = harness.message()
        _ = await instance.tap(first)
        var encodings: [Data] = []
        for _ in 0..<20 { encodings.append(try await instance.snapshot().encoded()) }
        #expect(Set(encodings).count == 1, "JSONEncoder's key order varies between calls unless sorted")
        #expect(try JSONDecoder().decode(InstanceSnapshot.self, from: encodings[0]) == (await instance.snapshot()))
    }

    @Test("Each call shows its answer, then saves its snapshot before the next call's app code runs")
    func savedBeforeTheNextCall() async throws {
        let harness = Harness()
        let saves = SaveLog()
        let shown = Mutex<[String?]>([])
        let instance = harness.instance(save: saves.recorder, show: { update in shown.withLock { $0.append(update.count) } })
        let opened = await instance.openFromDrawer()
        let (increment, crash) = (try opened.action("Increment"), try opened.action("Crash"))
        await saves.holdNext()
        async let incremented = instance.perform(.action(increment))
        await saves.waitUntilHolding()
        #expect(shown.withLock { $0 } == ["count 0", "count 1"], "the answer is shown while its save still runs")
        async let crashed = instance.perform(.action(crash))
        // The crash either waits its turn or (were the save not waited for) runs at once.
        try await waitUntil { await instance.waitingCalls == 1 || harness.log.names.contains("handle(crash)") }
        #expect(harness.log.names.filter { $0.hasPrefix("handle") } == ["handle(increment)"],
                "the next call waits until the save of the one before has finished")
        #expect(shown.withLock { $0 }.count == 2, "nor is its answer shown")
        await saves.release()
        #expect(await incremented.count == "count 1")
        #expect(await crashed.errorCode == .unknown)
        #expect(await saves.entries.map(\.count) == [0, 1, 1])
        #expect(await saves.entries.map(\.failed) == [false, false, false], "the crash sent nothing: its state is not older than a message")
    }

    @Test("A save says when the state is older than a message the call sent: a hook that sent then threw, not a send re-run after a conflict")
    func olderThanItsMessage() async throws {
        let harness = Harness()
        let failAfterSending = Mutex(false)
        let app = harness.app { name, state, context in
            guard name == "handle", failAfterSending.withLock({ $0 }) else { return }
            _ = try await context.conversation.send(RecordingApp.message(in: nil, count: 99))
            throw RecordingApp.Crash()
        }
        let saves = SaveLog()
        let instance = harness.instance(app, save: saves.recorder)
        let session = Session()
        let oldHead = harness.message(session: session, count: 1), newHead = harness.message(session: session, count: 2)
        let opened = await instance.tap(oldHead)

        harness.host.refuseNextSends(withHeads: [newHead])
        let rebased = await instance.perform(.action(try opened.action("Send")))
        #expect(rebased.error == nil)
        #expect(await saves.entries.last?.failed == false, "the re-run's send returned: its state has its message")

        failAfterSending.withLock { $0 = true }
        let failed = await instance.perform(.action(try rebased.action("Increment")))
        #expect(failed.errorCode == .unknown)
        #expect(harness.host.sent.count == 2)
        #expect(await saves.entries.last?.failed == true, "the state is from before the message it sent")

        failAfterSending.withLock { $0 = false }
        let crashed = await instance.perform(.action(try failed.action("Crash")))
        #expect(crashed.errorCode == .unknown)
        #expect(await saves.entries.last?.failed == false, "a later call that sent nothing: the state the person sees")
    }

    @Test("settle returns once the call running now has ended and saved, and passes the lock on")
    func settleWaitsForTheRunningCall() async throws {
        let harness = Harness()
        let saves = SaveLog()
        let instance = harness.instance(save: saves.recorder)
        let opened = await instance.openFromDrawer()
        let slow = try opened.action("Slow")
        async let slowed = instance.perform(.action(slow))
        try await waitUntil { harness.log.names.contains("slow started") }
        let returned = Mutex(false)
        let settled = Task {
            await instance.settle()
            returned.withLock { $0 = true }
            return await saves.entries.count
        }
        // settle either waits its turn or (were it not to wait) returns at once.
        try await waitUntil { await instance.waitingCalls == 1 || returned.withLock { $0 } }
        let returnedEarly = returned.withLock { $0 }
        #expect(!returnedEarly, "settle waits while the slow call runs")
        #expect(await saves.entries.count == 1, "only the opening is saved while the slow call runs")
        await harness.gate.open()
        #expect(await settled.value == 2, "settle returned after the slow call's save")
        #expect(await slowed.count == "count 1")
        let next = await instance.perform(.action(try opened.action("Increment")))
        #expect(next.count == "count 2", "the lock was passed on")
    }

    @Test("A snapshot of a closed instance resumes closed")
    func resumeClosed() async throws {
        let harness = Harness()
        let original = harness.instance()
        let opened = await original.openFromDrawer()
        _ = await original.perform(.action(try opened.action("Increment")))
        _ = await original.dismiss()
        let resumed = harness.instance(snapshot: await original.snapshot())
        let current = await resumed.current()
        #expect(!current.isActive)
        #expect(current.view == .empty)
        let reopened = await resumed.openFromDrawer()
        #expect(reopened.count == "count 1")
    }

    @Test("An undecodable snapshot starts afresh and reports it, and the instance works", arguments: [
        Data("not json".utf8), Data(#"{"count":"many"}"#.utf8), Data(),
    ])
    func undecodable(_ state: Data) async throws {
        let harness = Harness()
        let snapshot = InstanceSnapshot(state: state, isActive: true, presentationStyle: .expanded, selectedMessage: harness.message(), modal: "details")
        let instance = harness.instance(snapshot: snapshot)
        let current = await instance.current()
        #expect(current.errorCode == .invalidValue)
        #expect(!current.isActive)

        let opened = await instance.openFromDrawer()
        #expect(opened.errorCode == .invalidValue, "the first call's update still tells the user")
        #expect(opened.isActive)
        #expect(opened.presentationStyle == .compact)
        #expect(opened.count == "count 0")
        #expect(harness.log.all.allSatisfy { $0.selected == nil })

        let next = await instance.perform(.action(try opened.action("Increment")))
        #expect(next.error == nil)
        #expect(next.count == "count 1")
    }
}

/// The saves an instance asked for, in order; can hold the next one until released.
private actor SaveLog {
    private(set) var entries: [(count: Int, failed: Bool)] = []
    private var holding = false
    private var held: CheckedContinuation<Void, Never>?
    private var holdingWaiter: CheckedContinuation<Void, Never>?

    /// What an instance calls to save, recorded here.
    nonisolated var recorder: InstanceConfiguration.Save { { snapshot, older in await self.save(snapshot, failed: older) } }

    func save(_ snapshot: InstanceSnapshot, failed: Bool) async {
        let state = try? JSONDecoder().decode(RecordingApp.State.self, from: snapshot.state)
        entries.append((state?.count ?? -1, failed))
        guard holding else { return }
        holding = false
        await withCheckedContinuation { continuation in
            held = continuation
            holdingWaiter?.resume()
            holdingWaiter = nil
        }
    }

    func holdNext() { holding = true }

    func waitUntilHolding() async {
        guard held == nil else { return }
        await withCheckedContinuation { holdingWaiter = $0 }
    }

    func release() {
        held?.resume()
        held = nil
    }
}
