import Foundation
@_spi(Hosting) import ParlorHost
import ParlorKit

/// Apps hosted as if they ran in their own process: every call, answer, view and check crosses
/// the app connection protocol (docs/APPS-PROTOCOL.md) as JSON, in memory. A test that passes
/// with `OutOfProcess.app(MyApp())` passes with the app run by `AppRunner` against a server.
///
/// ```swift
/// let simulator = ConversationSimulator(hosting: [OutOfProcess.app(TicTacToe())])
/// ```
public enum OutOfProcess {
    /// `app` behind an in-memory link speaking the app connection protocol.
    public static func app<App: MessagesApp>(_ app: App) -> AnyMessagesApp {
        AnyMessagesApp(RemoteApp(manifest: app.manifest, link: InMemoryAppLink(responder: AppResponder(app: app))))
    }
}

/// A link to an `AppResponder` in the same process, through JSON frames both ways, and through
/// the same `PendingCalls` as the server's links (hooks the app has no code for are not called
/// again, as on a server).
public struct InMemoryAppLink<App: MessagesApp>: AppLink {
    let responder: AppResponder<App>
    private let calls: PendingCalls

    public init(responder: AppResponder<App>) {
        self.responder = responder
        // No network in between: the deadline only stops a test that would otherwise hang.
        calls = PendingCalls(appName: responder.manifest.name, deadline: .seconds(60))
    }

    public func call(_ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
        try await calls.call(call, container: container, upload: upload) { sent in
            Task { await self.answer(sent) }
        }
    }

    private static func value(of frame: AppWire.ServerFrame) throws -> JSONValue {
        guard case .containerValue(_, let value) = frame else { throw refusal(in: frame) }
        return value
    }

    private static func refusal(in frame: AppWire.ServerFrame) -> MessagesError {
        guard case .error(let code, let message, _) = frame else { return MessagesError(.unknown, "Parlor answered something else.") }
        return MessagesError(MessagesError.Code(name: code) ?? .actionRefused, message)
    }

    /// What the app would answer, as the server would read it.
    private func answer(_ call: AppWire.Call) async {
        do {
            // What the server would send, as the app would read it.
            let sent = try AppWire.decode(AppWire.ServerFrame.self, from: AppWire.encode(AppWire.ServerFrame.call(call)))
            guard case .call(let received) = sent else { throw MessagesError(.appUnavailable, "The call did not survive encoding.") }
            // The app's reads and uploads go through the frames an app outside would send.
            let answer = await responder.answer(received) { key in
                let frame = await calls.read(key, for: call.id, answering: "read")
                return try Self.value(of: frame)
            } upload: { image in
                let frame = await calls.upload(image.base64EncodedString(), for: call.id, answering: "upload")
                guard case .uploaded(_, let id) = frame else {
                    throw Self.refusal(in: frame)
                }
                return id
            }
            switch try AppWire.decode(AppWire.AppFrame.self, from: AppWire.encode(answer)) {
            case .result(let result) where result.id == call.id: calls.answer(result)
            case .refuse(let refusal) where refusal.id == call.id: calls.refuse(refusal)
            default: throw MessagesError(.appUnavailable, "\(responder.manifest.name) answered another call.")
            }
        } catch {
            calls.fail(call.id, error as? MessagesError ?? MessagesError(.appUnavailable, "\(error)"))
        }
    }
}
