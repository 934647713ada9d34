import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOWebSocket
import ParlorHost
import ParlorKit
import Synchronization

/// Runs a ParlorKit app in its own process, connected to a Parlor server over the app connection
/// protocol (docs/APPS-PROTOCOL.md): the app's code is unchanged; Parlor keeps its state.
///
/// ```swift
/// @main struct Main {
///     static func main() async throws {
///         try await AppRunner(app: Dice()).run()   // PARLOR_URL and PARLOR_APP_SECRET
///     }
/// }
/// ```
///
/// It dials in (no public address needed), answers each call with `AppResponder`, several at a
/// time, and reconnects with a growing pause when the connection drops. A refused credential
/// ends `run` with an error that says so.
public struct AppRunner<App: MessagesApp>: Sendable {
    public let app: App
    public let server: URL
    public let secret: String
    public var logger: Logger

    /// - Parameters:
    ///   - server: the server's http(s) address (default: `PARLOR_URL`, else http://127.0.0.1:8080).
    ///   - secret: the app's credential from `parlor apps add` (default: `PARLOR_APP_SECRET`).
    public init(app: App, server: URL? = nil, secret: String? = nil, logger: Logger = Logger(label: "parlor-app")) {
        let environment = ProcessInfo.processInfo.environment
        self.app = app
        self.server = server ?? environment["PARLOR_URL"].flatMap(URL.init(string:)) ?? URL(string: "http://127.0.0.1:8080")!
        self.secret = secret ?? environment["PARLOR_APP_SECRET"] ?? ""
        self.logger = logger
    }

    /// Connects and serves until cancelled, reconnecting after a dropped connection.
    /// - Parameter onConnected: called each time the server welcomes the app.
    /// - Throws: `ConnectionRefused` when the server refuses the credential.
    public func run(onConnected: @escaping @Sendable () async -> Void = {}) async throws {
        var pause: Duration = .milliseconds(250)
        while !Task.isCancelled {
            let welcomed = try await connectOnce(onConnected: onConnected)
            if welcomed { pause = .milliseconds(250) }
            logger.info("Disconnected from Parlor; reconnecting", metadata: ["pause": "\(pause)"])
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(10))
        }
    }

    /// The WebSocket address of the app endpoint.
    var endpoint: String {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        components.path = "/api/apps/connect"
        components.queryItems = [URLQueryItem(name: "protocol", value: String(AppWire.version))]
        return components.string ?? ""
    }

    /// One connection. Returns whether the server welcomed the app before it ended.
    private func connectOnce(onConnected: @escaping @Sendable () async -> Void) async throws -> Bool {
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 22, additionalHeaders: [.authorization: "Bearer \(secret)"])
        let responder = AppResponder(app: app, httpClient: URLSessionFetchClient())
        let reads = ContainerReads()
        let logger = logger
        let welcomed = Flag()
        do {
            let close = try await WebSocketClient.connect(url: endpoint, configuration: configuration, logger: logger) { inbound, outbound, _ in
                let (frames, sender) = AsyncStream.makeStream(of: String.self)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in frames { try await outbound.write(.text(text)) }
                    }
                    defer {
                        // Reads waiting for an answer that will not come end first, so the calls
                        // waiting on them end and the group can finish.
                        Task { await reads.failAll() }
                        sender.finish()
                        group.cancelAll()
                    }
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        guard case .text(let text) = message else { continue }
                        let frame: AppWire.ServerFrame
                        do {
                            frame = try AppWire.decode(AppWire.ServerFrame.self, from: Data(text.utf8))
                        } catch {
                            logger.warning("Parlor sent a frame this runner cannot read", metadata: ["error": "\(error)"])
                            continue
                        }
                        switch frame {
                        case .welcome(let id, _):
                            welcomed.set()
                            logger.info("Connected to Parlor", metadata: ["app": "\(id)"])
                            await onConnected()
                        case .call(let call):
                            // Calls are independent: each in its own task, as Parlor waits on several.
                            group.addTask {
                                let answer = await responder.answer(call) { key in
                                    try await reads.read(key, call: call.id, send: { sender.yield($0) })
                                }
                                sender.yield(String(decoding: AppWire.encode(answer), as: UTF8.self))
                            }
                        case .containerValue(let id, let value):
                            await reads.deliver(value, to: id)
                        case .error(let code, let message, let id):
                            if let id {
                                await reads.refuse(id, MessagesError(MessagesError.Code(name: code) ?? .unknown, message))
                            } else {
                                logger.warning("Parlor refused a frame", metadata: ["code": "\(code)", "message": "\(message)"])
                            }
                        }
                    }
                }
            }
            if let close, !welcomed.isSet, close.closeCode == .policyViolation {
                throw ConnectionRefused(description: "Parlor closed the connection: \(close.reason ?? "no reason given").")
            }
        } catch let error as ConnectionRefused {
            throw error
        } catch {
            let text = "\(error)"
            if !welcomed.isSet, text.contains("401") || text.contains("unauthorized") {
                throw ConnectionRefused(description: "Parlor refused this app's credential; check PARLOR_APP_SECRET (`parlor apps rotate-secret` makes a new one).")
            }
            logger.info("Could not stay connected to Parlor", metadata: ["error": "\(error)"])
        }
        return welcomed.isSet
    }
}

/// Why an `AppRunner` stopped for good: the server refused the app.
public struct ConnectionRefused: Error, CustomStringConvertible {
    public let description: String
}

/// Container reads waiting for Parlor's `containerValue`.
private actor ContainerReads {
    private var waiting: [String: CheckedContinuation<JSONValue, any Error>] = [:]
    private var next = 0
    private var ended = false

    func read(_ key: String, call: String, send: @Sendable (String) -> Void) async throws -> JSONValue {
        next += 1
        let id = "r\(next)"
        guard !ended else { throw MessagesError(.appUnavailable, "The connection to Parlor ended.") }
        return try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            send(String(decoding: AppWire.encode(AppWire.AppFrame.containerGet(id: id, call: call, key: key)), as: UTF8.self))
        }
    }

    func deliver(_ value: JSONValue, to id: String) {
        waiting.removeValue(forKey: id)?.resume(returning: value)
    }

    /// Parlor refused the read `id` (no `keepsData`, too many reads, a store failure).
    func refuse(_ id: String, _ error: MessagesError) {
        waiting.removeValue(forKey: id)?.resume(throwing: error)
    }

    func failAll() {
        ended = true
        for continuation in waiting.values {
            continuation.resume(throwing: MessagesError(.appUnavailable, "The connection to Parlor ended."))
        }
        waiting = [:]
    }
}

/// Set once, read from anywhere.
private final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}


