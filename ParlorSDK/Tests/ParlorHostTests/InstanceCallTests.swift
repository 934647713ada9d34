import Foundation
@testable import ParlorHost
import ParlorKit
import Synchronization
import Testing

/// How an instance runs its calls: in turn, and knowing what each call learned about the app.
@Suite("AppInstance calls")
struct InstanceCallTests {
    @Test("Calls that come while one is held run after it, one by one, in the order they came")
    func inTheOrderTheyCame() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let held = Task { await instance.perform(.action(try opened.action("Slow"))) }
        try await waitUntil { harness.log.names.contains("slow started") }
        var queued: [Task<InstanceUpdate, any Error>] = []
        for (index, label) in ["Fast", "Increment", "Modal"].enumerated() {
            queued.append(Task { await instance.perform(.action(try opened.action(label))) })
            // Each arrives once the one before waits, so the order they came in is known.
            try await waitUntil { await instance.waitingCalls == index + 1 }
        }
        #expect(harness.log.names.filter { $0.hasPrefix("handle") } == ["handle(slow)"], "none ran beside the held call")

        await harness.gate.open()
        _ = try await held.value
        var updates: [InstanceUpdate] = []
        for call in queued { updates.append(try await call.value) }
        #expect(harness.log.names.filter { $0.hasPrefix("handle") } == ["handle(slow)", "handle(fast)", "handle(increment)", "handle(showModal)"])
        #expect(updates.map(\.count) == ["count 2", "count 3", "count 3"])
        #expect(updates.last?.modal == "details")
        #expect(await instance.waitingCalls == 0)
    }

    @Test("A hook that finds the app unreachable ends its call's hooks and drawing; the next call tries the app again")
    func unreachableForOneCall() async throws {
        let harness = Harness()
        let gone = Mutex(true)
        let app = harness.app { name, _, _ in
            if name == "willBecomeActive", gone.withLock({ $0 }) { throw MessagesError(.appUnavailable, "Recorder is not responding; try again.") }
        }
        let instance = harness.instance(app)
        let opened = await instance.openFromDrawer()
        #expect(harness.log.names == ["willBecomeActive"], "didBecomeActive is not tried")
        #expect(opened.errorCode == .appUnavailable)
        #expect(opened.error?.detail.hasPrefix("willBecomeActive: ") == true)
        #expect(opened.isActive)
        #expect(opened.view == .empty, "not drawn: the last view stays")

        gone.withLock { $0 = false }
        harness.log.clear()
        let expanded = await instance.changeStyle(to: .expanded)
        #expect(harness.log.names == ["willTransition", "didTransition"])
        #expect(expanded.error == nil)
        #expect(expanded.count == "count 0", "drawn again")
    }

    @Test("An app that closes and asks for a modal in one hook is closed with no modal")
    func noModalWhileClosed() async throws {
        let harness = Harness()
        let app = harness.app { name, _, context in
            if name == "didBecomeActive" {
                context.dismiss()
                context.present(modal: "details")
            }
        }
        let instance = harness.instance(app)
        let update = await instance.openFromDrawer()
        #expect(!update.isActive)
        #expect(update.modal == nil)
        #expect(await instance.snapshot().modal == nil)
    }

    @Test("A sticker the host refuses to insert is reported as the sticker's failure, not a hook's")
    func stickerFailureNamed() async throws {
        let harness = Harness()
        let instance = harness.instance()
        _ = await instance.openHome()
        let update = await instance.perform(.insertSticker(RecordingApp.sticker.id))
        #expect(update.errorCode == .apiUnavailableInPresentationContext)
        #expect(update.error?.detail.hasPrefix("insertSticker: ") == true)
    }
}
