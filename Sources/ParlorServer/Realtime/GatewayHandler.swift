import NIOCore

/// The channel handler of a browser tab's WebSocket, above `WebSocketMessageHandler`.
final class GatewayHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = SocketMessage
    typealias OutboundIn = SocketOutbound
    typealias OutboundOut = SocketOutbound

    private let session: GatewaySession

    init(session: GatewaySession) {
        self.session = session
    }

    func handlerAdded(context: ChannelHandlerContext) {
        session.start()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        session.received(unwrapInboundIn(data))
    }

    func read(context: ChannelHandlerContext) {
        // Held while the client's messages pile up; `GatewaySession.work` reads again.
        if session.acceptsMore { context.read() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { session.connection.writable() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        session.closed()
        context.fireChannelInactive()
    }

    /// The server is shutting down: the client is told, and the connection closes when it answers
    /// (or after the close timeout), which the server's shutdown waits for.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            session.connection.close(.goingAway, reason: "The server is shutting down; reconnecting shortly.")
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        session.logger.debug("WebSocket connection failed", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }
}
