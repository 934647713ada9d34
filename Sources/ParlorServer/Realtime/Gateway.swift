import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import ParlorKit
import ParlorStore

/// The WebSocket endpoint: one authenticated connection per browser tab.
///
/// On `hello` the server replays what the client missed (its last sequence number per
/// conversation), then streams. The writer never sends a message twice and fills any gap from the
/// store, so fan-out order does not matter. Client messages over the size limit, or that are not
/// valid frames, get an `error` frame and the connection stays open.
struct Gateway: Sendable {
    let services: ParlorServices
    /// How long a client cut off for falling behind has to take its close frame before its
    /// connection is dropped (a client that stopped reading never takes it).
    static let closeGrace: TimeAmount = .seconds(2)

    /// Runs one connection until the client leaves or falls too far behind.
    ///
    /// An idle connection holds two tasks: Hummingbird's, which reads here, and the writer's.
    /// A task keeps the memory its deepest call needed for as long as it lives, so nothing else
    /// waits in a task of its own: handling a frame runs in a short-lived child, and dropping a
    /// client that stopped reading is a timer on the channel's event loop.
    func run(user: User, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel, logger: Logger) async {
        let connection = ClientConnection(user: user.id, limit: services.configuration.sendQueueLimit) {
            // Writes to a client that stopped reading wait forever, the close frame's too.
            channel.eventLoop.scheduleTask(in: Self.closeGrace) {
                logger.debug("Dropping a WebSocket client that stopped reading")
                channel.close(promise: nil)
            }
        }
        let cap = services.configuration.maxConnectionsPerUser
        guard await services.hub.register(connection, limit: cap) else {
            logger.debug("Refused a WebSocket over the account's cap", metadata: ["cap": "\(cap)"])
            try? await outbound.close(.policyViolation, reason: "This account has \(cap) connections open, the most allowed; close a tab and reload.")
            return
        }
        defer { connection.close() }
        let writer = ConnectionWriter(services: services, connection: connection)
        connection.enqueue(.frame(Wire.ServerFrame.welcome(protocolVersion: Wire.protocolVersion, user: Wire.User(user)).json()))

        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await writer.run(outbound: outbound)
                    // The queue overflowed: tell the client to come back later (its reads end
                    // when it answers the close, or when the timer above drops it).
                    try await outbound.close(.unknown(1013), reason: "Too far behind; reconnect to catch up.")
                } catch {
                    logger.debug("WebSocket writer ended", metadata: ["error": "\(error)"])
                }
            }
            do {
                try await self.read(inbound, user: user, connection: connection, writer: writer)
            } catch {
                logger.debug("WebSocket reader ended", metadata: ["error": "\(error)"])
            }
            group.cancelAll()
        }
        if connection.hasFallenBehind { services.metrics.slowConsumerDisconnects.increment() }
        await services.hub.unregister(connection)
    }

    /// Reads whole messages frame by frame, so an oversized one can be skipped without closing.
    private func read(_ inbound: WebSocketInboundStream, user: User, connection: ClientConnection, writer: ConnectionWriter) async throws {
        let limit = services.configuration.maxClientMessageBytes
        var buffer = ByteBuffer()
        var oversized = false
        var isText = true
        for try await frame in inbound {
            if frame.opcode != .continuation {
                buffer.clear()
                oversized = false
                isText = frame.opcode == .text
            }
            if !oversized {
                if buffer.readableBytes + frame.data.readableBytes > limit {
                    oversized = true
                    buffer.clear()
                } else {
                    var data = frame.data
                    buffer.writeBuffer(&data)
                }
            }
            guard frame.fin else { continue }
            if oversized {
                refuse(tooLarge: limit, on: connection)
                continue
            }
            guard isText, let text = buffer.readString(length: buffer.readableBytes) else {
                refuse(tooLarge: nil, on: connection)
                continue
            }
            // In a child task: handling a frame goes deep (tens of KiB of async frames), and a task
            // keeps the memory its deepest call needed until it ends; this one lives as long as
            // the connection, the child only as long as the frame.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.handle(text, user: user, connection: connection, writer: writer) }
            }
        }
    }

    /// The error frame for an oversized (`tooLarge` bytes) or non-text message. Kept out of
    /// `read`, whose frame the connection's reader task holds for the connection's life.
    @inline(never)
    private func refuse(tooLarge limit: Int?, on connection: ClientConnection) {
        if let limit {
            reply(.error(APIError(.contentTooLarge, code: "frameTooLarge", "A message to the server is limited to \(limit) bytes.")), on: connection)
        } else {
            reply(.error(APIError(.badRequest, code: "malformedFrame", "Send JSON text frames.")), on: connection)
        }
    }

    private func handle(_ text: String, user: User, connection: ClientConnection, writer: ConnectionWriter) async {
        let request: Wire.ClientRequest
        do {
            request = try Wire.ClientRequest.decode(text)
        } catch {
            reply(.error(Wire.ErrorBody(code: error.code, message: error.message), requestId: error.requestId, head: nil), on: connection)
            return
        }
        do {
            try await dispatch(request, user: user.id, connection: connection, writer: writer)
        } catch let error as MessagesError where error.code == .sessionConflict {
            var head: Wire.Message?
            if let conversation = request.frame.conversation, let id = error.sessionHead?.id,
               let stored = try? await services.store.message(id: id, in: conversation)
            {
                head = await services.renderer.render(stored, for: user.id)
            }
            reply(.error(APIError(error), requestId: request.requestId, head: head), on: connection)
        } catch {
            if APIError(error).status == .internalServerError {
                services.logger.error("A WebSocket request failed", metadata: ["type": "\(request.frame.kind.rawValue)", "error": "\(error)"])
            }
            reply(.error(APIError(error), requestId: request.requestId), on: connection)
        }
    }

    private func dispatch(_ request: Wire.ClientRequest, user: UserID, connection: ClientConnection, writer: ConnectionWriter) async throws {
        let (messaging, apps) = (services.messaging, services.apps)
        switch request.frame {
        case .hello(let since):
            writer.start(since: since)
        case .ping:
            reply(.pong(requestId: request.requestId), on: connection)
        case .sendText(let conversation, let id, let text, let replyTo, let linkPreview):
            let sent = try await messaging.sendText(text, id: id, replyTo: replyTo, linkPreview: linkPreview, from: user, in: conversation)
            await ack(sent, to: request, user: user, connection: connection)
        case .sendSticker(let conversation, let id, let sticker, let placement):
            let sent = try await messaging.sendSticker(sticker, id: id, placement: placement, from: user, in: conversation)
            await ack(sent, to: request, user: user, connection: connection)
        case .sendStaged(let conversation):
            guard let sent = try await apps.sendStaged(user: user, conversation: conversation) else {
                throw APIError(.badRequest, code: "nothingStaged", "There is nothing to send.")
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
