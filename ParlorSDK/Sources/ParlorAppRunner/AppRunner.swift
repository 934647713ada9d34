// The runner needs a WebSocket client (hummingbird-websocket, on SwiftNIO): it is built only in a
// package that enables ParlorSDK's AppRunner trait, so apps that do not run out of process never
// resolve or build SwiftNIO.
#if AppRunner
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
/// ends `run` with an error that says so. Given several servers (the nodes of one Parlor, which
/// call only the copies connected to them), it keeps one connection to each.
public struct AppRunner<App: MessagesApp>: Sendable {
    public let app: App
    /// The servers it connects to: one connection each.
    public let servers: [URL]
    public let secret: String
    public var logger: Logger

    /// - Parameters:
    ///   - server: the server's http(s) address (default: `PARLOR_URL`, which may list the nodes of
    ///     one Parlor separated by commas, else http://127.0.0.1:8080).
    ///   - secret: the app's credential from `parlor apps add` (default: `PARLOR_APP_SECRET`).
    public init(app: App, server: URL? = nil, secret: String? = nil, logger: Logger = Logger(label: "parlor-app")) {
        self.init(app: app, servers: server.map { [$0] } ?? [], secret: secret, logger: logger)
    }

    /// - Parameter servers: the nodes of one Parlor (empty: `PARLOR_URL`, else http://127.0.0.1:8080).
    public init(app: App, servers: [URL], secret: String? = nil, logger: Logger = Logger(label: "parlor-app")) {
        let environment = ProcessInfo.processInfo.environment
        self.app = app
        let fallback = [URL(string: "http://127.0.0.1:8080")].compactMap { $0 }
        self.servers = servers.isEmpty ? (environment["PARLOR_URL"].map(ServerAddresses.parse).flatMap { $0.isEmpty ? nil : $0 } ?? fallback) : servers
        self.secret = secret ?? environment["PARLOR_APP_SECRET"] ?? ""
        self.logger = logger
    }

    /// Connects and serves until cancelled, reconnecting after a dropped connection, to each server.
    /// - Parameter onConnected: called each time a server welcomes the app.
    /// - Throws: `ConnectionRefused` when a server refuses the credential (the other connections end too).
    public func run(onConnected: @escaping @Sendable () async -> Void = {}) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for server in servers {
                group.addTask { try await serve(server, onConnected: onConnected) }
            }
            // The first to end for good ends them all.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Keeps a connection to `server`.
    private func serve(_ server: URL, onConnected: @escaping @Sendable () async -> Void) async throws {
        var logger = logger
        if servers.count > 1 { logger[metadataKey: "server"] = "\(server)" }
        var pause: Duration = .milliseconds(250)
        while !Task.isCancelled {
            let welcomed = try await connectOnce(to: server, logger: logger, onConnected: onConnected)
            if welcomed { pause = .milliseconds(250) }
            logger.info("Disconnected from Parlor; reconnecting", metadata: ["pause": "\(pause)"])
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(10))
        }
    }

    /// The app endpoint of `server`, over `scheme` (ws(s) for the connection, http(s) to ask why
    /// it was refused).
    static func endpoint(of server: URL, webSocket: Bool) -> URL? {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        if webSocket { components.scheme = components.scheme == "https" ? "wss" : "ws" }
        components.path = "/api/apps/connect"
        components.queryItems = [URLQueryItem(name: "protocol", value: String(AppWire.version))]
        return components.url
    }

    /// One connection. Returns whether the server welcomed the app before it ended.
    private func connectOnce(to server: URL, logger: Logger, onConnected: @escaping @Sendable () async -> Void) async throws -> Bool {
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 22, additionalHeaders: [.authorization: "Bearer \(secret)"])
        let responder = AppResponder(app: app, httpClient: URLSessionFetchClient())
        let reads = ContainerReads()
        let welcomed = Flag()
        do {
            let close = try await WebSocketClient.connect(url: Self.endpoint(of: server, webSocket: true)?.absoluteString ?? "", configuration: configuration, logger: logger) { inbound, outbound, _ in
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
                            // A credential of another app: serving it would show this app's screens
                            // under the other app's name. Refused for good, before any call.
                            guard id == app.manifest.id else { throw Self.wrongApp(welcomedAs: id, serving: app.manifest) }
                            welcomed.set()
                            logger.info("Connected to Parlor", metadata: ["app": "\(id)"])
                            await onConnected()
                        case .call(let call):
                            // Calls are independent: each in its own task, as Parlor waits on several.
                            group.addTask {
                                let answer = await responder.answer(call) { key in
                                    try await reads.read(key, call: call.id, send: { sender.yield($0) })
                                } upload: { image in
                                    try await reads.upload(image, call: call.id, send: { sender.yield($0) })
                                }
                                sender.yield(String(decoding: AppWire.encode(answer), as: UTF8.self))
                            }
                        case .containerValue(let id, let value):
                            await reads.deliver(value, to: id)
                        case .uploaded(let id, let upload):
                            await reads.deliver(.string(upload), to: id)
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
                throw ConnectionRefused(code: nil, description: "Parlor closed the connection: \(close.reason ?? "no reason given").")
            }
        } catch let error as ConnectionRefused {
            throw error
        } catch {
            if !welcomed.isSet, let refusal = await refusal(by: server) { throw refusal }
            if welcomed.isSet {
                logger.info("Could not stay connected to Parlor", metadata: ["error": "\(error)"])
            } else {
                logger.warning(
                    "Cannot reach Parlor at \(server): is it running there? Set PARLOR_URL to the address `parlor serve` printed.",
                    metadata: ["error": "\(error)"])
            }
        }
        return welcomed.isSet
    }

    /// The refusal of a server that welcomed the runner as another app than it serves.
    static func wrongApp(welcomedAs id: AppID, serving manifest: AppManifest) -> ConnectionRefused {
        ConnectionRefused(
            code: "wrongApp",
            description: "This runner serves \(manifest.name) (\(manifest.id)), but its credential is \(id)'s: start it with the credential `parlor apps add` printed for \(manifest.id) (`parlor apps rotate-secret \(manifest.id)` makes a new one).")
    }

    /// Why the server refused the upgrade, when it did so for good (docs/APPS-PROTOCOL.md: a
    /// refused upgrade is answered 400 with no body; the same request without the upgrade headers
    /// says why). Nil when the server cannot be reached or the refusal may pass (a 429, a 5xx).
    private func refusal(by server: URL) async -> ConnectionRefused? {
        guard let url = Self.endpoint(of: server, webSocket: false),
              let answer = try? await URLSessionFetchClient().send(
                FetchRequest(url: url, headers: ["Authorization": "Bearer \(secret)"], timeout: .seconds(10)))
        else { return nil }
        guard answer.status == 400 || answer.status == 401 || answer.status == 403,
              let refusal = try? JSONDecoder().decode(UpgradeRefusal.self, from: answer.body)
        else { return nil }
        switch refusal.error.code {
        case "unknownAppCredential":
            return ConnectionRefused(
                code: refusal.error.code,
                description: "Parlor refused this app's credential; check PARLOR_APP_SECRET (`parlor apps rotate-secret` makes a new one).")
        default:
            return ConnectionRefused(code: refusal.error.code, description: "Parlor refused the connection: \(refusal.error.message)")
        }
    }
}

/// The servers an app connects to, as people write them.
public enum ServerAddresses {
    /// The addresses in a list such as `PARLOR_URL`'s, separated by commas or spaces.
    public static func parse(_ list: String) -> [URL] {
        list.split(whereSeparator: { $0 == "," || $0.isWhitespace }).compactMap { URL(string: String($0)) }
    }
}

/// The JSON error body Parlor answers a refused request with.
private struct UpgradeRefusal: Decodable {
    struct Inner: Decodable {
        var code: String
        var message: String
    }

    var error: Inner
}

/// Why an `AppRunner` stopped for good: the server refused the app.
public struct ConnectionRefused: Error, CustomStringConvertible {
    /// The server's error code (`unknownAppCredential`, `unsupportedProtocol`), when it gave one.
    public let code: String?
    public let description: String
}

/// Container reads waiting for Parlor's `containerValue`, and uploads for its `uploaded`.
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

    /// Uploads an image for the call's person (`conversation.upload(image:)`); its id.
    func upload(_ image: Data, call: String, send: @Sendable (String) -> Void) async throws -> String {
        next += 1
        let id = "u\(next)"
        guard !ended else { throw MessagesError(.appUnavailable, "The connection to Parlor ended.") }
        let value = try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            send(String(decoding: AppWire.encode(AppWire.AppFrame.upload(id: id, call: call, image: image.base64EncodedString())), as: UTF8.self))
        }
        guard case .string(let upload) = value else { throw MessagesError(.unknown, "Parlor answered the upload without an id.") }
        return upload
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

#else
import ParlorKit

/// Without ParlorSDK's `AppRunner` trait this module is empty: enable the trait where the package
/// depends on ParlorSDK.
@available(*, unavailable, message: "AppRunner is in ParlorSDK's AppRunner trait: .package(path: \"…/ParlorSDK\", traits: [\"AppRunner\"])")
public struct AppRunner<App: MessagesApp> {}
#endif
