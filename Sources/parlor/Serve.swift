import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ParlorKit
import ParlorSeedApps
import ParlorServer
import ParlorStore
import ParlorStoreSQLite
import ParlorStorePostgres
import ServiceLifecycle

/// `parlor serve`: runs the server until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Parlor server.")

    @OptionGroup var data: DataOptions

    @Option(help: "A sentence the sign-in page shows everyone, such as how to get an account (at most 300 characters).")
    var signInNotice: String?

    @Option(help: "The address to listen on (env PARLOR_HOST).")
    var host: String = ProcessInfo.processInfo.environment["PARLOR_HOST"] ?? "127.0.0.1"

    @Option(help: "The port; 0 picks a free one (env PARLOR_PORT).")
    var port: Int = ProcessInfo.processInfo.environment["PARLOR_PORT"].flatMap(Int.init) ?? 8080

    @Flag(help: "Create demo users and conversations, and print how to sign in.")
    var demo = false

    @Option(help: "Use PostgreSQL at this URL instead of SQLite, for several nodes (env PARLOR_POSTGRES_URL).")
    var postgres: String?

    @Option(help: "How SQLite syncs commits: full survives power loss; normal syncs at checkpoints only.")
    var durability: SQLiteStore.Durability = .full

    @Option(help: "The feed the LinkShare app reads (default: Reddit's r/programming).")
    var feedURL: String?

    @Option(help: "The least severe log level written (env LOG_LEVEL).")
    var logLevel: Logger.Level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info

    @Option(help: "The bcrypt cost of new passwords (4 to 16).")
    var passwordCost: Int = 11

    @Option(name: .customLong("trusted-proxy"), help: "A reverse proxy's address or network (CIDR, such as 10.0.0.0/8) whose X-Forwarded-For names the client (repeat for several).")
    var trustedProxies: [String] = []

    @Option(help: "The address people open when a reverse proxy stands in front, such as https://chat.example.org (env PARLOR_PUBLIC_URL): https makes cookies Secure.")
    var publicURL: String?

    /// `--public-url`, else the environment's PARLOR_PUBLIC_URL.
    private var publicAddress: String? { publicURL ?? ProcessInfo.processInfo.environment["PARLOR_PUBLIC_URL"] }

    @Option(help: "Serve /metrics without a token on this port of 127.0.0.1 (for a local Prometheus).")
    var metricsPort: Int?

    @Option(help: "How log lines look: text (for people) or json (one object per line, for collectors).")
    var logFormat: LogFormat = .text

    @Option(help: "How many accounts one client address may create per hour; 0 for no limit (load tests).")
    var signUpsPerHour: Int = 10

    @Option(help: "How many sign-ins and sign-ups together one client address may try per minute; 0 for no limit (load tests).")
    var passwordAttemptsPerMinute: Int = 30

    @Option(help: "How many conversations others may add one person to per minute; 0 for no limit (load tests).")
    var additionsPerMinute: Int = 20

    @Option(help: "How many messages one person may send per minute on average, after a burst of --message-burst; 0 for no limit (load tests).")
    var messagesPerMinute: Int = ServerConfiguration().messagesPerMinute

    @Option(help: "How many messages one person may send at once before --messages-per-minute holds them back.")
    var messageBurst: Int = ServerConfiguration().messageBurst

    @Option(help: "How many of one person's mentions of another alert them per minute (through a mute too); 0 for no limit.")
    var mentionAlertsPerMinute: Int = ServerConfiguration().mentionAlertsPerMinute

    @Option(help: "How long after sending a text its sender may edit it, in seconds (the browser follows).")
    var editWindowSeconds: Int = Int(ServerConfiguration().editWindow.components.seconds)

    @Option(help: "How long after sending a message its sender may unsend it, in seconds (the browser follows).")
    var unsendWindowSeconds: Int = Int(ServerConfiguration().unsendWindow.components.seconds)

    @Option(name: .customLong("out-of-process"), help: "A seed app to host as an app outside the server (repeat for several); run it with `parlor apps run ID`.")
    var outOfProcess: [String] = []

    @Option(help: ArgumentHelp(
        "The fuel (about one WebAssembly instruction each) one call of a WebAssembly app may burn; 0 turns metering off (measuring only: a loop would then never stop).",
        visibility: .hidden))
    var wasmFuelPerCall: UInt64 = ServerConfiguration().wasmLimits.fuelPerCall

    @Flag(help: "Let the image proxy, link previews, and apps whose manifest allows any host, reach hosts on private networks (a server on a local network).")
    var imageProxyPrivateHosts = false

    @Option(help: "Who runs this server, told to push services with each push: a mailto: or https: address (default: the https --public-url).")
    var pushContact: String?

    @Option(name: .customLong("push-service-host"), help: "A push service host to accept besides those of Chrome, Edge, Firefox and Safari (repeat for several; a loopback host is reached over HTTP: tests).")
    var pushServiceHosts: [String] = []

    @Option(help: "The SDK's documentation, built by scripts/docs, served at /docs/ (default: .build/parlor-docs when it exists).")
    var docsDir: String?

    @Option(help: "How long one push request may take, in seconds.")
    var pushDeadlineSeconds: Int = Int(ServerConfiguration().pushDeadline.components.seconds)

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("The port must be between 0 and 65535.") }
        if let level = ProcessInfo.processInfo.environment["LOG_LEVEL"], Logger.Level(rawValue: level) == nil {
            throw ValidationError("LOG_LEVEL is one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if let pushContact, !pushContact.hasPrefix("mailto:"), !pushContact.hasPrefix("https://") {
            throw ValidationError("--push-contact \(pushContact): a mailto: or https: address, as push services ask.")
        }
        if let bad = trustedProxies.first(where: { AddressRange($0) == nil }) {
            throw ValidationError("--trusted-proxy \(bad): not an IP address or a network such as 10.0.0.0/8.")
        }
        if let publicAddress {
            guard let url = URL(string: publicAddress), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
                  url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil, url.user == nil
            else {
                throw ValidationError("--public-url is the address people open, such as https://chat.example.org (no path, query or user).")
            }
        }
        if let metricsPort { guard (1...65535).contains(metricsPort) else { throw ValidationError("--metrics-port is between 1 and 65535.") } }
        if let signInNotice {
            guard signInNotice.count <= ServerConfiguration.maxSignInNoticeLength,
                  !signInNotice.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
            else {
                throw ValidationError("--sign-in-notice is one line of at most \(ServerConfiguration.maxSignInNoticeLength) characters, without control or invisible characters.")
            }
        }
        guard (4...16).contains(passwordCost) else { throw ValidationError("--password-cost is between 4 and 16.") }
        guard signUpsPerHour >= 0 else { throw ValidationError("--sign-ups-per-hour is 0 (no limit) or more.") }
        guard passwordAttemptsPerMinute >= 0 else { throw ValidationError("--password-attempts-per-minute is 0 (no limit) or more.") }
        guard additionsPerMinute >= 0 else { throw ValidationError("--additions-per-minute is 0 (no limit) or more.") }
        guard editWindowSeconds >= 0, unsendWindowSeconds >= 0 else {
            throw ValidationError("--edit-window-seconds and --unsend-window-seconds are 0 (never) or more.")
        }
        guard messagesPerMinute >= 0 else { throw ValidationError("--messages-per-minute is 0 (no limit) or more.") }
        guard messageBurst >= 1 else { throw ValidationError("--message-burst is 1 or more.") }
        guard mentionAlertsPerMinute >= 0 else { throw ValidationError("--mention-alerts-per-minute is 0 (no limit) or more.") }
        if let unknown = outOfProcess.first(where: { !SeedApps.ids.map(\.rawValue).contains($0) }) {
            throw ValidationError("--out-of-process \(unknown): not a seed app; they are \(SeedApps.ids.map(\.rawValue).joined(separator: ", ")).")
        }
        if let feedURL {
            guard let url = URL(string: feedURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--feed-url must be an http(s) URL.")
            }
        }
    }

    func run() async throws {
        try data.prepare()
        if logFormat == .json { LoggingSystem.bootstrap { JSONLogHandler(label: $0) } }
        var logger = Logger(label: "parlor")
        logger.logLevel = logLevel
        let seeds = SeedApps.all(feedURL: feedURL.flatMap(URL.init(string:)))
        let outside = seeds.filter { outOfProcess.contains($0.manifest.id.rawValue) }
        let directory = try AppDirectory(
            apps: seeds.filter { !outOfProcess.contains($0.manifest.id.rawValue) }, stickerDirectory: data.stickerDirectory,
            assetFolders: Dictionary(outside.compactMap { app in app.assetsDirectory.map { (app.manifest.id, $0) } }, uniquingKeysWith: { first, _ in first }),
            storeOnly: SeedApps.examples)
        var settings = ServerConfiguration(
            host: host, port: port, passwordCost: UInt8(passwordCost), trustedProxies: trustedProxies.compactMap(AddressRange.init),
            additionsPerMinute: additionsPerMinute, signUpsPerHour: signUpsPerHour,
            passwordAttemptsPerMinute: passwordAttemptsPerMinute, allowsPrivateHosts: imageProxyPrivateHosts)
        settings.publicURL = publicAddress.flatMap(URL.init(string:))
        settings.signInNotice = signInNotice ?? (demo ? DemoData.signInNotice : nil)
        settings.metricsPort = metricsPort
        settings.editWindow = .seconds(editWindowSeconds)
        settings.wasmLimits.fuelPerCall = wasmFuelPerCall
        settings.unsendWindow = .seconds(unsendWindowSeconds)
        settings.messagesPerMinute = messagesPerMinute
        settings.messageBurst = messageBurst
        settings.mentionAlertsPerMinute = mentionAlertsPerMinute
        settings.pushContact = pushContact
        settings.pushServiceHosts += pushServiceHosts.map { $0.lowercased() }
        settings.pushDeadline = .seconds(max(1, pushDeadlineSeconds))
        settings.docsDirectory = docsDirectory()
        // The operator's token for /api/admin (apps over HTTP) and /metrics; off without it.
        settings.adminToken(ProcessInfo.processInfo.environment["PARLOR_ADMIN_TOKEN"])
        let configuration = settings
        let store: any ParlorStore
        var bus: any ClusterBus = SingleNodeBus()
        var services: [any Service] = []
        if let postgres = postgres ?? ProcessInfo.processInfo.environment["PARLOR_POSTGRES_URL"] {
            let postgresStore: PostgresStore
            do {
                postgresStore = try PostgresStore(url: postgres, logger: logger)
            } catch let error as StoreError {
                throw CommandFailure(error.message)
            }
            store = postgresStore
            bus = postgresStore
            services = [postgresStore]  // started first, stopped last
        } else {
            store = try openStore(logger: logger)
        }
        // Seed apps hosted outside: registered as any outside app, with a credential made now and
        // written to a file only its owner reads (never printed: output often ends up in logs).
        var credentials: [(AppManifest, String)] = []
        for app in outside {
            let secret = try await AppRegistrations(store: store).register(seed: app.manifest)
            credentials.append((app.manifest, try data.writeCredential(secret, of: app.manifest.id)))
        }
        let outsideCredentials = credentials
        let host = self.host
        let demo = self.demo
        let app = ParlorServer.makeApplication(
            configuration: configuration, store: store, directory: directory, logger: logger, bus: bus, services: services
        ) { port in
            let url = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)"
            var lines = ["Parlor is running. Open \(url)/ in your browser."]
            if let origin = configuration.publicOrigin { lines.append("People open it at \(origin)/ (through the proxy).") }
            if let metricsPort = configuration.metricsPort { lines.append("Metrics: http://127.0.0.1:\(metricsPort)/metrics") }
            if configuration.docsDirectory != nil { lines.append("The app SDK's documentation: \(url)/docs/") }
            for (manifest, file) in outsideCredentials {
                lines.append("\(manifest.name) runs outside the server; start it with: PARLOR_URL=\(url) PARLOR_APP_SECRET=$(cat \(file)) parlor apps run \(manifest.id)")
            }
            if demo {
                do {
                    lines += try await DemoData.create(store: store, configuration: configuration)
                } catch {
                    lines.append("The demo data could not be created: \(error)")
                }
            }
            // Written unbuffered, so a script reading the output sees it at once.
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
        try await app.runService()
    }

    /// `--docs-dir`, else `.build/parlor-docs` when scripts/docs has built it there.
    private func docsDirectory() -> URL? {
        let path = docsDir ?? ".build/parlor-docs"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    private func openStore(logger: Logger) throws -> SQLiteStore {
        do {
            return try SQLiteStore(path: data.databasePath, durability: durability, logger: logger)
        } catch let error as StoreError {
            throw CommandFailure(error.message)
        }
    }
}

extension SQLiteStore.Durability: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}

/// How `parlor serve` writes its log.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
