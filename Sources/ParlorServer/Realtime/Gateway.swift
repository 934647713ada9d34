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
    let core: ParlorCore
    /// How long a client cut off for falling behind has to take its close frame before its
    /// connection is dropped (a client that stopped reading never takes it).
    static let closeGrace: Duration = .seconds(2)

    /// Runs one connection until the client leaves or falls too far behind.
    func run(user: User, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel, logger: Logger) async {
        let connection = ClientConnection(user: user.id, limit: core.configuration.sendQueueLimit)
        await core.hub.register(connection)
        defer { connection.close() }
        let writer = ConnectionWriter(core: core, connection: connection)
        var welcome = Wire.ServerFrame(type: "welcome")
        welcome.protocolVersion = Wire.protocolVersion
        welcome.user = Wire.User(user)
        connection.enqueue(.frame(welcome.json()))

        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await writer.run(outbound: outbound)
                    // The queue overflowed: tell the client to come back later.
                    try await outbound.close(.unknown(1013), reason: "Too far behind; reconnect to catch up.")
                } catch {
                    logger.debug("WebSocket writer ended", metadata: ["error": "\(error)"])
                }
            }
            group.addTask {
                do {
                    try await self.read(inbound, user: user, connection: connection, writer: writer)
                } catch {
                    logger.debug("WebSocket reader ended", metadata: ["error": "\(error)"])
                }
            }
            group.addTask {
                // Writes to a client that stopped reading wait forever, the close frame's too.
                for await _ in connection.cutOff {}
                guard (try? await Task.sleep(for: Self.closeGrace)) != nil else { return }
                logger.debug("Dropping a WebSocket client that stopped reading")
                channel.close(promise: nil)
            }
            await group.next()
            group.cancelAll()
        }
        await core.hub.unregister(connection)
    }

    /// Reads whole messages frame by frame, so an oversized one can be skipped without closing.
    private func read(_ inbound: WebSocketInboundStream, user: User, connection: ClientConnection, writer: ConnectionWriter) async throws {
        let limit = core.configuration.maxClientMessageBytes
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
        let frame: Wire.ClientFrame
        do {
            frame = try JSONDecoder().decode(Wire.ClientFrame.self, from: Data(text.utf8))
        } catch {
            reply(.error(APIError(.badRequest, code: "malformedFrame", "That frame is not valid JSON of this protocol.")), on: connection)
            return
        }
        do {
            try await dispatch(frame, user: user.id, connection: connection, writer: writer)
        } catch let error as MessagesError where error.code == .sessionConflict {
            var reply = Wire.ServerFrame.error(APIError(error), requestId: frame.requestId)
            if let conversation = frame.conversation, let head = error.sessionHead,
               let stored = try? await core.store.message(id: head.id, in: conversation)
            {
                reply.head = await core.render(stored, for: user.id)
            }
            self.reply(reply, on: connection)
        } catch {
            if APIError(error).status == .internalServerError {
                core.logger.error("A WebSocket request failed", metadata: ["type": "\(frame.type)", "error": "\(error)"])
            }
            reply(.error(APIError(error), requestId: frame.requestId), on: connection)
        }
    }

    private func dispatch(_ frame: Wire.ClientFrame, user: UserID, connection: ClientConnection, writer: ConnectionWriter) async throws {
        switch frame.type {
        case "hello":
            writer.start(since: frame.since ?? [:])
        case "ping":
            reply(Wire.ServerFrame(type: "pong"), requestId: frame.requestId, on: connection)
        case "sendText":
            let stored = try await core.sendText(try require(frame.text, "text"), id: try require(frame.id, "id"), from: user, in: try conversation(frame))
            await ack(stored, frame: frame, user: user, connection: connection)
        case "sendSticker":
            let stored = try await core.sendSticker(try require(frame.sticker, "sticker"), id: try require(frame.id, "id"), from: user, in: try conversation(frame))
            await ack(stored, frame: frame, user: user, connection: connection)
        case "sendStaged":
            if let stored = try await core.sendStaged(user: user, conversation: try conversation(frame)) {
                await ack(stored, frame: frame, user: user, connection: connection)
            } else {
                throw APIError(.badRequest, code: "nothingStaged", "There is nothing to send.")
            }
        case "removeStaged":
            try await core.removeStaged(user: user, conversation: try conversation(frame))
        case "openApp":
            try await core.openApp(try require(frame.app, "app"), for: user, in: try conversation(frame))
        case "tapMessage":
            try await core.tapMessage(try require(frame.message, "message"), for: user, in: try conversation(frame))
        case "appEvent":
            try await core.appEvent(try require(frame.event, "event"), app: try require(frame.app, "app"), for: user, in: try conversation(frame))
        case "setStyle":
            try await core.setStyle(try require(frame.style, "style"), for: user, in: try conversation(frame))
        case "closeApp":
            try await core.closeApp(for: user, in: try conversation(frame))
        case "openHome":
            try await core.openHome(try require(frame.app, "app"), for: user)
        case "homeEvent":
            try await core.homeEvent(try require(frame.event, "event"), app: try require(frame.app, "app"), for: user)
        case "closeHome":
            try await core.closeHome(try require(frame.app, "app"), for: user)
        case "read":
            try await core.markRead(user: user, conversation: try conversation(frame), upTo: try require(frame.sequence, "sequence"))
        case "keep":
            try await core.keep(try require(frame.message, "message"), user: user, conversation: try conversation(frame))
        default:
            throw APIError(.badRequest, code: "unknownType", "Unknown frame type '\(frame.type.prefix(40))'.")
        }
    }

    private func ack(_ stored: StoredMessage, frame: Wire.ClientFrame, user: UserID, connection: ClientConnection) async {
        var ack = Wire.ServerFrame(type: "ack")
        ack.requestId = frame.requestId
        ack.message = await core.render(stored, for: user)
        connection.enqueue(.frame(ack.json()))
    }

    private func reply(_ frame: Wire.ServerFrame, requestId: String? = nil, on connection: ClientConnection) {
        var frame = frame
        if let requestId { frame.requestId = requestId }
        connection.enqueue(.frame(frame.json()))
    }

    private func conversation(_ frame: Wire.ClientFrame) throws -> ConversationID { try require(frame.conversation, "conversation") }

    private func require<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw APIError.invalid("This frame needs '\(name)'.") }
        return value
    }
}
