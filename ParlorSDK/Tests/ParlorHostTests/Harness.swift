import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Testing

/// Builds instances and messages for the tests.
struct Harness {
    let log = HookLog()
    let gate = Gate()
    let host = FakeConversationHost()
    let local = ParticipantID()
    let remotes = [ParticipantID(), ParticipantID()]
    var httpClient: (any FetchClient)? = nil

    func app(script: @escaping @Sendable (String, inout RecordingApp.State, AppContext) async throws -> Void = { _, _, _ in }) -> RecordingApp {
        RecordingApp(log: log, gate: gate, script: script)
    }

    func instance(
        _ app: RecordingApp? = nil, snapshot: InstanceSnapshot? = nil,
        save: InstanceConfiguration.Save? = nil, show: InstanceConfiguration.Show? = nil
    ) -> AppInstance<RecordingApp> {
        AppInstance(
            app: app ?? self.app(),
            configuration: InstanceConfiguration(
                localParticipant: local, remoteParticipants: remotes, conversationHost: host, container: InMemoryContainer(),
                httpClient: httpClient, snapshot: snapshot, save: save, show: show))
    }

    /// A committed message of the recording app, from another participant.
    func message(session: Session? = Session(), count: Int = 1) -> Message {
        var message = RecordingApp.message(in: session, count: count)
        message.appID = "org.parlor.test.recording"
        message.senderParticipantIdentifier = remotes[0]
        message.isPending = false
        return message
    }
}

extension InstanceUpdate {
    /// The payload of the enabled button labelled `label`.
    func action(_ label: String) throws -> ActionPayload {
        for case .button(let button) in view.interactiveNodes(matching: label) where !button.disabled { return button.action }
        throw HarnessError("no button '\(label)' in \(view.visibleTexts)")
    }

    /// The text field `id`'s onChange template.
    func field(_ id: String) throws -> TextFieldNode {
        for case .textField(let field) in view.allNodes where field.id == id { return field }
        throw HarnessError("no field '\(id)'")
    }

    var count: String? { view.visibleTexts.first { $0.hasPrefix("count ") } }
    var errorCode: MessagesError.Code? { error?.error.code }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Returns once `condition` holds, for a test to know a call reached a point (it runs, or it
/// waits its turn) instead of sleeping and hoping it did; records an issue if it never does.
func waitUntil(
    _ condition: () async -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(2))
    }
    Issue.record("The condition never held", sourceLocation: sourceLocation)
}
