import Foundation
@testable import ParlorHost
import ParlorKit
import Testing

@Suite("AppInstance failures and session conflicts")
struct FailureAndRebaseTests {
    @Test("A hook that throws leaves the state unchanged, reports the error, and the instance keeps working")
    func throwingHook() async throws {
        let harness = Harness()
        let app = harness.app { name, state, _ in
            if name == "didSelect" {
                state.count += 50
                throw RecordingApp.Crash()
            }
        }
        let instance = harness.instance(app)
        _ = await instance.openFromDrawer()
        let update = await instance.tap(harness.message())
        #expect(update.errorCode == .unknown)
        #expect(update.count == "count 0")
        #expect(update.error?.detail.contains("didSelect") == true)
        #expect(update.error?.cause == .app, "the app's own code threw")
        #expect(harness.log.names.suffix(2) == ["willTransition", "didTransition"])

        let next = await instance.perform(.action(try update.action("Increment")))
        #expect(next.error == nil)
        #expect(next.count == "count 1")
    }

    @Test("An action that throws leaves the state unchanged; the error clears on the next call")
    func throwingAction() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let crashed = await instance.perform(.action(try opened.action("Crash")))
        #expect(crashed.errorCode == .unknown)
        #expect(crashed.count == "count 0")
        #expect(crashed.isActive)
        let next = await instance.perform(.action(try crashed.action("Increment")))
        #expect(next.error == nil)
        #expect(next.count == "count 1")
    }

    @Test("A MessagesError thrown by the app reaches the user with its code and message")
    func appMessagesError() async {
        let harness = Harness()
        let app = harness.app { name, _, _ in
            if name == "willBecomeActive" { throw MessagesError(.actionRefused, "That square is taken.") }
        }
        let update = await harness.instance(app).openFromDrawer()
        #expect(update.error?.error == MessagesError(.actionRefused, "That square is taken."))
        #expect(harness.log.names == ["willBecomeActive", "didBecomeActive"])
        #expect(update.isActive)
    }

    @Test("A send refused as a stale head is re-run on the new head, with the state as before the action")
    func rebase() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let session = Session()
        let oldHead = harness.message(session: session, count: 1), newHead = harness.message(session: session, count: 2)
        let opened = await instance.tap(oldHead)
        harness.host.refuseNextSends(withHeads: [newHead])
        harness.log.clear()

        let update = await instance.perform(.action(try opened.action("Send")))
        #expect(update.error == nil)
        let runs = harness.log.all.filter { $0.name == "handle(sendUpdate)" }
        #expect(runs.map(\.selected) == [oldHead.id, newHead.id])
        #expect(harness.host.sendAttempts.map(\.replacing) == [oldHead.id, newHead.id])
        #expect(harness.host.sent.count == 1)
        #expect(harness.host.sent.first?.session == session)
        #expect(update.count == "count 1")
    }

    @Test("A burst of conflicts is absorbed: each re-run builds on the newer head, as many times as others got in first")
    func rebaseAbsorbsBurst() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let session = Session()
        let heads = (2...11).map { harness.message(session: session, count: $0) }
        let first = harness.message(session: session, count: 1)
        let opened = await instance.tap(first)
        harness.host.refuseNextSends(withHeads: heads)
        harness.log.clear()

        let update = await instance.perform(.action(try opened.action("Send")))
        #expect(update.error == nil)
        #expect(harness.host.sendAttempts.map(\.replacing) == [first.id] + heads.map(\.id))
        #expect(harness.host.sent.count == 1)
    }

    @Test("A send that never stops conflicting gives up after 32 tries with sessionConflict and the state unchanged")
    func rebaseGivesUp() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let session = Session()
        let heads = (2...40).map { harness.message(session: session, count: $0) }
        let opened = await instance.tap(harness.message(session: session, count: 1))
        harness.host.refuseNextSends(withHeads: Array(heads.prefix(32)))
        harness.log.clear()

        let update = await instance.perform(.action(try opened.action("Send")))
        #expect(harness.log.names.filter { $0 == "handle(sendUpdate)" }.count == 32)
        #expect(harness.host.sendAttempts.count == 32)
        #expect(harness.host.sent.isEmpty)
        #expect(update.errorCode == .sessionConflict)
        #expect(update.count == "count 0")

        // The user can try again; the instance already knows the newest head.
        let retried = await instance.perform(.action(try update.action("Send")))
        #expect(retried.error == nil)
        #expect(harness.host.sendAttempts.last?.replacing == heads[31].id)
        #expect(harness.host.sent.count == 1)
        #expect(retried.count == "count 1")
    }

    @Test("Two concurrent calls do not interleave: the second waits for the first to finish")
    func serialized() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let slow = try opened.action("Slow"), fast = try opened.action("Fast")

        let first = Task { await instance.perform(.action(slow)) }
        try await waitUntil { harness.log.names.contains("slow started") }
        let second = Task { await instance.perform(.action(fast)) }
        // The second call either waits its turn or (were calls to interleave) runs at once.
        try await waitUntil { await instance.waitingCalls == 1 || harness.log.names.contains("fast") }
        #expect(!harness.log.names.contains("fast"))

        await harness.gate.open()
        _ = await first.value
        let last = await second.value
        #expect(harness.log.names.filter { !$0.hasPrefix("handle") }.suffix(3) == ["slow started", "slow finished", "fast"])
        #expect(last.count == "count 2")
    }
}
