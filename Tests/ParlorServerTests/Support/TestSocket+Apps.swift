import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

extension TestSocket {
    /// Sends a frame of `type` with `fields`.
    func send(_ type: String, _ fields: [String: JSON] = [:]) async throws {
        var fields = fields
        fields["type"] = .string(type)
        try await send(.object(fields))
    }

    /// Opens `app` from the drawer and returns its first look.
    func openApp(_ app: String, in conversation: ConversationID) async throws -> Wire.AppUpdate {
        try await send("openApp", ["conversation": .string(conversation.description), "app": .string(app)])
        return try await appUpdate()
    }

    /// Taps the message `id` and returns the app's look.
    func tapMessage(_ id: MessageID, in conversation: ConversationID) async throws -> Wire.AppUpdate {
        try await send("tapMessage", ["conversation": .string(conversation.description), "message": .string(id)])
        return try await appUpdate()
    }

    /// Activates the control labelled `label` in `update`'s view (an `appEvent` frame).
    func activate(_ label: String, in update: Wire.AppUpdate, conversation: ConversationID, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let action = try #require(update.view.action(label), "no control labelled '\(label)' in \(update.view.visibleTexts)", sourceLocation: sourceLocation)
        try await send("appEvent", [
            "conversation": .string(conversation.description), "app": .string(update.appID.rawValue), "event": ["kind": "action", "action": .string(action)],
        ])
    }

    /// Types `text` into the field labelled `label` in `update`'s view and submits it (an
    /// `appEvent` frame with the field's `onSubmit` and the value, as the browser sends it).
    func submit(_ text: String, in label: String, of update: Wire.AppUpdate, conversation: ConversationID, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard case .textField(let field)? = update.view.control(label), let submit = field.onSubmit else {
            Issue.record("no text field labelled '\(label)' that submits, in \(update.view.visibleTexts)", sourceLocation: sourceLocation)
            return
        }
        try await send("appEvent", [
            "conversation": .string(conversation.description), "app": .string(update.appID.rawValue),
            "event": ["kind": "action", "action": .string(submit.json), "value": .string(text)],
        ])
    }

    /// The next `app` frame's update.
    func appUpdate(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Wire.AppUpdate {
        let frame = try await next("app")
        return try #require(frame.update, "an app frame without update", sourceLocation: sourceLocation)
    }

    /// The next `staged` frame's item (nil when the compose field was cleared).
    func staged() async throws -> Wire.Staged? { try await next("staged").staged }

    /// Sends what is staged; returns the acknowledged message.
    func sendStaged(in conversation: ConversationID, requestId: String = UUID().uuidString) async throws -> Wire.Message {
        try await send("sendStaged", ["conversation": .string(conversation.description), "requestId": .string(requestId)])
        let frame = try await next("ack")
        #expect(frame.requestId == requestId)
        return try #require(frame.message)
    }

    /// Returns once the call of the app open in `conversation` has ended, its state saved: an app
    /// shows its answer before it saves (`InstanceConfiguration.show`), and `sendStaged`, here
    /// with nothing staged, first waits for that call.
    func settle(in conversation: ConversationID, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let request = UUID().uuidString
        try await send("sendStaged", ["conversation": .string(conversation.description), "requestId": .string(request)])
        #expect(try await reply(to: request).error?.code == "nothingStaged", sourceLocation: sourceLocation)
    }

    /// The next `error` frame.
    func error() async throws -> Frame { try await next("error") }
}

extension Wire.AppMessage {
    /// The participant id the names map gives to `displayName`.
    func participant(named displayName: String) -> String? { names.first { $0.value == displayName }?.key }
}
