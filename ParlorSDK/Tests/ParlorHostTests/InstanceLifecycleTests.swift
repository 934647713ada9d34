import Foundation
@testable import ParlorHost
import ParlorKit
import Testing

/// The lifecycle of an instance as a value, driven step by step with no app and no hook.
@Suite("An instance's lifecycle")
struct InstanceLifecycleTests {
    typealias Lifecycle = InstanceLifecycle

    private let message = Message(
        session: Session(), url: URL(string: "https://parlor.example/a"), layout: .template(TemplateLayout(caption: "A")), summaryText: "A")

    @Test("A new instance is closed, last shown compact, nothing selected: no interaction, no transition")
    func new() {
        let lifecycle = Lifecycle()
        #expect(lifecycle.state == .inactive(last: .compact))
        #expect(!lifecycle.isActive)
        #expect(!lifecycle.isInteractive)
        #expect(lifecycle.selectedMessage == nil)
        #expect(!lifecycle.allowsTransition(to: .expanded))
    }

    @Test("Becoming active shows the style with no modal; compact and expanded take events, a bubble does not")
    func becomeActive() {
        let cases: [(PresentationStyle, Lifecycle.State, interactive: Bool)] = [
            (.compact, .compact(modal: nil), true),
            (.expanded, .expanded(modal: nil), true),
            (.transcript, .transcript, false),
        ]
        for (style, state, interactive) in cases {
            var lifecycle = Lifecycle()
            lifecycle.becomeActive(style)
            #expect(lifecycle.state == state)
            #expect(lifecycle.isActive)
            #expect(lifecycle.style == style)
            #expect(lifecycle.isInteractive == interactive)
        }
    }

    @Test("A transition goes between compact and expanded only, keeping the modal; never to or from a bubble, nor to the same style")
    func transitions() {
        var lifecycle = Lifecycle()
        lifecycle.becomeActive(.compact)
        lifecycle.present(modal: "details")
        #expect(!lifecycle.allowsTransition(to: .compact), "the same style")
        #expect(!lifecycle.allowsTransition(to: .transcript), "an app cannot be moved into a bubble")
        #expect(lifecycle.allowsTransition(to: .expanded))
        lifecycle.transition(to: .expanded)
        #expect(lifecycle.state == .expanded(modal: "details"))

        var bubble = Lifecycle()
        bubble.becomeActive(.transcript)
        #expect(!bubble.allowsTransition(to: .expanded))
        #expect(!bubble.allowsTransition(to: .compact))
    }

    @Test("A modal shows only while open in compact or expanded: a closed app or a bubble presents none")
    func modalOnlyWhileInteractive() {
        var closed = Lifecycle()
        closed.present(modal: "details")
        #expect(closed.modal == nil)
        #expect(closed.state == .inactive(last: .compact))

        var bubble = Lifecycle()
        bubble.becomeActive(.transcript)
        bubble.present(modal: "details")
        #expect(bubble.state == .transcript)

        var open = Lifecycle()
        open.becomeActive(.expanded)
        open.present(modal: "details")
        #expect(open.modal == "details")
        open.dismissModal()
        #expect(open.state == .expanded(modal: nil))
    }

    @Test("Resigning closes the app and drops its modal, keeping its style and selection; opening again drops the old modal")
    func resign() {
        var lifecycle = Lifecycle()
        lifecycle.select(message)
        lifecycle.becomeActive(.expanded)
        lifecycle.present(modal: "details")
        lifecycle.resignActive()
        #expect(lifecycle.state == .inactive(last: .expanded))
        #expect(lifecycle.style == .expanded, "what the update and snapshot of a closed app report")
        #expect(lifecycle.modal == nil)
        #expect(lifecycle.selectedMessage == message, "didResignActive and the snapshot still see it")
        lifecycle.present(modal: "late")
        #expect(lifecycle.modal == nil, "a request made while closing presents nothing")
        lifecycle.becomeActive(.compact)
        #expect(lifecycle.state == .compact(modal: nil))
    }

    @Test("A snapshot resumes the same lifecycle; what a closed app or a bubble cannot have is not resumed")
    func resumes() {
        func snapshot(active: Bool, _ style: PresentationStyle, modal: String?) -> InstanceSnapshot {
            InstanceSnapshot(state: Data("{}".utf8), isActive: active, presentationStyle: style, selectedMessage: message, modal: modal)
        }
        #expect(Lifecycle(resuming: snapshot(active: true, .expanded, modal: "details")).state == .expanded(modal: "details"))
        #expect(Lifecycle(resuming: snapshot(active: true, .compact, modal: nil)).state == .compact(modal: nil))
        #expect(Lifecycle(resuming: snapshot(active: true, .transcript, modal: "x")).state == .transcript)
        let closed = Lifecycle(resuming: snapshot(active: false, .expanded, modal: "x"))
        #expect(closed.state == .inactive(last: .expanded))
        #expect(closed.selectedMessage == message)
    }
}
