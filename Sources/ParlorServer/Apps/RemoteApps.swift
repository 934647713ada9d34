import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization
import ParlorHost
import ParlorKit
import ParlorStore

/// Apps that run outside the server (docs/APPS-PROTOCOL.md): which are registered, which copies
/// are connected, and the calls between.
///
/// The registered apps live in the store (`parlor apps add`, which can run beside a running
/// server); `sync()` reads them every second, so a new app appears in the directory at once, and a
/// removed app or a rotated credential ends its connections at once. Calls go to the app's
/// connected copies in turn; an app that is not connected, late, or unusable costs its own users
/// a sentence in the app's surface and nothing else.
actor RemoteApps {
    let store: any ParlorStore
    let directory: AppDirectory
    let logger: Logger
    /// How long a call waits for its answer.
    let deadline: Duration
    /// Told when an app goes away, to close its open surfaces.
    private let onRemoved: @Sendable (AppID, String) async -> Void
    private var registered: [AppID: RegisteredApp] = [:]
    private var connections: [AppID: [AppConnection]] = [:]
    private var turn: [AppID: Int] = [:]

    init(
        store: any ParlorStore, directory: AppDirectory, deadline: Duration, logger: Logger,
        onRemoved: @escaping @Sendable (AppID, String) async -> Void
    ) {
        self.store = store
        self.deadline = deadline
        self.directory = directory
        self.logger = logger
        self.onRemoved = onRemoved
    }

    /// A new credential: shown once, stored only as its hash.
    static func makeSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let text = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "parlor_app_" + text
    }

    static func hash(secret: String) -> String { Digest.sha256Hex(secret) }

    /// Reads the registered apps: adds the new ones to the directory, replaces changed manifests,
    /// removes the ones gone, and ends connections whose credential is no longer the app's.
    func sync() async throws {
        let current = Dictionary(try await store.registeredApps().map { ($0.manifest.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, app) in current where registered[id] != app {
            if directory.builtInIDs.contains(id) {
                if registered[id] == nil { logger.warning("A registered app has the id of a built-in app and is ignored", metadata: ["app": "\(id)"]) }
            } else {
                let remote = RemoteApp(manifest: app.manifest, link: ServerAppLink(app: id, name: app.manifest.name, apps: self))
                directory.register(AnyMessagesApp(remote, assetsDirectory: directory.assetFolder(of: id)))
                if registered[id] == nil { logger.info("An app outside the server was added", metadata: ["app": "\(id)"]) }
            }
            if let old = registered[id], old.secretHash != app.secretHash {
                close(id, where: { $0.secretHash != app.secretHash }, reason: "This app's credential was replaced.")
            }
        }
        for (id, app) in registered where current[id] == nil {
            directory.unregister(id)
            close(id, where: { _ in true }, reason: "This app was removed from the server.")
            logger.info("An app outside the server was removed", metadata: ["app": "\(id)"])
            await onRemoved(id, "\(app.manifest.name) was removed from this server.")
        }
        registered = current
    }

    /// The registered app a credential belongs to.
    func app(forSecret secret: String) async throws -> RegisteredApp? {
        let hash = Self.hash(secret: secret)
        try await sync()
        return registered.values.first { $0.secretHash == hash && !directory.builtInIDs.contains($0.manifest.id) }
    }

    func add(_ connection: AppConnection) {
        connections[connection.app, default: []].append(connection)
    }

    func remove(_ connection: AppConnection) {
        connections[connection.app]?.removeAll { $0 === connection }
    }

    func connectionCount(of app: AppID) -> Int { connections[app]?.count ?? 0 }

    /// The next connected copy of `app`, in turn.
    func connection(for app: AppID) -> AppConnection? {
        guard let copies = connections[app], !copies.isEmpty else { return nil }
        let index = (turn[app] ?? 0) % copies.count
        turn[app] = index + 1
        return copies[index]
    }

    private func close(_ app: AppID, where shouldClose: (AppConnection) -> Bool, reason: String) {
        for connection in connections[app] ?? [] where shouldClose(connection) {
            connection.end(reason: reason)
        }
        connections[app]?.removeAll(where: shouldClose)
    }
}

/// How a `RemoteApp` in the directory reaches its process: through whichever copy is connected.
struct ServerAppLink: AppLink {
    let app: AppID
    let name: String
    let apps: RemoteApps

    func call(_ call: AppWire.Call, container: (any AppContainer)?) async throws(MessagesError) -> AppWire.Result {
        guard let connection = await apps.connection(for: app) else {
            throw MessagesError(.appUnavailable, "\(name) is not connected to this server right now; try again later.")
        }
        return try await connection.call(call, container: container)
    }
}

/// One connected copy of an app: its WebSocket, and the calls waiting for an answer.
final class AppConnection: Sendable {
    let app: AppID
    let name: String
    let secretHash: String
    let deadline: Duration
    private let outbound: AsyncStream<Outgoing>.Continuation
    let frames: AsyncStream<Outgoing>
    private let state = Mutex(State())

    enum Outgoing: Sendable {
        case frame(String)
        case close(String)
    }

    private struct State {
        var pending: [String: Pending] = [:]
        var closed = false
        /// Frames received in the current second, for the flood limit.
        var window: (start: ContinuousClock.Instant, count: Int)?
    }

    private struct Pending {
        let continuation: CheckedContinuation<AppWire.Result, any Error>
        let container: (any AppContainer)?
        var reads = 0
    }

    init(app: AppID, name: String, secretHash: String, deadline: Duration) {
        self.deadline = deadline
        self.app = app
        self.name = name
        self.secretHash = secretHash
        (frames, outbound) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .unbounded)
    }

    /// Sends `call` and waits for its answer, at most `deadline`.
    func call(_ call: AppWire.Call, container: (any AppContainer)?) async throws(MessagesError) -> AppWire.Result {
        let text = String(decoding: AppWire.encode(AppWire.ServerFrame.call(call)), as: UTF8.self)
        let deadline = Task {
            try await Task.sleep(for: self.deadline)
            self.fail(call.id, MessagesError(.appUnavailable, "\(self.name) is not responding; try again."))
        }
        defer { deadline.cancel() }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let accepted = state.withLock { state in
                    guard !state.closed else { return false }
                    state.pending[call.id] = Pending(continuation: continuation, container: container)
                    return true
                }
                guard accepted else {
                    continuation.resume(throwing: MessagesError(.appUnavailable, "\(name) disconnected; try again."))
                    return
                }
                outbound.yield(.frame(text))
            }
        } catch let error as MessagesError {
            throw error
        } catch {
            throw MessagesError(.appUnavailable, "\(name) is not responding; try again.")
        }
    }

    /// Handles one frame from the app.
    /// - Returns: false when the connection must close (a flood).
    func receive(_ text: String, logger: Logger) async -> Bool {
        let now = ContinuousClock.now
        let flooding = state.withLock { state -> Bool in
            if let window = state.window, now - window.start < .seconds(1) {
                state.window = (window.start, window.count + 1)
            } else {
                state.window = (now, 1)
            }
            return (state.window?.count ?? 0) > AppWire.maxFramesPerSecond
        }
        guard !flooding else { return false }
        let frame: AppWire.AppFrame
        do {
            frame = try AppWire.decode(AppWire.AppFrame.self, from: Data(text.utf8))
        } catch {
            // An answer the server cannot use fails its call at once, when it names one.
            if let id = Self.callID(in: text) {
                fail(id, MessagesError(.appUnavailable, "\(name) answered something Parlor could not use; try again."))
            }
            logger.warning("An app sent a frame the server could not read", metadata: ["app": "\(app)", "error": "\(error.message)"])
            send(.error(code: "malformedFrame", message: error.message))
            return true
        }
        switch frame {
        case .result(let result):
            resolve(result.id) { $0.resume(returning: result) }
        case .refuse(let refusal):
            resolve(refusal.id) { $0.resume(throwing: refusal.error) }
        case .containerGet(let id, let call, let key):
            await read(key, for: call, answering: id)
        }
        return true
    }

    /// The connection ended: every waiting call fails now, not at its deadline.
    func disconnected() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for pending in waiting {
            pending.continuation.resume(throwing: MessagesError(.appUnavailable, "\(name) disconnected; try again."))
        }
        outbound.finish()
    }

    /// Closes the connection with `reason` (a removed app, a replaced credential).
    func end(reason: String) {
        outbound.yield(.close(reason))
    }

    func send(_ frame: AppWire.ServerFrame) {
        outbound.yield(.frame(String(decoding: AppWire.encode(frame), as: UTF8.self)))
    }

    private func read(_ key: String, for call: String, answering id: String) async {
        let container = state.withLock { state -> (any AppContainer)?? in
            guard var pending = state.pending[call], pending.reads < AppWire.maxContainerReadsPerCall else { return .none }
            pending.reads += 1
            state.pending[call] = pending
            return .some(pending.container)
        }
        guard case .some(let container?) = container else {
            send(.error(code: "invalidValue", message: "containerGet names no open call of this app's with a container, or reads too often."))
            return
        }
        let data = try? await container.data(forKey: String(key.prefix(200)))
        send(.containerValue(id: id, value: data.flatMap { try? JSONValue(json: $0) } ?? .null))
    }

    private func resolve(_ id: String, _ body: (CheckedContinuation<AppWire.Result, any Error>) -> Void) {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
        body(pending.continuation)
    }

    private func fail(_ id: String, _ error: MessagesError) {
        resolve(id) { $0.resume(throwing: error) }
    }

    /// The call id an unreadable answer names, if any (`result.id` or `refusal.id`).
    private static func callID(in text: String) -> String? {
        guard text.utf8.count <= AppWire.maxFrameBytes * 4,
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return nil }
        for key in ["result", "refusal"] {
            if let inner = object[key] as? [String: Any], let id = inner["id"] as? String { return id }
        }
        return nil
    }
}

extension RemoteApps {
    /// Runs one app connection until it ends: the welcome, the writer of calls, the reader of
    /// answers. When it ends, its waiting calls fail at once.
    nonisolated func run(_ app: RegisteredApp, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, logger: Logger) async {
        let connection = AppConnection(app: app.manifest.id, name: app.manifest.name, secretHash: app.secretHash, deadline: deadline)
        await add(connection)
        logger.info("An app connected", metadata: ["app": "\(app.manifest.id)"])
        connection.send(.welcome(app: app.manifest.id, protocolVersion: AppWire.version))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await outgoing in connection.frames {
                    switch outgoing {
                    case .frame(let text):
                        do { try await outbound.write(.text(text)) } catch { return }
                    case .close(let reason):
                        try? await outbound.close(.policyViolation, reason: reason)
                        return
                    }
                }
            }
            group.addTask {
                do {
                    for try await message in inbound.messages(maxSize: AppWire.maxFrameBytes * 4) {
                        guard case .text(let text) = message else {
                            connection.send(.error(code: "malformedFrame", message: "Send JSON text frames."))
                            continue
                        }
                        guard await connection.receive(text, logger: logger) else {
                            logger.warning("An app sent too many frames and was disconnected", metadata: ["app": "\(app.manifest.id)"])
                            try? await outbound.close(
                                .policyViolation, reason: "More than \(AppWire.maxFramesPerSecond) frames in a second; reconnect and send less.")
                            return
                        }
                    }
                } catch {
                    logger.debug("An app connection ended", metadata: ["app": "\(app.manifest.id)", "error": "\(error)"])
                }
            }
            await group.next()
            group.cancelAll()
        }
        await remove(connection)
        connection.disconnected()
        logger.info("An app disconnected", metadata: ["app": "\(app.manifest.id)"])
    }
}
