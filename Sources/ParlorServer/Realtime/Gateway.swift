import Foundation
import Logging
import NIOCore
import ParlorInput
import ParlorKit
import ParlorStore

/// The WebSocket endpoint: one authenticated connection per browser tab (`GatewayHandler`).
///
/// On `hello` the server replays what the client missed (its last sequence number per
/// conversation), then streams. The writer never sends a message twice and fills any gap from the
/// store, so fan-out order does not matter. Client messages that are not valid frames get an
/// `error` frame and the connection stays open; one over the size limit closes it with 1009
/// (`WebSocketMessageHandler`).
struct Gateway: Sendable {
    let services: ParlorServices
    /// What connections' replays and gap fills read: the store, the renderer, the apps' session frames.
    let deliverySource: any DeliverySource

    /// The endpoint of a signed-in user's WebSocket: channel handlers, no task while idle.
    /// - Parameter tokenHash: the hash of the token it signed in with (`Sessions` closes it when
    ///   that sign-in ends).
    func endpoint(for user: User, tokenHash: String, logger: Logger) -> SocketEndpoint {
        SocketEndpoint(maxMessageBytes: services.configuration.maxClientMessageBytes, run: .handlers { channel in
            try channel.pipeline.syncOperations.addHandler(GatewayHandler(session: GatewaySession(gateway: self, user: user, tokenHash: tokenHash, channel: channel, logger: logger)))
        })
    }

    /// After the upgrade: registers the connection and says welcome, or closes it when the
    /// account has too many open or its sign-in ended during the upgrade.
    func open(_ session: GatewaySession) async -> Bool {
        let cap = services.configuration.maxConnectionsPerUser
        switch await services.fanOut.hub.register(session.connection, limit: cap) {
        case .registered:
            break
        case .overCap:
            session.logger.debug("Refused a WebSocket over the account's cap", metadata: ["cap": "\(cap)"])
            session.connection.close(.policyViolation, reason: "This account has \(cap) connections open, the most allowed; close a tab and reload.")
            return false
        case .signedOut:
            session.connection.close(Sessions.closeCode, reason: Sessions.closeReason)
            return false
        }
        session.connection.enqueue(.frame(Wire.ServerFrame.welcome(protocolVersion: Wire.protocolVersion, user: Wire.User(session.user, withAbout: true)).json()))
        return true
    }

    /// After the channel closed.
    func closed(_ session: GatewaySession) async {
        if session.connection.hasFallenBehind { services.metrics.slowConsumerDisconnects.increment() }
        await services.fanOut.hub.unregister(session.connection)
    }

    /// One whole message from the client, in the order they came.
    func receive(_ message: SocketMessage, on session: GatewaySession) async {
        switch message {
        case .text(let text):
            await handle(text, on: session)
        case .binary:
            reply(.error(APIError(.badRequest, code: .malformedFrame, "Send JSON text frames.")), on: session.connection)
        }
    }

    private func handle(_ text: String, on session: GatewaySession) async {
        let request: Wire.ClientRequest
        do {
            request = try Wire.ClientRequest.decode(text)
        } catch {
            reply(.error(Wire.ErrorBody(code: error.code.rawValue, message: error.message), requestId: error.requestId, head: nil), on: session.connection)
            return
        }
        let (user, connection) = (session.user, session.connection)
        let place = Self.appPlace(of: request.frame)
        // A message sent while that conversation's app message is being sent (a caption after
        // `sendStaged`) goes behind it, so it cannot overtake the app message it was written with.
        guard let place, Self.isForApps(request.frame) || (Self.isMessage(request.frame) && session.apps.isSending(in: place)) else {
            await perform(request, user: user, connection: connection)
            return
        }
        let sendsMessage =
            switch request.frame {
            case .sendStaged, .sendAppMessage: true
            default: false
            }
        let queued = session.apps.submit(to: place, sendsMessage: sendsMessage) {
            guard !connection.isClosed else { return }
            await perform(request, user: user, connection: connection)
        }
        if !queued {
            reply(
                .error(APIError.tooMany(.appBusy, "The app is still answering your last actions; wait a moment and try again.", retryAfter: 1),
                    requestId: request.requestId), on: connection)
        }
    }

    /// Whether a frame sends a message (which must not overtake the app message before it).
    static func isMessage(_ frame: Wire.ClientFrame) -> Bool {
        switch frame {
        case .sendText, .sendSticker: true
        default: false
        }
    }

    /// Where a frame's app runs, naming its lane: the conversation, or the app's home surface;
    /// nil for a frame of no conversation or app (`hello`, `ping`).
    static func appPlace(of frame: Wire.ClientFrame) -> String? {
        switch frame {
        case .openHome(let app), .homeEvent(let app, _), .closeHome(let app): "home:\(app)"
        default: frame.conversation.map { "conversation:\($0)" }
        }
    }

    /// Whether a frame goes to the person's apps (the app lane), which may wait for an app
    /// outside the server; the others (messages, reads, reactions…) never wait behind them.
    static func isForApps(_ frame: Wire.ClientFrame) -> Bool {
        switch frame {
        case .sendAppMessage, .sendStaged, .removeStaged, .openApp, .tapMessage, .appEvent, .setStyle, .closeApp, .openHome, .homeEvent,
            .closeHome:
            true
        case .hello, .ping, .sendText, .sendSticker, .read, .keep, .react, .typing, .edit, .unsend:
            false
        }
    }

    /// Carries out one request and answers it: an `ack`, or an `error` frame.
    private func perform(_ request: Wire.ClientRequest, user: User, connection: ClientConnection) async {
        do {
            try await dispatch(request, user: user.id, connection: connection)
        } catch let error as MessagesError where error.code == .sessionConflict {
            let head: Wire.Message? =
                if let conversation = request.frame.conversation {
                    await services.messaging.conflictingHead(error, in: conversation, for: user.id)
                } else {
                    nil
                }
            reply(.error(APIError(error), requestId: request.requestId, head: head), on: connection)
        } catch {
            if APIError(error).status == .internalServerError {
                services.logger.error("A WebSocket request failed", metadata: ["type": "\(request.frame.kind.rawValue)", "error": "\(error)"])
            }
            reply(.error(APIError(error), requestId: request.requestId), on: connection)
        }
    }

    private func dispatch(_ request: Wire.ClientRequest, user: UserID, connection: ClientConnection) async throws {
        let (messaging, apps) = (services.messaging, services.apps)
        switch request.frame {
        case .hello(let since, let language):
            // A language that is not a tag is said, and ignored: the session starts all the same.
            if let language, let tag = LocalizedStrings.languageTag(language) {
                await apps.setLanguage(tag, of: user)
            } else if language != nil {
                reply(
                    .error(APIError.invalid("'language' is a language tag such as en, fr or pt-BR (the browser's navigator.language); apps keep the one they had."),
                        requestId: request.requestId), on: connection)
            }
            connection.enqueue(.start(since: since))
        case .ping:
            reply(.pong(requestId: request.requestId), on: connection)
        case .sendText(let conversation, let id, let text, let replyTo, let linkPreview):
            let sent = try await messaging.sendText(text, id: id, replyTo: replyTo, linkPreview: linkPreview, from: user, in: conversation)
            await ack(sent, to: request, user: user, connection: connection)
        case .sendSticker(let conversation, let id, let sticker, let placement):
            let sent = try await messaging.sendSticker(sticker, id: id, placement: placement, from: user, in: conversation)
            await ack(sent, to: request, user: user, connection: connection)
        case .sendAppMessage(let conversation, let app, var message, let replacing):
            message.appID = app
            let sent = try await messaging.sendClientAppMessage(message, replacing: replacing, from: user, in: conversation)
            await ack(sent, to: request, user: user, connection: connection)
        case .sendStaged(let conversation):
            guard let sent = try await apps.sendStaged(user: user, conversation: conversation) else {
                throw APIError(.badRequest, code: .nothingStaged, "There is nothing to send.")
            }
            await ack(sent, to: request, user: user, connection: connection)
        case .removeStaged(let conversation):
            try await apps.removeStaged(user: user, conversation: conversation)
        case .openApp(let conversation, let app):
            try await apps.openApp(app, for: user, in: conversation)
        case .tapMessage(let conversation, let message):
            try await apps.tapMessage(message, for: user, in: conversation)
        case .appEvent(let conversation, let app, let event):
            try await apps.appEvent(event, app: app, for: user, in: conversation)
        case .setStyle(let conversation, let style):
            try await apps.setStyle(style, for: user, in: conversation)
        case .closeApp(let conversation):
            try await apps.closeApp(for: user, in: conversation)
        case .openHome(let app):
            try await apps.openHome(app, for: user)
        case .homeEvent(let app, let event):
            try await apps.homeEvent(event, app: app, for: user)
        case .closeHome(let app):
            try await apps.closeHome(app, for: user)
        case .read(let conversation, let sequence):
            try await messaging.markRead(user: user, conversation: conversation, upTo: sequence)
        case .keep(let conversation, let message):
            try await messaging.keep(message, user: user, conversation: conversation)
        case .react(let conversation, let message, let emoji, let on):
            try await services.reactions.react(emoji, on: on, to: message, by: user, in: conversation)
        case .typing(let conversation, let isTyping):
            try await services.typing.typing(isTyping, user: user, in: conversation)
        case .edit(let conversation, let message, let text):
            try await services.changes.edit(message, text: text, by: user, in: conversation)
        case .unsend(let conversation, let message):
            try await services.changes.unsend(message, by: user, in: conversation)
        }
    }

    private func ack(_ sent: Messaging.Sent, to request: Wire.ClientRequest, user: UserID, connection: ClientConnection) async {
        connection.enqueue(.frame(await services.messaging.ackFrame(sent, requestId: request.requestId, for: user)))
    }

    private func reply(_ frame: Wire.ServerFrame, on connection: ClientConnection) {
        connection.enqueue(.frame(frame.json()))
    }
}
