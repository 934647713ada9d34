import Foundation
import ParlorHost
import ParlorKit
import Testing

@Suite("AppInstance lifecycle order")
struct LifecycleTests {
    @Test("Opening from the drawer: willBecomeActive, didBecomeActive, compact, nothing selected")
    func openFromDrawer() async {
        let harness = Harness()
        let update = await harness.instance().openFromDrawer()
        #expect(harness.log.names == ["willBecomeActive", "didBecomeActive"])
        #expect(harness.log.all.allSatisfy { $0.style == .compact && $0.selected == nil })
        #expect(update.isActive)
        #expect(update.presentationStyle == .compact)
        #expect(update.count == "count 0")
        #expect(update.error == nil)
    }

    @Test("Opening from the drawer again while open runs no hook")
    func openTwice() async {
        let harness = Harness()
        let instance = harness.instance()
        _ = await instance.openFromDrawer()
        harness.log.clear()
        let update = await instance.openFromDrawer()
        #expect(harness.log.names.isEmpty)
        #expect(update.isActive)
    }

    @Test("Tapping a message while inactive: the same two hooks, expanded, the message already selected")
    func tapWhileInactive() async {
        let harness = Harness()
        let message = harness.message()
        let update = await harness.instance().tap(message)
        #expect(harness.log.names == ["willBecomeActive", "didBecomeActive"])
        #expect(harness.log.all.allSatisfy { $0.style == .expanded && $0.selected == message.id })
        #expect(update.presentationStyle == .expanded)
    }

    @Test("Tapping a message while active in compact: willSelect sees the old selection, then didSelect, willTransition, didTransition")
    func tapWhileActiveCompact() async {
        let harness = Harness()
        let instance = harness.instance()
        let first = harness.message(), second = harness.message()
        _ = await instance.tap(first)
        _ = await instance.changeStyle(to: .compact)
        harness.log.clear()

        let update = await instance.tap(second)
        let calls = harness.log.all
        #expect(calls.map(\.name) == ["willSelect", "didSelect", "willTransition", "didTransition"])
        guard calls.count == 4 else { return }
        #expect(calls[0].argument == second.id.description && calls[0].selected == first.id)
        #expect(calls[1].argument == second.id.description && calls[1].selected == second.id)
        #expect(calls[2].argument == "expanded" && calls[2].style == .compact)
        #expect(calls[3].argument == "expanded" && calls[3].style == .expanded)
        #expect(update.presentationStyle == .expanded)
    }

    @Test("Tapping a message while already expanded selects it without a transition")
    func tapWhileExpanded() async {
        let harness = Harness()
        let instance = harness.instance()
        let first = harness.message(), second = harness.message()
        _ = await instance.tap(first)
        harness.log.clear()
        let update = await instance.tap(second)
        #expect(harness.log.names == ["willSelect", "didSelect"])
        #expect(harness.log.all.first?.selected == first.id)
        #expect(update.presentationStyle == .expanded)
    }

    @Test("Opening from the drawer after a tap forgets the selected message")
    func drawerClearsSelection() async {
        let harness = Harness()
        let instance = harness.instance()
        _ = await instance.tap(harness.message())
        _ = await instance.dismiss()
        harness.log.clear()
        _ = await instance.openFromDrawer()
        #expect(harness.log.all.allSatisfy { $0.selected == nil && $0.style == .compact })
    }

    @Test("Dismissing: willResignActive, didResignActive, and the view is empty")
    func dismiss() async {
        let harness = Harness()
        let instance = harness.instance()
        _ = await instance.openFromDrawer()
        harness.log.clear()
        let update = await instance.dismiss()
        #expect(harness.log.names == ["willResignActive", "didResignActive"])
        #expect(!update.isActive)
        #expect(update.view == .empty)
        harness.log.clear()
        _ = await instance.dismiss()
        #expect(harness.log.names.isEmpty)
    }

    @Test("The user switching style runs the transition hooks once; the same style runs none")
    func userTransitions() async {
        let harness = Harness()
        let instance = harness.instance()
        _ = await instance.openFromDrawer()
        harness.log.clear()
        _ = await instance.changeStyle(to: .compact)
        #expect(harness.log.names.isEmpty)
        let update = await instance.changeStyle(to: .expanded)
        #expect(harness.log.all.map(\.description) == ["willTransition(expanded)", "didTransition(expanded)"])
        #expect(update.presentationStyle == .expanded)
        harness.log.clear()
        let refused = await instance.changeStyle(to: .transcript)
        #expect(harness.log.names.isEmpty)
        #expect(refused.presentationStyle == .expanded)
    }

    @Test("A hook's requestPresentationStyle runs the transition hooks after it")
    func requestFromHook() async {
        let harness = Harness()
        let app = harness.app { name, _, context in
            if name == "didBecomeActive" { try context.requestPresentationStyle(.expanded) }
        }
        let update = await harness.instance(app).openFromDrawer()
        #expect(harness.log.all.map(\.description) == [
            "willBecomeActive()", "didBecomeActive()", "willTransition(expanded)", "didTransition(expanded)",
        ])
        #expect(update.presentationStyle == .expanded)
        #expect(update.error == nil)
    }

    @Test("Requesting the transcript style is refused as apiUnavailableInPresentationContext")
    func requestTranscript() async {
        let harness = Harness()
        let app = harness.app { name, state, context in
            if name == "didBecomeActive" {
                state.count = 42
                try context.requestPresentationStyle(.transcript)
            }
        }
        let update = await harness.instance(app).openFromDrawer()
        #expect(update.errorCode == .apiUnavailableInPresentationContext)
        #expect(update.presentationStyle == .compact)
        #expect(update.count == "count 0")
        #expect(!harness.log.names.contains("willTransition"))
    }

    @Test("Hooks that keep requesting the other style stop after a bounded chain")
    func requestLoop() async {
        let harness = Harness()
        let app = harness.app { name, _, context in
            if name == "didTransition" || name == "didBecomeActive" {
                try context.requestPresentationStyle(context.presentationStyle == .compact ? .expanded : .compact)
            }
        }
        let update = await harness.instance(app).openFromDrawer()
        let transitions = harness.log.names.filter { $0 == "didTransition" }.count
        #expect(transitions >= 1 && transitions <= 10)
        #expect(update.isActive)
    }

    @Test("A hook's dismiss() resigns the app once the hook returns")
    func dismissFromHook() async {
        let harness = Harness()
        let app = harness.app { name, _, context in
            if name == "didBecomeActive" { context.dismiss() }
        }
        let update = await harness.instance(app).openFromDrawer()
        #expect(harness.log.names == ["willBecomeActive", "didBecomeActive", "willResignActive", "didResignActive"])
        #expect(!update.isActive)
        #expect(update.view == .empty)
    }

    @Test("didReceive runs only while the app is active and not drawn in a bubble")
    func didReceive() async {
        let harness = Harness()
        let instance = harness.instance()
        let incoming = harness.message()
        _ = await instance.receive(incoming)
        #expect(harness.log.names.isEmpty)
        _ = await instance.openFromDrawer()
        harness.log.clear()
        _ = await instance.receive(incoming)
        #expect(harness.log.all.map(\.description) == ["didReceive(\(incoming.id))"])
        harness.log.clear()
        _ = await instance.dismiss()
        harness.log.clear()
        _ = await instance.receive(incoming)
        #expect(harness.log.names.isEmpty)

        let bubble = harness.instance()
        _ = await bubble.openInTranscript(harness.message())
        harness.log.clear()
        _ = await bubble.receive(incoming)
        #expect(harness.log.names.isEmpty)
    }

    @Test("didStartSending and didCancelSending reach an active app with the message")
    func sendingHooks() async {
        let harness = Harness()
        let instance = harness.instance()
        let message = harness.message()
        _ = await instance.didStartSending(message)
        _ = await instance.didCancelSending(message)
        #expect(harness.log.names.isEmpty)
        _ = await instance.openFromDrawer()
        harness.log.clear()
        _ = await instance.didStartSending(message)
        _ = await instance.didCancelSending(message)
        #expect(harness.log.all.map(\.description) == ["didStartSending(\(message.id))", "didCancelSending(\(message.id))"])
    }

    @Test("Send callbacks never fire in transcript style")
    func sendingHooksInTranscript() async {
        let harness = Harness()
        let bubble = harness.instance()
        let message = harness.message()
        _ = await bubble.openInTranscript(message)
        #expect(harness.log.all.allSatisfy { $0.style == .transcript })
        harness.log.clear()
        _ = await bubble.didStartSending(message)
        _ = await bubble.didCancelSending(message)
        #expect(harness.log.names.isEmpty)
    }

    @Test("The user closing a modal clears it")
    func modal() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let presented = await instance.perform(.action(try opened.action("Modal")))
        #expect(presented.modal == "details")
        let closed = await instance.perform(.dismissModal)
        #expect(closed.modal == nil)
    }
}
