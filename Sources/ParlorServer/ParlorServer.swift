import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ParlorHost
import ParlorStore
import ServiceLifecycle

/// Builds the Parlor server: HTTP API, WebSocket gateway, app host and web client, with the
/// services it runs beside (expiry sweeps, the apps' HTTP client).
///
/// ```swift
/// let store = try SQLiteStore(path: "data/parlor.sqlite", logger: logger)
/// let directory = try AppDirectory(apps: [AnyMessagesApp(MyApp())], stickerDirectory: nil)
/// let app = ParlorServer.makeApplication(configuration: .init(port: 8080), store: store, directory: directory, logger: logger)
/// try await app.runService()
/// ```
public enum ParlorServer {
    /// The folder of the browser client's files.
    public static var webRoot: URL? { Bundle.module.url(forResource: "Web", withExtension: nil) }

    public static func makeApplication(
        configuration: ServerConfiguration, store: any ParlorStore, directory: AppDirectory, logger: Logger,
        bus: any ClusterBus = SingleNodeBus(), metrics: ServerMetrics = ServerMetrics(), services extraServices: [any Service] = [],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.redirectConfiguration = .disallow
        clientConfiguration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        let services = ParlorServices(
            store: store, directory: directory, configuration: configuration, httpClient: httpClient, bus: bus, metrics: metrics,
            logger: logger)
        let accounts = services.accounts
        let gate = AdminGate(configuration: configuration)
        store.observeCommits { batch, duration in metrics.commit(batch: batch, took: duration) }

        let router = Router(context: ParlorRequestContext.self)
        router.middlewares.add(SecurityHeaders())
        router.middlewares.add(SessionAuthenticator(accounts: accounts))
        router.middlewares.add(RequestMetrics(metrics: metrics))
        router.middlewares.add(CrossSiteGuard(publicOrigin: configuration.publicOrigin))
        if let webRoot {
            router.middlewares.add(FileMiddleware(webRoot.path, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true, logger: logger))
            do {
                try WebAppRoutes(root: webRoot).add(to: router)
            } catch {
                logger.error("The web client's files cannot be read: no service worker", metadata: ["error": "\(error)"])
            }
        }
        DeveloperDocs(root: configuration.docsDirectory).add(to: router, logger: logger)
        OperatorRoutes(services: services, readiness: store, gate: gate).add(to: router)
        AuthRoutes(accounts: accounts, sessions: services.sessions, configuration: configuration, caches: services.renderer.caches, bus: bus,
            conversations: services.conversations).add(to: router)
        ConversationRoutes(services: services).add(to: router)
        PushRoutes(subscriptions: services.pushSubscriptions).add(to: router)
        AppRoutes(
            drawers: services.drawers, directory: directory, renderer: services.renderer, uploads: services.uploads,
            configuration: configuration).add(to: router)
        AdminRoutes(
            registrations: AppRegistrations(store: store), remoteApps: services.remoteApps, directory: directory, gate: gate,
            wasmLimits: configuration.wasmLimits
        ).add(to: router)
        ImageProxy(configuration: configuration, links: services.renderer.imageLinks, metrics: metrics).add(to: router)
        let gateway = Gateway(
            services: services, deliverySource: StoreDeliverySource(store: store, renderer: services.renderer, apps: services.apps))
        router.socket("/ws") { request, context in
            // A plain GET gets these errors; a refused upgrade is answered 400 whatever the reason.
            guard let user = context.user, let tokenHash = context.tokenHash else { throw APIError.unauthorized }
            guard Self.isSameOrigin(request, publicOrigin: configuration.publicOrigin) else {
                throw APIError(.forbidden, code: .crossSiteRequest, "The WebSocket opens from Parlor's own pages only.")
            }
            return gateway.endpoint(for: user, tokenHash: tokenHash, logger: context.logger)
        }
        router.socket("/api/apps/connect") { request, context in
            // An app outside the server dials in with its credential (docs/APPS-PROTOCOL.md).
            let address = context.clientAddress(of: request, trustedProxies: configuration.trustedProxies)
            guard let secret = SessionAuthenticator.bearerToken(in: request),
                  let app = try await services.remoteApps.app(forSecret: secret, from: address)
            else {
                throw APIError(.unauthorized, code: .unknownAppCredential, "That app credential is not registered here; run `parlor apps add` for one.")
            }
            if let version = request.uri.queryParameters.get("protocol"), version != String(AppWire.version) {
                throw APIError(.badRequest, code: .unsupportedProtocol, "This server speaks app protocol \(AppWire.version) only.")
            }
            let logger = context.logger
            return SocketEndpoint(maxMessageBytes: AppWire.maxFrameBytes, run: .task { channel in
                await services.remoteApps.run(app, channel: channel, logger: logger)
            })
        }
        router.answerOtherMethodsWith405(staticPaths: ["/"])

        var operatorServices: [any Service] = []
        if let metricsPort = configuration.metricsPort {
            operatorServices.append(metricsApplication(port: metricsPort, services: services, logger: logger))
        }
        let maxFrameBytes = max(1 << 20, configuration.maxClientMessageBytes * 4)
        // One responder for requests and for upgrade requests (which `socket` routes answer).
        let routes = router.buildResponder()
        return Application(
            responder: routes,
            server: HTTPServerBuilder { responder in
                SocketChannel(
                    responder: responder, upgradeResponder: routes, maxFrameBytes: maxFrameBytes,
                    pingInterval: configuration.webSocketPingInterval)
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Parlor"),
            services: extraServices + operatorServices + [
                PeriodicWork(name: "Expiry sweep", interval: configuration.expirySweepInterval, logger: logger) {
                    try await services.messaging.sweepExpired()
                },
                // Sign-ins that ended without this node hearing of it (expired, or an account
                // removed by `parlor user remove`): their sockets close.
                PeriodicWork(name: "Session sweep", interval: configuration.sessionSweepInterval, logger: logger) {
                    try await services.sessions.sweep()
                },
                PeriodicWork(name: "Unused upload sweep", interval: .seconds(3600), logger: logger) {
                    try await services.uploads.removeUnused(olderThan: configuration.unusedUploadLifetime)
                },
                AppDeliveryService(deliveries: services.fanOut.deliveries, host: services.apps),
                PushService(deliveries: services.fanOut.pushes, sender: services.pushSender),
                // Apps added or removed with `parlor apps` while the server runs.
                PeriodicWork(name: "App registrations", interval: .seconds(1), logger: logger) {
                    try await services.remoteApps.sync()
                },
                // Sticker packs imported with `parlor stickers import` while the server runs.
                PeriodicWork(name: "Imported sticker packs", interval: .seconds(2), logger: logger) {
                    for pack in directory.refreshImportedPacks() {
                        logger.info("A sticker pack was imported", metadata: ["pack": "\(pack)"])
                    }
                },
                HTTPClientService(client: httpClient), ClusterSync(services: services, store: store),
            ] + (bus is SingleNodeBus ? [] : [PresenceReporter(hub: services.fanOut.hub, bus: bus, logger: logger)]),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                // Apps added with `parlor apps` (outside the server, or one WebAssembly file) are
                // hosted before the first connection is accepted: a browser reconnecting after a
                // restart finds them in its drawer, not "get it from the store".
                do {
                    try await services.remoteApps.sync()
                } catch {
                    logger.warning("The apps added with `parlor apps` could not be read yet; tried again every second", metadata: ["error": "\(error)"])
                }
                // The server accepts connections only once this returns: warm up beside it.
                // It says it is ready once it also hears the other nodes: a message another node
                // commits before then would reach this node's connections only with the next one.
                Task {
                    await warmUp(port: port, host: configuration.host, logger: logger)
                    await bus.ready()
                    await onServerRunning(port)
                }
            },
            logger: logger)
    }

    /// `/metrics` alone, without a token, on 127.0.0.1:`port` (`--metrics-port`): for a
    /// Prometheus on the same machine, never on the public listener.
    static func metricsApplication(port: Int, services: ParlorServices, logger: Logger) -> some Service {
        let router = Router()
        router.get("/metrics") { _, _ in await OperatorRoutes.metrics(of: services) }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Parlor metrics"), logger: logger)
    }

    /// Makes the server's first connections to itself, one after another, before it says it is
    /// ready. Swift 6.3's runtime can crash when two event-loop threads instantiate the same
    /// generic metadata of the connection pipeline at once, which happens when the very first
    /// connections arrive together (seen in the browser tests); after one connection has been set
    /// up, that metadata exists and the race is gone.
    ///
    /// It uses a client of its own, shut down afterwards: a connection left idle in the shared
    /// client's pool would hold the server's graceful shutdown for the pool's idle timeout (60 s).
    static func warmUp(port: Int, host: String, logger: Logger) async {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let address = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        for upgrade in [false, true] {
            var request = HTTPClientRequest(url: "http://\(address):\(port)/healthz")
            if upgrade {
                request.url = "http://\(address):\(port)/ws"
                request.headers.add(name: "Connection", value: "Upgrade")
                request.headers.add(name: "Upgrade", value: "websocket")
                request.headers.add(name: "Sec-WebSocket-Version", value: "13")
                request.headers.add(name: "Sec-WebSocket-Key", value: "cGFybG9yLXdhcm0tdXAhIQ==")
            }
            do {
                _ = try await client.execute(request, timeout: .seconds(5))
            } catch {
                logger.debug("Warm-up request failed", metadata: ["error": "\(error)"])
            }
        }
        try? await client.shutdown()
    }

    /// A browser's WebSocket must come from the page's own origin (no cross-site hijacking): the
    /// server's own host, or `publicOrigin` behind a proxy. Browsers send the page's http(s)
    /// origin; a ws(s) origin is a non-browser client naming its own URL.
    static func isSameOrigin(_ request: Request, publicOrigin: String?) -> Bool {
        guard let origin = request.headers[.origin] else { return true }  // not a browser
        if let publicOrigin, origin.lowercased() == publicOrigin { return true }
        guard let host = request.head.authority, let originURL = URL(string: origin) else { return false }
        if let scheme = originURL.scheme?.lowercased(), scheme == "ws" || scheme == "wss" { return true }
        let originHost = originURL.host.map { host in originURL.port.map { "\(host):\($0)" } ?? host }
        return originHost == host
    }
}

/// Work the server repeats while it runs: hiding expired messages, forgetting unused uploads.
struct PeriodicWork: Service {
    let name: String
    let interval: Duration
    let logger: Logger
    let work: @Sendable () async throws -> Void

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // Shutting down cancels the sleep: that ends the work, it is not a failure.
                guard (try? await Task.sleep(for: interval)) != nil else { return }
                do {
                    try await work()
                } catch {
                    logger.warning("\(name) failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}

/// Owns the apps' HTTP client: shuts it down when the server stops.
struct HTTPClientService: Service {
    let client: HTTPClient

    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
