import NIOCore
import NIOWebSocket

/// A whole WebSocket message, as an endpoint sees it.
enum SocketMessage: Sendable {
    case text(String)
    /// A binary message: Parlor's endpoints speak text.
    case binary
    /// A message over the endpoint's limit, whole or in fragments: skipped, the connection stays open.
    case tooLarge
}

/// What an endpoint writes to its WebSocket.
enum SocketOutbound: Sendable {
    case text(String)
    /// The closing handshake: the connection closes when the client answers, or after a grace.
    case close(WebSocketErrorCode, reason: String)
}

/// The WebSocket protocol on a channel, below an endpoint: joins fragments into messages (up to a
/// limit), answers pings, sends its own and drops a client that stops answering them, and runs the
/// closing handshake. It keeps no task: an idle connection costs its objects, not a stack.
final class WebSocketMessageHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = SocketMessage
    typealias OutboundIn = SocketOutbound
    typealias OutboundOut = WebSocketFrame

    struct Configuration: Sendable {
        /// The largest message the endpoint takes; a longer one arrives as `.tooLarge`.
        var maxMessageBytes: Int
        /// How often the server pings; a client that has not answered the last ping by the next
        /// one is dropped. Nil: no pings.
        var pingInterval: TimeAmount? = .seconds(30)
        /// How long the client has to answer a close frame, the server's or its own; after it the
        /// connection is dropped (a client that stopped reading never takes the frame).
        var closeTimeout: TimeAmount = .seconds(2)
    }

    /// The message being joined, between its first fragment and its last.
    private struct Partial {
        var isText: Bool
        var data: ByteBuffer
        var oversized = false
    }

    private let configuration: Configuration
    private var partial: Partial?
    /// The server sent its close frame: the next close from the client ends the connection.
    private var closing = false
    private var awaitingPong = false
    private var pings: RepeatedTask?
    private var closeTimer: Scheduled<Void>?

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let interval = configuration.pingInterval else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let context = NIOLoopBound(context, eventLoop: context.eventLoop)
        pings = context.value.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            handler.value.ping(context: context.value)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pings?.cancel()
        closeTimer?.cancel()
    }

    private func ping(context: ChannelHandlerContext) {
        guard !closing else { return }
        guard !awaitingPong else {
            // The client did not answer the last ping in a whole interval: it is gone.
            close(context: context, .goingAway, reason: "Ping timeout", promise: nil)
            return
        }
        awaitingPong = true
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // A client masks every frame (RFC 6455, 5.1).
        guard frame.maskKey != nil else { return fail(context: context, .protocolError, reason: "Client frames must be masked.") }
        switch frame.opcode {
        case .ping:
            // Only while the socket takes writes: a client that pings and never reads would
            // otherwise pile up pongs in the server (RFC 6455 lets a pong answer the latest ping only).
            guard frame.fin, !closing, context.channel.isWritable else { return }
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            awaitingPong = false
        case .connectionClose:
            guard !closing else {
                context.close(promise: nil)
                return
            }
            // Answer with the client's own code (one a close frame may carry), then close; a
            // client that does not read the answer is dropped after `closeTimeout`.
            var data = frame.unmaskedData
            let code = data.readableBytes == 1 ? .protocolError : Self.answerable(data.readWebSocketErrorCode() ?? .normalClosure)
            let answered = context.eventLoop.makePromise(of: Void.self)
            let channel = context.channel
            answered.futureResult.whenComplete { _ in channel.close(promise: nil) }
            close(context: context, code, reason: "", promise: answered)
        case .text, .binary:
            guard partial == nil else { return fail(context: context, .protocolError, reason: "A message began before the last one ended.") }
            if frame.fin {
                // The usual case, a message in one frame: no copy.
                let data = frame.unmaskedData
                deliver(Partial(isText: frame.opcode == .text, data: data, oversized: data.readableBytes > configuration.maxMessageBytes), context: context)
            } else {
                partial = Partial(isText: frame.opcode == .text, data: context.channel.allocator.buffer(capacity: 0))
                append(frame, context: context)
            }
        case .continuation:
            guard partial != nil else { return fail(context: context, .protocolError, reason: "A continuation frame without a message.") }
            append(frame, context: context)
        default:
            fail(context: context, .protocolError, reason: "Unknown opcode.")
        }
    }

    private func append(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        guard var message = partial else { return }
        partial = nil
        if !message.oversized {
            if message.data.readableBytes + frame.length > configuration.maxMessageBytes {
                message.oversized = true
                message.data = context.channel.allocator.buffer(capacity: 0)
            } else {
                var data = frame.unmaskedData
                message.data.writeBuffer(&data)
            }
        }
        if frame.fin {
            deliver(message, context: context)
        } else {
            partial = message
        }
    }

    private func deliver(_ message: Partial, context: ChannelHandlerContext) {
        guard !closing else { return }
        let event: SocketMessage
        if message.oversized {
            event = .tooLarge
        } else if message.isText {
            event = .text(String(buffer: message.data))
        } else {
            event = .binary
        }
        context.fireChannelRead(wrapInboundOut(event))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .text(let text):
            guard !closing else {
                promise?.fail(ChannelError.outputClosed)
                return
            }
            // Room in front for the frame's header, so that header and text go out as one buffer.
            let headroom = 10
            var buffer = context.channel.allocator.buffer(capacity: headroom + text.utf8.count)
            buffer.moveWriterIndex(forwardBy: headroom)
            buffer.moveReaderIndex(forwardBy: headroom)
            buffer.writeString(text)
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: buffer)), promise: promise)
        case .close(let code, let reason):
            guard !closing else {
                promise?.succeed()
                return
            }
            close(context: context, code, reason: reason, promise: promise)
        }
    }

    /// Sends the close frame and waits `closeTimeout` for the client's.
    private func close(context: ChannelHandlerContext, _ code: WebSocketErrorCode, reason: String, promise: EventLoopPromise<Void>?) {
        closing = true
        partial = nil
        // A control frame carries at most 125 bytes: the reason is cut to 123, between characters.
        var reason = Substring(reason)
        while reason.utf8.count > 123 { reason.removeLast() }
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeBytes(reason.utf8)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: promise)
        let channel = context.channel
        closeTimer = context.eventLoop.scheduleTask(in: configuration.closeTimeout) {
            channel.close(promise: nil)
        }
    }

    /// A client that half-closes its side (TCP FIN without a close frame) is gone: close ours too.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The code to answer a client's close with: its own, unless a close frame may not carry it.
    private static func answerable(_ code: WebSocketErrorCode) -> WebSocketErrorCode {
        switch code {
        case .unknown(let raw) where raw < 1000 || raw == 1004 || raw == 1005 || raw == 1006 || (raw >= 1015 && raw < 3000) || raw >= 5000:
            .protocolError
        default:
            code
        }
    }

    private func fail(context: ChannelHandlerContext, _ code: WebSocketErrorCode, reason: String) {
        guard !closing else { return }
        close(context: context, code, reason: reason, promise: nil)
    }
}
