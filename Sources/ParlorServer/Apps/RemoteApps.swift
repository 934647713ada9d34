import Foundation
import Logging
import NIOCore
import Synchronization
import ParlorHost
import ParlorKit
import ParlorStore
import ParlorWasmHost

/// Apps that run outside the server (docs/APPS-PROTOCOL.md): which are registered, which copies
/// are connected, and the calls between.
///
/// The registered apps live in the store (`parlor apps add`, which can run beside a running
/// server); `sync()` reads them every second, so a new app appears in the directory at once, and a
/// removed app or a rotated credential ends its connections at once. Calls go to the app's
/// connected copies in turn; an app that is not connected, late, or unusable costs its own users
/// a sentence in the app's surface and nothing else.
actor RemoteApps {
    let store: any AppRegistryStore
    let directory: AppDirectory
    let logger: Logger
    /// How long a call waits for its answer.
    let deadline: Duration
    /// What an app that is a WebAssembly module may use.
    let wasmLimits: WasmLimits
    nonisolated let metrics: ServerMetrics
    /// Told when an app goes away, to close its open surfaces.
    private let onRemoved: @Sendable (AppID, String) async -> Void
    /// Told when a WebAssembly app is replaced by a new version, to drop the instances running the old.
    private let onUpgraded: @Sendable (AppID) async -> Void
    private var registered: [AppID: RegisteredApp] = [:]
    private var connections: [AppID: [AppConnection]] = [:]
    private var turn: [AppID: Int] = [:]
    /// The sync running now, numbered: a second caller waits for it rather than running one beside
    /// it (two syncs interleaving could apply an older read after a newer one).
    private var syncing: (number: Int, task: Task<Void, any Error>)?
    private var syncsStarted = 0
    /// Unknown credentials per client address (each may cost a read of the registrations).
    private let unknownCredentials = RateLimiter(limit: 20, window: .seconds(60))

    init(
        store: any AppRegistryStore, directory: AppDirectory, deadline: Duration, wasmLimits: WasmLimits, metrics: ServerMetrics,
        logger: Logger, onUpgraded: @escaping @Sendable (AppID) async -> Void = { _ in },
        onRemoved: @escaping @Sendable (AppID, String) async -> Void
    ) {
        self.onUpgraded = onUpgraded
        self.store = store
        self.wasmLimits = wasmLimits
        self.metrics = metrics
        self.deadline = deadline
        self.directory = directory
        self.logger = logger
        self.onRemoved = onRemoved
    }

    /// A new credential: shown once, stored only as its hash.
    static func makeSecret() -> String {
        "parlor_app_" + Digest.randomToken()
    }

    static func hash(secret: String) -> String { Digest.sha256Hex(secret) }

    /// Reads the registered apps: adds the new ones to the directory, replaces changed manifests,
    /// removes the ones gone, and ends connections whose credential is no longer the app's.
    ///
    /// One sync at a time. When this returns, a sync that *started* after the call has finished, so
    /// a change the caller made just before is applied: a sync already running may have read the
    /// store before that change, so the caller waits for it and then for a newer one.
    func sync() async throws {
        let requested = syncsStarted
        while true {
            if let running = syncing {
                let result = await running.task.result
                if syncing?.number == running.number { syncing = nil }
                if running.number > requested { return try result.get() }
                continue
            }
            syncsStarted += 1
            let number = syncsStarted
            let task = Task { try await self.syncOnce() }
            syncing = (number, task)
            let result = await task.result
            if syncing?.number == number { syncing = nil }
            return try result.get()
        }
    }

    private func syncOnce() async throws {
        // Within a deadline: a database that does not answer must not hold the admin's request,
        // an app's connection or the next periodic sync.
        let store = store
        let read = try await withDeadline(.seconds(5)) { try await store.registeredApps() }
        var current = Dictionary(read.map { ($0.manifest.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, app) in current where registered[id] != app {
            if directory.builtInIDs.contains(id) {
                if registered[id] == nil { logger.warning("A registered app has the id of a built-in app and is ignored", metadata: ["app": "\(id)"]) }
            } else if app.moduleHash != nil {
                // One WebAssembly module, run here: read once per version (the registrations
                // carry only its hash), checked again with this node's limits.
                guard let wasm = await loadModule(of: app) else {
                    // Tried again at the next sync; meanwhile the version that runs stays listed as such.
                    current[id] = registered[id]
                    continue
                }
                let logger = logger
                directory.register(WasmApp.app(wasm, manifest: app.manifest) { line in logger.info("\(line)", metadata: ["app": "\(id)"]) })
                // Instances running the old version resume from their stored state with the new one.
                if registered[id] != nil { await onUpgraded(id) }
                logger.info(registered[id] == nil ? "A WebAssembly app was added" : "A WebAssembly app was upgraded", metadata: ["app": "\(id)"])
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

    /// The module of a module app, checked; nil (logged) when it cannot be read or run here.
    private func loadModule(of app: RegisteredApp) async -> WasmAppModule? {
        do {
            let store = store
            let id = app.manifest.id
            guard let bytes = try await withDeadline(.seconds(5), { try await store.registeredModule(id) }) else { return nil }
            return try WasmAppModule(bytes: Array(bytes), limits: wasmLimits)
        } catch {
            logger.error("A WebAssembly app cannot run on this node", metadata: ["app": "\(app.manifest.id)", "reason": "\(error)"])
            return nil
        }
    }

    /// The registered app a credential belongs to. Known credentials are answered from memory;
    /// an unknown one reads the registrations again (it may have been added this second), at most
    /// 20 times a minute per client address.
    /// - Throws: `tooManyAttempts` (429) past that allowance.
    func app(forSecret secret: String, from address: String) async throws -> RegisteredApp? {
        let hash = Self.hash(secret: secret)
        if let known = registeredApp(withHash: hash) { return known }
        if let wait = await unknownCredentials.take(RateLimiter.networkKey(of: address)) {
            throw APIError.tooMany(.tooManyAttempts, "Too many unknown app credentials from here; try again in \(wait) seconds.", retryAfter: wait)
        }
        try await sync()
        return registeredApp(withHash: hash)
    }

    private func registeredApp(withHash hash: String) -> RegisteredApp? {
        registered.values.first { $0.secretHash == hash && !directory.builtInIDs.contains($0.manifest.id) }
    }

    /// Counts a new connection of an app in, unless its credential was replaced or removed since
    /// it was checked, or the app has `AppWire.maxConnectionsPerApp` copies connected.
    /// - Returns: why it was refused, or nil.
    func add(_ connection: AppConnection) -> String? {
        guard registered[connection.app]?.secretHash == connection.secretHash else {
            return "This app's credential is no longer valid."
        }
        guard connectionCount(of: connection.app) < AppWire.maxConnectionsPerApp else {
            return "\(AppWire.maxConnectionsPerApp) copies of this app are connected, the most allowed; close one first."
        }
        connections[connection.app, default: []].append(connection)
        return nil
    }

    func remove(_ connection: AppConnection) {
        connections[connection.app]?.removeAll { $0 === connection }
    }

    func connectionCount(of app: AppID) -> Int { connections[app]?.count ?? 0 }

    /// Connected copies of every app.
    var totalConnections: Int { connections.values.reduce(0) { $0 + $1.count } }

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

    func call(_ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
        let start = ContinuousClock.now
        do throws(MessagesError) {
            guard let connection = await apps.connection(for: app) else {
                throw MessagesError(.appUnavailable, "\(name) is not connected to this server right now; try again later.")
            }
            let result = try await connection.call(call, container: container, upload: upload)
            apps.metrics.appCall(app: app.rawValue, outcome: "ok", took: .now - start)
            return result
        } catch {
            apps.metrics.appCall(app: app.rawValue, outcome: error.code.name, took: .now - start)
            throw error
        }
    }
}

extension RemoteApps {
    /// Runs one app connection until it ends: the welcome, the writer of calls, the reader of
    /// answers. When it ends, its waiting calls fail at once.
    nonisolated func run(_ app: RegisteredApp, channel: NIOAsyncChannel<SocketMessage, SocketOutbound>, logger: Logger) async {
        let connection = AppConnection(app: app.manifest.id, name: app.manifest.name, secretHash: app.secretHash, deadline: deadline)
        do {
            try await channel.executeThenClose { inbound, outbound in
                if let refusal = await add(connection) {
                    try? await outbound.write(.close(.policyViolation, reason: refusal))
                    return
                }
                await serve(connection, app: app, inbound: inbound, outbound: outbound, logger: logger)
            }
        } catch {
            logger.debug("An app connection ended", metadata: ["app": "\(app.manifest.id)", "error": "\(error)"])
        }
    }

    private nonisolated func serve(
        _ connection: AppConnection, app: RegisteredApp, inbound: NIOAsyncChannelInboundStream<SocketMessage>,
        outbound: NIOAsyncChannelOutboundWriter<SocketOutbound>, logger: Logger
    ) async {
        logger.info("An app connected", metadata: ["app": "\(app.manifest.id)"])
        connection.send(.welcome(app: app.manifest.id, protocolVersion: AppWire.version))
        // A close frame ends the connection when the app answers it (or after a grace): the reader
        // goes on until then, so the app gets the close and its reason rather than a reset.
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await outgoing in connection.frames {
                    switch outgoing {
                    case .frame(let text):
                        do { try await outbound.write(.text(text)) } catch { return true }
                        connection.wrote(text)
                    case .close(let reason):
                        try? await outbound.write(.close(.policyViolation, reason: reason))
                        return false
                    }
                }
                return false
            }
            group.addTask {
                do {
                    for try await message in inbound {
                        // Every frame counts towards the flood limit, binary ones too.
                        guard connection.admit() else {
                            logger.warning("An app sent too many frames and was disconnected", metadata: ["app": "\(app.manifest.id)"])
                            try? await outbound.write(
                                .close(.policyViolation, reason: "More than \(AppWire.maxFramesPerSecond) frames in a second; reconnect and send less."))
                            continue
                        }
                        switch message {
                        case .text(let text):
                            connection.receive(text, logger: logger)
                        case .binary:
                            connection.send(.error(code: "malformedFrame", message: "Send JSON text frames.", id: nil))
                        }
                    }
                } catch {
                    logger.debug("An app connection ended", metadata: ["app": "\(app.manifest.id)", "error": "\(error)"])
                }
                return true
            }
            // The reader ends with the connection; then the writer is stopped.
            while let readerEnded = await group.next() {
                if readerEnded { group.cancelAll() }
            }
        }
        await remove(connection)
        connection.disconnected()
        logger.info("An app disconnected", metadata: ["app": "\(app.manifest.id)"])
    }
}
