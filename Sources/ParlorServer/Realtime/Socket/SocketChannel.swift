import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket
import ServiceLifecycle
import Synchronization

/// What an upgraded WebSocket becomes, chosen by its route (`Router.socket`).
struct SocketEndpoint: Sendable {
    enum Run: Sendable {
        /// Channel handlers alone, added after the WebSocket protocol: nothing waits in a task
        /// while the connection lives. Browser tabs, of which a server holds tens of thousands.
        case handlers(@Sendable (any Channel) throws -> Void)
        /// A task that reads and writes whole messages for the connection's life. Apps, of
        /// which there are few.
        case task(@Sendable (NIOAsyncChannel<SocketMessage, SocketOutbound>) async -> Void)
    }

    /// The largest whole message the endpoint takes; a longer one closes the connection with 1009.
    let maxMessageBytes: Int
    let run: Run
}

/// Where a WebSocket route leaves its endpoint for the upgrade, in the request context.
final class SocketUpgradeSlot: Sendable {
    let endpoint = Mutex<SocketEndpoint?>(nil)
}

extension Router where Context == ParlorRequestContext {
    /// A WebSocket route. `accept` runs with the route's middleware (the signed-in user, the
    /// checks of origin and credentials) and throws to refuse; a plain GET gets its error, or
    /// 200 when it would have been accepted.
    func socket(_ path: RouterPath, accept: @escaping @Sendable (Request, Context) async throws -> SocketEndpoint) {
        get(path) { request, context -> Response in
            let endpoint = try await accept(request, context)
            context.socketUpgrade.endpoint.withLock { $0 = endpoint }
            return Response(status: .ok)
        }
    }
}

/// Hummingbird's HTTP/1 connection with Parlor's WebSocket upgrade: an upgrade request goes
/// through the router (its middleware and its `socket` route decide), and the upgraded
/// connection is run by the endpoint the route chose, with `WebSocketMessageHandler` below it.
struct SocketChannel: ServerChildChannel, HTTPChannelHandler {
    enum Negotiated: Sendable {
        /// Upgraded; channel handlers run it.
        case handlers
        case task(NIOAsyncChannel<SocketMessage, SocketOutbound>, @Sendable (NIOAsyncChannel<SocketMessage, SocketOutbound>) async -> Void)
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade the route refused: answered 400.
        case failedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let upgradeResponder: any HTTPResponder<ParlorRequestContext>
    /// The largest frame the decoder takes; a longer one closes the connection with 1009.
    let maxFrameBytes: Int
    let pingInterval: Duration
    let http1: HTTP1Channel.Configuration

    init(responder: @escaping HTTPChannelHandler.Responder, upgradeResponder: any HTTPResponder<ParlorRequestContext>, maxFrameBytes: Int, pingInterval: Duration,
        http1: HTTP1Channel.Configuration = .init()
    ) {
        self.responder = Self.redirectingUpgrades(responder)
        self.upgradeResponder = upgradeResponder
        self.maxFrameBytes = maxFrameBytes
        self.pingInterval = pingInterval
        self.http1 = http1
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let upgradeAttempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let chosen = NIOLoopBoundBox<SocketEndpoint?>(nil, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: maxFrameBytes,
                shouldUpgrade: { channel, head in
                    upgradeAttempted.value = true
                    return self.endpoint(for: head, channel: channel, logger: logger).map { endpoint in
                        guard let endpoint else { return nil }
                        chosen.value = endpoint
                        return HTTPHeaders()
                    }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let endpoint = chosen.value else { throw NIOWebSocketUpgradeError.unsupportedWebSocketTarget }
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(WebSocketMessageHandler(configuration: .init(maxMessageBytes: endpoint.maxMessageBytes, pingInterval: .init(pingInterval))))
                        switch endpoint.run {
                        case .handlers(let add):
                            try add(channel)
                            return .handlers
                        case .task(let run):
                            let asyncChannel = try NIOAsyncChannel<SocketMessage, SocketOutbound>(
                                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                            return .task(asyncChannel, run)
                        }
                    }
                })
            let upgradeConfiguration = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try channel.pipeline.syncOperations.addHandlers(self.http1.additionalChannelHandlers())
                        try channel.pipeline.syncOperations.addHandler(
                            HTTPConnectionStateHandler(idleTimeout: self.http1.idleTimeout.map { .init($0) }, logger: logger))
                        let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return upgradeAttempted.value ? .failedUpgrade(asyncChannel) : .notUpgraded(asyncChannel)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Negotiated>(upgradeConfiguration: upgradeConfiguration)
            configuration.enablePipelining = false  // NIOAsyncChannel pipelines HTTP
            configuration.enableErrorHandling = false  // Hummingbird handles them
            configuration.enableResponseHeaderValidation = false  // HTTPTypes validated them
            configuration.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            return Value(negotiated: negotiated, channel: channel)
        }
    }

    /// Runs the upgrade request through the router: its `socket` route's endpoint, or nil.
    private func endpoint(for head: HTTPRequestHead, channel: any Channel, logger: Logger) -> EventLoopFuture<SocketEndpoint?> {
        let promise = channel.eventLoop.makePromise(of: SocketEndpoint?.self)
        promise.completeWithTask {
            guard let head = try? HTTPRequest(head, secure: false, splitCookie: false) else { return nil }
            let context = ParlorRequestContext(source: .init(channel: channel, logger: logger))
            guard let response = try? await upgradeResponder.respond(to: Request(head: head, body: .init(buffer: .init())), context: context),
                  response.status == .ok
            else { return nil }
            return context.socketUpgrade.endpoint.withLock { $0 }
        }
        return promise.futureResult
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .handlers:
                // The channel's handlers run the connection from here; this task ends.
                return
            case .task(let channel, let run):
                await withGracefulShutdownHandler {
                    await run(channel)
                } onGracefulShutdown: {
                    channel.channel.writeAndFlush(SocketOutbound.close(.goingAway, reason: "The server is shutting down."), promise: nil)
                }
            case .notUpgraded(let http1):
                await handleHTTP(asyncChannel: http1, logger: logger)
            case .failedUpgrade(let http1):
                logger.debug("WebSocket upgrade refused")
                try await http1.executeThenClose { _, outbound in
                    let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
                    try await outbound.write(contentsOf: [.head(head), .end(nil)])
                }
            }
        } catch let error as ChannelError where error == .inputClosed {
            logger.trace("The connection closed before its upgrade")
        } catch {
            logger.debug("A connection failed", metadata: ["error": "\(error)"])
        }
    }

    /// NIO upgrades only a connection's first request: an upgrade on a connection that already
    /// served one is redirected to the same address and the connection closed, so the client
    /// retries on a new one (as hummingbird-websocket does).
    private static func redirectingUpgrades(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        struct RedirectAndClose: Error {}
        return { request, writer, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                return try await responder(request, writer, channel)
            }
            let path = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
            try await writer.writeResponse(HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: path]))
            throw RedirectAndClose()
        }
    }
}
