import Foundation
import ParlorKit
import Testing

extension TestSocket {
    /// Sends a frame of `type` with `fields`.
    func send(_ type: String, _ fields: [String: JSON] = [:]) async throws {
        var fields = fields
        fields["type"] = .string(type)
        try await send(.object(fields))
    }

    /// Opens `app` from the drawer and returns its first look.
    func openApp(_ app: String, in conversation: String) async throws -> AppUpdateBody {
        try await send("openApp", ["conversation": .string(conversation), "app": .string(app)])
        return try await appUpdate()
    }

    /// Taps the message `id` and returns the app's look.
    func tapMessage(_ id: String, in conversation: String) async throws -> AppUpdateBody {
        try await send("tapMessage", ["conversation": .string(conversation), "message": .string(id)])
        return try await appUpdate()
    }

    /// Activates the control labelled `label` in `update`'s view (an `appEvent` frame).
    func activate(_ label: String, in update: AppUpdateBody, conversation: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let action = try #require(update.view.action(label), "no control labelled '\(label)' in \(update.view.visibleTexts)", sourceLocation: sourceLocation)
        try await send("appEvent", [
            "conversation": .string(conversation), "app": .string(update.appID), "event": ["kind": "action", "action": .string(action)],
        ])
    }

    /// The next `app` frame's update.
    func appUpdate(sourceLocation: SourceLocation = #_sourceLocation) async throws -> AppUpdateBody {
        let frame = try await next("app")
        return try #require(frame.update, "an app frame without update", sourceLocation: sourceLocation)
    }

    /// The next `staged` frame's item (nil when the compose field was cleared).
    func staged() async throws -> StagedBody? { try await next("staged").staged }

    /// Sends what is staged; returns the acknowledged message.
    func sendStaged(in conversation: String, requestId: String = UUID().uuidString) async throws -> MessageBody {
        try await send("sendStaged", ["conversation": .string(conversation), "requestId": .string(requestId)])
        let frame = try await next("ack")
        #expect(frame.requestId == requestId)
        return try #require(frame.message)
    }

    /// The next `error` frame.
    func error() async throws -> Frame { try await next("error") }
}

extension AppMessageBody {
    /// The participant id the names map gives to `displayName`.
    func participant(named displayName: String) -> String? { names.first { $0.value == displayName }?.key }
}
