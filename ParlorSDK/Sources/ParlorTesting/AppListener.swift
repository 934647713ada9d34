// Listening for an app needs a WebSocket server (SwiftNIO): built only in a package that enables
// ParlorSDK's AppRunner trait, like the runner it is the other end of.
#if AppRunner
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Synchronization

extension OutOfProcess {
    /// Waits for an app to dial in, as it would to a Parlor server: the simulator listens on
    /// 127.0.0.1 and hosts whatever app connects with the listener's address and credential, so
    /// an app that runs on its own (in a debugger, in a container, in any language) is tested with
    /// any number of simulated people, with no server.
    ///
    /// ```swift
    /// let dice = try await OutOfProcess.listen(manifest: manifest)
    /// // Start the app with PARLOR_URL=\(dice.url) PARLOR_APP_SECRET=\(dice.secret), then:
    /// try await dice.waitForApp()
    /// let simulator = ConversationSimulator(hosting: [dice.app])
    /// ```
    /// - Throws: when no port can be bound.
    public static func listen(manifest: AppManifest, deadline: Duration = AppWire.callDeadline) async throws -> AppListener {
        try await AppListener.start(manifest: manifest, deadline: deadline)
    }
}

/// The simulator's end of the app connection protocol over WebSocket (docs/APPS-PROTOCOL.md): it
/// welcomes an app that presents `secret` at `/api/apps/connect`, and sends it the simulator's
/// calls. Several copies may connect; each call goes to the one that connected last, and when it
/// leaves, to the one before. `close()` (or releasing the listener) stops listening and ends the
/// connections.
public final class AppListener: AppLink, Sendable {
    public let manifest: AppManifest
    /// The address to give the app as `PARLOR_URL`.
    public let url: URL
    /// The credential to give the app as `PARLOR_APP_SECRET`; any other is refused (401).
    public let secret: String

    private let deadline: Duration
    private let server: NIOAsyncChannel<EventLoopFuture<Upgrade>, Never>
    private let connections = Mutex<[Connection]>([])

    /// The app as the simulator hosts it.
    public var app: AnyMessagesApp { AnyMessagesApp(RemoteApp(manifest: manifest, link: self)) }

    /// How many copies of the app are connected now.
    public var connectedCount: Int { connections.withLock { $0.count } }

    fileprivate enum Upgrade: Sendable {
        case app(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
    }

    /// One connected copy of the app.
    private final class Connection: Sendable {
        let calls: PendingCalls
        let frames: AsyncStream<WebSocketFrame>.Continuation
        let channel: any Channel

        init(calls: PendingCalls, frames: AsyncStream<WebSocketFrame>.Continuation, channel: any Channel) {
            self.calls = calls
            self.frames = frames
            self.channel = channel
        }

        func send(_ frame: AppWire.ServerFrame) {
            frames.yield(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: AppWire.encode(frame))))
        }
    }

    private init(manifest: AppManifest, deadline: Duration, secret: String, server: NIOAsyncChannel<EventLoopFuture<Upgrade>, Never>) throws {
        self.manifest = manifest
        self.deadline = deadline
        self.secret = secret
        self.server = server
        guard let port = server.channel.localAddress?.port, let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw MessagesError(.appUnavailable, "The listener has no port.")
        }
        self.url = url
    }

    fileprivate static func start(manifest: AppManifest, deadline: Duration) async throws -> AppListener {
        var generator = SystemRandomNumberGenerator()
        let secret = "parlor_app_simulator_" + (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let expected = "Bearer \(secret)"
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                        maxFrameSize: AppWire.maxFrameBytes,
                        shouldUpgrade: { channel, head in
                            let welcome = head.uri.split(separator: "?").first == "/api/apps/connect" && head.headers["Authorization"].first == expected
                            return channel.eventLoop.makeSucceededFuture(welcome ? HTTPHeaders() : nil)
                        },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 1 << 12, maxAccumulatedFrameSize: AppWire.maxFrameBytes))
                                return .app(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                            }
                        })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: .init(upgraders: [upgrader]) { channel in
                            channel.eventLoop.makeCompletedFuture { .refused(try NIOAsyncChannel(wrappingChannelSynchronously: channel)) }
                        }))
                }
            }
        let listener = try AppListener(manifest: manifest, deadline: deadline, secret: secret, server: server)
        Task { [weak listener] in
            try? await server.executeThenClose { upgrades in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await upgrade in upgrades {
                        group.addTask {
                            switch try? await upgrade.get() {
                            case .app(let channel): await listener?.serve(channel)
                            case .refused(let channel): await Self.refuse(channel)
                            case nil: break
                            }
                        }
                    }
                }
            }
        }
        return listener
    }

    deinit { server.channel.close(promise: nil) }

    /// Stops listening and ends every connection; calls still waiting fail.
    public func close() {
        server.channel.close(promise: nil)
        for connection in connections.withLock({ $0 }) {
            connection.channel.close(promise: nil)
        }
    }

    /// Waits until a copy of the app is connected.
    /// - Throws: `appUnavailable` when none connected within `timeout`.
    public func waitForApp(timeout: Duration = .seconds(30)) async throws {
        let end = ContinuousClock.now + timeout
        while connectedCount == 0 {
            guard ContinuousClock.now < end else {
                throw MessagesError(.appUnavailable, "\(manifest.name) did not connect to \(url) within \(timeout); start it with PARLOR_URL=\(url) and PARLOR_APP_SECRET set to the listener's secret.")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    public func call(_ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
        guard let connection = connections.withLock({ $0.last }) else {
            throw MessagesError(.appUnavailable, "\(manifest.name) is not connected; start it with PARLOR_URL=\(url).")
        }
        return try await connection.calls.call(call, container: container, upload: upload) { connection.send(.call($0)) }
    }

    /// Serves one connected copy until it leaves.
    private func serve(_ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async {
        let (frames, sender) = AsyncStream.makeStream(of: WebSocketFrame.self)
        let connection = Connection(calls: PendingCalls(appName: manifest.name, deadline: deadline), frames: sender, channel: channel.channel)
        try? await channel.executeThenClose { inbound, outbound in
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    for await frame in frames { try await outbound.write(frame) }
                    try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer(bytes: [0x03, 0xE8])))
                }
                connection.send(.welcome(app: manifest.id, protocolVersion: AppWire.version))
                connections.withLock { $0.append(connection) }
                defer {
                    connections.withLock { $0.removeAll { $0 === connection } }
                    connection.calls.endAll(MessagesError(.appUnavailable, "\(manifest.name) disconnected; try again."))
                    sender.finish()
                }
                for try await frame in inbound {
                    switch frame.opcode {
                    case .text:
                        connection.calls.receive(Data(frame.unmaskedData.readableBytesView)) { connection.send($0) }
                    case .ping:
                        connection.frames.yield(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
                    case .connectionClose:
                        return
                    default:
                        connection.send(.error(code: "malformedFrame", message: "Send JSON text frames.", id: nil))
                    }
                }
            }
        }
    }

    /// Answers a request that is not an app with the listener's credential, as a server would.
    private static func refuse(_ channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        try? await channel.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .end = part else { continue }
                let body = ByteBuffer(string: #"{"error":{"code":"unknownAppCredential","message":"This simulator listens for one app, with the secret it gave as PARLOR_APP_SECRET."}}"#)
                var head = HTTPResponseHead(version: .http1_1, status: .unauthorized)
                head.headers.add(name: "Content-Type", value: "application/json")
                head.headers.add(name: "Content-Length", value: "\(body.readableBytes)")
                head.headers.add(name: "Connection", value: "close")
                try await outbound.write(.head(head))
                try await outbound.write(.body(.byteBuffer(body)))
                try await outbound.write(.end(nil))
                return
            }
        }
    }
}
#endif
