import Foundation
import ParlorHost
import ParlorKit
import Testing

@Suite("What an AppInstance lets an app do")
struct EffectTests {
    @Test("A tapped button's action runs and the new view shows its effect")
    func actionRuns() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let update = await instance.perform(.action(try opened.action("Increment")))
        #expect(update.count == "count 1")
        #expect(update.error == nil)
        #expect(harness.log.all.last?.name == "handle(increment)")
    }

    @Test("An action that is not in the current view is refused as actionRefused")
    func unknownAction() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let start = try opened.action("Start")
        _ = await instance.perform(.action(start))

        // "Start" is shown only at count 0: replaying it now is refused.
        let replayed = await instance.perform(.action(start))
        #expect(replayed.errorCode == .actionRefused)
        #expect(replayed.count == "count 1")

        for forged in [ActionPayload(RecordingApp.Action.locked), ActionPayload(json: #"{"increment":{}}  "#), ActionPayload(json: "")] {
            let update = await instance.perform(.action(forged))
            #expect(update.errorCode == .actionRefused, "\(forged)")
        }
        let missing = await instance.perform(ViewEvent(kind: .action))
        #expect(missing.errorCode == .actionRefused)
        #expect(missing.count == "count 1")
        // The app never saw these: the failure is the client's, so a log does not blame the app.
        #expect(replayed.error?.cause == .client && missing.error?.cause == .client)
    }

    @Test("A disabled button's action is refused")
    func disabledButton() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        guard case .button(let button) = opened.view.interactiveNodes(matching: "disabled").first else {
            Issue.record("no disabled button")
            return
        }
        let update = await instance.perform(.action(button.action))
        #expect(update.errorCode == .actionRefused)
        #expect(update.count == "count 0")
    }

    @Test("A control whose action the app cannot decode is reported as invalidValue")
    func undecodableAction() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let update = await instance.perform(.action(try opened.action("Foreign")))
        #expect(update.errorCode == .invalidValue)
        #expect(update.isActive)
    }

    @Test("Typed text up to the field's maxLength is accepted; one character more is textExceedsMaxSize")
    func textFieldLimit() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let field = try opened.field("title")
        #expect(field.maxLength == 10)
        let template = try #require(field.onChange)

        let fits = await instance.perform(.action(template, value: #"a"b\c⁂🎉éxx"#))
        #expect(fits.error == nil)
        #expect(fits.view.visibleTexts.contains(#"title a"b\c⁂🎉éxx"#))

        let tooLong = await instance.perform(.action(template, value: String(repeating: "y", count: 11)))
        #expect(tooLong.errorCode == .textExceedsMaxSize)
        #expect(tooLong.view.visibleTexts.contains(#"title a"b\c⁂🎉éxx"#))

        // One visible character carrying 100 combining marks counts as 13 (one per 8 scalars).
        let marks = await instance.perform(.action(template, value: "y" + String(repeating: "\u{301}", count: 100)))
        #expect(marks.errorCode == .textExceedsMaxSize)
    }

    @Test("An app cannot send from a hook: sendWithoutRecentInteraction; staging from a hook is allowed")
    func sendOutsideAction() async {
        let harness = Harness()
        let sender = harness.app { name, _, context in
            if name == "didBecomeActive" { try await context.conversation.send(RecordingApp.message(in: nil, count: 1)) }
        }
        let update = await harness.instance(sender).openFromDrawer()
        #expect(update.errorCode == .sendWithoutRecentInteraction)
        #expect(harness.host.sendAttempts.isEmpty)

        let stager = Harness()
        let app = stager.app { name, _, context in
            if name == "didBecomeActive" { try await context.conversation.insert(RecordingApp.message(in: nil, count: 1)) }
        }
        let staged = await stager.instance(app).openFromDrawer()
        #expect(staged.error == nil)
        #expect(stager.host.staged.count == 1)
    }

    @Test("A send from an action reaches the host with the app's id and sender filled in")
    func sendFromAction() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openFromDrawer()
        let update = await instance.perform(.action(try opened.action("Send")))
        #expect(update.error == nil)
        let sent = try #require(harness.host.sent.first)
        #expect(sent.appID == "org.parlor.test.recording")
        #expect(sent.senderParticipantIdentifier == harness.local)
        #expect(harness.host.sendAttempts.first?.replacing == nil)
    }

    @Test("A message continuing the selected session names the selected message as the head it replaces")
    func stagedReplacesSelected() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let head = harness.message()
        let opened = await instance.tap(head)
        _ = await instance.perform(.action(try opened.action("Stage")))
        let staged = try #require(harness.host.staged.first)
        #expect(staged.replacing == head.id)
        #expect(staged.message.session == head.session)
    }

    @Test("Every effect in transcript style is apiUnavailableInPresentationContext", arguments: [
        "insert", "send", "insertText", "insertSticker", "requestPresentationStyle",
    ])
    func transcriptEffects(_ effect: String) async {
        let harness = Harness()
        let app = harness.app { name, _, context in
            guard name == "didBecomeActive" else { return }
            switch effect {
            case "insert": try await context.conversation.insert(RecordingApp.message(in: nil, count: 1))
            case "send": try await context.conversation.send(RecordingApp.message(in: nil, count: 1))
            case "insertText": try await context.conversation.insertText("hello")
            case "insertSticker": try await context.conversation.insertSticker(RecordingApp.sticker)
            default: try context.requestPresentationStyle(.expanded)
            }
        }
        let update = await harness.instance(app).openInTranscript(harness.message())
        #expect(update.errorCode == .apiUnavailableInPresentationContext)
        #expect(update.presentationStyle == .transcript)
        #expect(harness.host.isUntouched)
    }

    @Test("A live bubble's view is drawn but its controls are apiUnavailableInPresentationContext")
    func transcriptActions() async throws {
        let harness = Harness()
        let bubble = harness.instance()
        let drawn = await bubble.openInTranscript(harness.message())
        #expect(drawn.count == "count 0")
        let update = await bubble.perform(.action(try drawn.action("Increment")))
        #expect(update.errorCode == .apiUnavailableInPresentationContext)
        #expect(update.count == "count 0")
        let sticker = await bubble.perform(.insertSticker(RecordingApp.sticker.id))
        #expect(sticker.errorCode == .apiUnavailableInPresentationContext)
        #expect(harness.host.isUntouched)
    }

    @Test("A live bubble that calls dismiss() or presents a modal stays drawn")
    func transcriptPresentation() async {
        let harness = Harness()
        let app = harness.app { name, _, context in
            if name == "willBecomeActive" { context.present(modal: "details") }
            if name == "didBecomeActive" { context.dismiss() }
        }
        let update = await harness.instance(app).openInTranscript(harness.message())
        #expect(update.isActive)
        #expect(update.modal == nil)
        #expect(update.count == "count 0")
        #expect(!harness.log.names.contains("willResignActive"))
    }

    @Test("After dismissal nothing reaches the conversation: sendWhileNotVisible")
    func afterDismiss() async throws {
        let harness = Harness()
        let app = harness.app { name, _, context in
            if name == "didResignActive" { try await context.conversation.insert(RecordingApp.message(in: nil, count: 1)) }
        }
        let instance = harness.instance(app)
        let opened = await instance.openFromDrawer()
        let dismissed = await instance.dismiss()
        #expect(dismissed.errorCode == .sendWhileNotVisible)

        let late = await instance.perform(.action(try opened.action("Send")))
        #expect(late.errorCode == .sendWhileNotVisible)

        let kept = try #require(harness.log.lastContext)
        do {
            try await kept.conversation.send(RecordingApp.message(in: nil, count: 1))
            Issue.record("a dismissed app's context sent a message")
        } catch let error as MessagesError {
            #expect(error.code == .sendWhileNotVisible)
        }
        #expect(harness.host.isUntouched)
    }

    @Test("A context kept after its call ends can no longer change the conversation")
    func keptContext() async throws {
        let harness = Harness()
        let instance = harness.instance()
        _ = await instance.openFromDrawer()
        let kept = try #require(harness.log.lastContext)
        do {
            try await kept.conversation.insert(RecordingApp.message(in: nil, count: 1))
            Issue.record("a finished hook's context staged a message")
        } catch let error as MessagesError {
            #expect(error.code == .sendWhileNotVisible)
        }
        #expect(harness.host.isUntouched)
    }

    @Test("A sticker from the app's browser is inserted; an unknown one is fileNotFound")
    func stickers() async {
        let harness = Harness()
        let instance = harness.instance()
        _ = await instance.openFromDrawer()
        let inserted = await instance.perform(.insertSticker(RecordingApp.sticker.id))
        #expect(inserted.error == nil)
        #expect(harness.host.stickers == [RecordingApp.sticker])
        let unknown = await instance.perform(.insertSticker("pack/forged.png"))
        #expect(unknown.errorCode == .fileNotFound)
        #expect(harness.host.stickers.count == 1)
    }

    @Test("insertText over 10,000 characters is textExceedsMaxSize")
    func insertTextLimit() async {
        let harness = Harness()
        let app = harness.app { name, _, context in
            if name == "didBecomeActive" { try await context.conversation.insertText(String(repeating: "a", count: 10_001)) }
            if name == "willBecomeActive" { try await context.conversation.insertText(String(repeating: "a", count: 10_000)) }
        }
        let update = await harness.instance(app).openFromDrawer()
        #expect(update.errorCode == .textExceedsMaxSize)
        #expect(harness.host.texts.map(\.count) == [10_000])
    }

    @Test("A staged message that breaks a limit is refused before it reaches the host")
    func invalidMessage() async {
        let harness = Harness()
        let app = harness.app { name, _, context in
            if name == "didBecomeActive" {
                try await context.conversation.insert(Message(url: URL(string: "javascript:alert(1)")))
            }
        }
        let update = await harness.instance(app).openFromDrawer()
        #expect(update.errorCode == .improperFileURL)
        #expect(harness.host.isUntouched)
    }
}
