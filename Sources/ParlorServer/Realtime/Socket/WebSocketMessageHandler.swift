import NIOCore
import NIOWebSocket
import ParlorInput

/// A whole WebSocket message, as an endpoint sees it.
enum SocketMessage: Sendable {
    /// A text message, valid UTF-8.
    case text(String)
    /// A binary message: Parlor's endpoints speak text.
    case binary
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
///
/// RFC 6455 to the letter (NIO's decoder has already refused malformed frame headers, control
/// frames over 125 bytes or fragmented, and frames over the channel's limit, with 1002 or 1009):
/// a reserved bit set (no extension is ever agreed) fails the connection with 1002 (§5.2); a text
/// message that is not UTF-8 fails it with 1007 at its first bad byte, in whichever fragment
/// (§8.1), as does a close frame whose reason is not; a message over `maxMessageBytes`, whole or
/// in fragments, fails it with 1009 (§7.4.1) as soon as it passes the limit.
final class WebSocketMessageHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = SocketMessage
    typealias OutboundIn = SocketOutbound
    typealias OutboundOut = WebSocketFrame

    struct Configuration: Sendable {
        /// The largest message the endpoint takes; a longer one fails the connection with 1009.
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
        /// A text message's bytes checked so far.
        var utf8 = UTF8Validator()
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
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            return fail(context: context, .protocolError, reason: "A reserved bit is set, and no extension was agreed.")
        }
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
            // client that does not read the answer is dropped after `closeTimeout`. A reason that
            // is not UTF-8 is answered 1007 (§8.1).
            var data = frame.unmaskedData
            let code = data.readableBytes == 1 ? .protocolError : Self.answerable(data.readWebSocketErrorCode() ?? .normalClosure)
            let reasonIsText = UTF8Validator.isValid(Array(data.readableBytesView))
            let answered = context.eventLoop.makePromise(of: Void.self)
            let channel = context.channel
            answered.futureResult.whenComplete { _ in channel.close(promise: nil) }
            close(context: context, reasonIsText ? code : .dataInconsistentWithMessage, reason: "", promise: answered)
        case .text, .binary:
            guard partial == nil else { return fail(context: context, .protocolError, reason: "A message began before the last one ended.") }
            if frame.fin {
                // The usual case, a message in one frame: no copy.
                guard frame.length <= configuration.maxMessageBytes else { return tooLarge(context: context) }
                var message = Partial(isText: frame.opcode == .text, data: frame.unmaskedData)
                if message.isText {
                    let valid = message.data.withUnsafeReadableBytes { message.utf8.consume($0) }
                    guard valid, message.utf8.isComplete else { return notText(context: context) }
                }
                deliver(message, context: context)
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
        guard message.data.readableBytes + frame.length <= configuration.maxMessageBytes else { return tooLarge(context: context) }
        var data = frame.unmaskedData
        // Checked fragment by fragment: a bad byte fails the message now, not at its end.
        if message.isText, !data.withUnsafeReadableBytes({ message.utf8.consume($0) }) { return notText(context: context) }
        message.data.writeBuffer(&data)
        if frame.fin {
            if message.isText, !message.utf8.isComplete { return notText(context: context) }
            deliver(message, context: context)
        } else {
            partial = message
        }
    }

    /// Hands a whole message to the endpoint; a text message's bytes were checked as UTF-8.
    private func deliver(_ message: Partial, context: ChannelHandlerContext) {
        guard !closing else { return }
        let event: SocketMessage = message.isText ? .text(String(decoding: message.data.readableBytesView, as: UTF8.self)) : .binary
        context.fireChannelRead(wrapInboundOut(event))
    }

    /// A message over the limit, whole or once its fragments pass it (§7.4.1).
    private func tooLarge(context: ChannelHandlerContext) {
        fail(context: context, .messageTooLarge, reason: "A message is limited to \(configuration.maxMessageBytes) bytes.")
    }

    /// A text message that is not UTF-8 (§8.1).
    private func notText(context: ChannelHandlerContext) {
        fail(context: context, .dataInconsistentWithMessage, reason: "A text message must be UTF-8.")
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
