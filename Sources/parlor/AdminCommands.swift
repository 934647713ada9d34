import ArgumentParser
import Foundation
import Logging
import ParlorAppRunner
import ParlorKit
import ParlorSeedApps
import ParlorWasmHost
import ParlorServer
import ParlorStickers
import ParlorStore
import ParlorStorePostgres
import ParlorStoreSQLite

/// `parlor user add|list|remove`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts.", subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account. The password is read from standard input.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The username: 3 to 32 letters, digits, dots, dashes or underscores.") var username: String
        @Option(help: "The name others see (default: the username).") var name: String?

        func run() async throws {
            try data.prepare()
            let store = try openStore(data)
            guard let password = readLine(strippingNewline: true), !password.isEmpty else {
                throw CommandFailure("Type the password on standard input (for example: echo 'secret-pass' | parlor user add \(username)).")
            }
            do {
                let user = try await Accounts(store: store, configuration: ServerConfiguration())
                    .signUp(username: username, displayName: name ?? username, password: password)
                print("Created \(user.username) (\(user.displayName)).")
            } catch let error as APIError {
                throw CommandFailure(error.message)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the accounts.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            let store = try openStore(data)
            for user in try await store.allUsers() { print("\(user.username)\t\(user.displayName)") }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account; its messages stay.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The username.") var username: String

        func run() async throws {
            let store = try openStore(data)
            guard let user = try await store.credentials(username: username)?.user else {
                throw CommandFailure("There is no user called \(username); 'parlor user list' shows who there is.")
            }
            try await store.deleteUser(id: user.id)
            print("Removed \(user.username).")
        }
    }
}

/// `parlor stickers validate|import`.
struct StickersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stickers", abstract: "Check and add sticker packs.", subcommands: [Validate.self, Import.self])

    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check a sticker pack (a folder of images or an Xcode .stickerpack).")
        @Argument(help: "The pack's folder.") var path: String

        func run() async throws {
            let problems = StickerPackLoader.validate(at: URL(fileURLWithPath: path))
            let loaded = try? StickerPackLoader.load(at: URL(fileURLWithPath: path))
            for problem in problems { print("\(problem.file): \(problem.error.message) [\(problem.error.code.name)]") }
            if let loaded { print("\(loaded.stickers.count) sticker(s) valid in \(loaded.pack.name).") }
            guard problems.isEmpty else { throw ExitCode(1) }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Import a sticker pack into the server's data directory.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The pack's folder.") var path: String

        func run() async throws {
            try data.prepare()
            do {
                let imported = try StickerPackLoader.import(from: URL(fileURLWithPath: path), into: data.stickerDirectory)
                for problem in imported.problems { print("Left out \(problem.file): \(problem.error.message)") }
                print("Imported \(imported.stickers.count) sticker(s) as the pack '\(imported.pack.id)'. A running server offers it within seconds.")
            } catch {
                throw CommandFailure(error.message)
            }
        }
    }
}

/// The store a command works on: the data directory's SQLite, or PostgreSQL with `--postgres`
/// (where several nodes share one database).
struct StoreOptions: ParsableArguments {
    @OptionGroup var data: DataOptions

    @Option(help: "Use PostgreSQL at this URL instead of the data directory's SQLite (env PARLOR_POSTGRES_URL).")
    var postgres: String?

    /// Runs `body` with the store open; a PostgreSQL connection pool runs only as long as it.
    func withStore<T: Sendable>(_ body: @escaping @Sendable (any ParlorStore) async throws -> T) async throws -> T {
        guard let url = postgres ?? ProcessInfo.processInfo.environment["PARLOR_POSTGRES_URL"] else {
            return try await body(try openStore(data))
        }
        let store: PostgresStore
        do {
            store = try PostgresStore(url: url, logger: Logger(label: "parlor"))
        } catch let error as StoreError {
            throw CommandFailure(error.message)
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await store.run()
                return nil
            }
            group.addTask { try await body(store) }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw CommandFailure("The connection to PostgreSQL ended before the command was done.")
        }
    }
}

func openStore(_ data: DataOptions) throws -> SQLiteStore {
    do {
        return try SQLiteStore(path: data.databasePath, logger: Logger(label: "parlor"))
    } catch let error as StoreError {
        throw CommandFailure(error.message)
    }
}

/// `parlor apps add|list|remove|rotate-secret`: apps that run outside the server. A running
/// server sees each change within a second.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "Add and remove apps that run outside the server (docs/APPS.md).",
        subcommands: [New.self, Icon.self, Build.self, Add.self, Upgrade.self, List.self, Remove.self, RotateSecret.self, Run.self, Simulate.self])

    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build an app written in Embedded Swift with ParlorWasmKit into one .wasm file, with the Swift toolchain alone (docs/APPS-WASM.md §6).")
        @Argument(help: "The app's folder (its .swift files and manifest.json), or one .swift file with manifest.json beside it.") var app: String
        @Option(name: .shortAndLong, help: "The module to write (default: app.wasm in the current folder).") var output = "app.wasm"
        @Option(help: "The manifest, when it is not the app's manifest.json.") var manifest: String?
        @Option(help: "Another ParlorWasmKit folder than the one this parlor carries among its resources (one you are changing, say); or PARLOR_WASM_KIT.") var kit: String?

        func run() async throws {
            do {
                var builder = try WasmAppBuilder(
                    app: URL(fileURLWithPath: app), manifest: manifest.map { URL(fileURLWithPath: $0) })
                if let kit { builder.kit = URL(fileURLWithPath: kit) }
                let report = try builder.build(to: URL(fileURLWithPath: output))
                let module = try WasmAppModule(bytes: Array(try Data(contentsOf: report.output)))
                print("\(report.output.path): \(module.manifest.name) (\(module.manifest.id)), \(report.byteCount) bytes. Add it with: parlor apps add \(output)")
            } catch let failure as WasmAppBuilder.Failure {
                throw CommandFailure(failure.description)
            } catch let error as MessagesError {
                throw CommandFailure("The module was built but Parlor would refuse it: \(error.message)")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an app: from its manifest (JSON), printing the app's credential once; or an app that is one WebAssembly file (docs/APPS-WASM.md), which every node runs itself.")
        @OptionGroup var data: StoreOptions
        @Argument(help: "The manifest file ({\"id\", \"name\", \"icon\": {\"url\"}, \"summary\"?}), or the app's .wasm file.") var manifest: String

        func run() async throws {
            try data.data.prepare()
            if let module = try AppsCommand.readModule(self.manifest) {
                let app = try await AppsCommand.failingAsCommand {
                    try await data.withStore { store in
                        try await AppRegistrations(store: store).add(module: module, limits: WasmLimits(), builtIn: SeedApps.all().map(\.manifest))
                    }
                }
                print("Added \(app.manifest.name) (\(app.manifest.id)), a WebAssembly app of \(module.count) bytes, SHA-256 \(app.moduleHash ?? "").")
                print("Every node running on this store runs it within a second; nothing else to start.")
                return
            }
            let manifest = try readManifest(self.manifest)
            let secret = try await AppsCommand.failingAsCommand {
                try await data.withStore { store in
                    try await AppRegistrations(store: store).add(manifest, builtIn: SeedApps.all().map(\.manifest))
                }
            }
            print("Added \(manifest.name) (\(manifest.id)). Its credential, shown only now:")
            print(secret)
        }
    }

    struct Upgrade: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace a WebAssembly app with a new version of it (the same id): servers take it between calls; open instances keep their state.")
        @OptionGroup var data: StoreOptions
        @Argument(help: "The new .wasm file.") var module: String

        func run() async throws {
            guard let module = try AppsCommand.readModule(self.module) else { throw CommandFailure("\(self.module) is not a WebAssembly module.") }
            let app = try await AppsCommand.failingAsCommand {
                try await data.withStore { try await AppRegistrations(store: $0).upgrade(module: module, limits: WasmLimits(), builtIn: SeedApps.all().map(\.manifest)) }
            }
            print("Upgraded \(app.manifest.name) (\(app.manifest.id)) to a module of \(module.count) bytes, SHA-256 \(app.moduleHash ?? "").")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the registered apps: those that dial in, and WebAssembly apps with their module's SHA-256.")
        @OptionGroup var data: StoreOptions

        func run() async throws {
            for app in try await data.withStore({ try await AppRegistrations(store: $0).list() }) {
                let kind = app.moduleHash.map { "wasm sha256:\($0)" } ?? "dials in"
                print("\(app.manifest.id)\t\(app.manifest.name)\t\(kind)\tadded \(app.addedAt.formatted(.iso8601))")
            }
        }
    }

    /// The bytes of a WebAssembly module at `path` (its magic number says so), or nil for another file.
    static func readModule(_ path: String) throws -> Data? {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("\(path) cannot be read: \(error.localizedDescription)")
        }
        return data.starts(with: [0x00, 0x61, 0x73, 0x6D]) ? data : nil
    }

    /// Runs `body`, turning Parlor's refusals into the command's failure with their sentence.
    static func failingAsCommand<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as MessagesError {
            throw CommandFailure(error.message)
        } catch let error as APIError {
            throw CommandFailure(error.message)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an app: its connections and open surfaces close.")
        @OptionGroup var data: StoreOptions
        @Argument(help: "The app's id.") var id: String

        func run() async throws {
            do {
                try await data.withStore { try await AppRegistrations(store: $0).remove(AppID(id)) }
                print("Removed \(id).")
            } catch let error as MessagesError {
                throw CommandFailure(error.message)
            }
        }
    }

    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret", abstract: "Give an app a new credential; the old one stops working at once.")
        @OptionGroup var data: StoreOptions
        @Argument(help: "The app's id.") var id: String

        func run() async throws {
            do {
                let secret = try await data.withStore { try await AppRegistrations(store: $0).rotateSecret(of: AppID(id)) }
                print("New credential for \(id), shown only now:")
                print(secret)
            } catch let error as MessagesError {
                throw CommandFailure(error.message)
            }
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a seed app in this process, dialled in to a server that hosts it outside (parlor serve --out-of-process ID).")
        @Argument(help: "The seed app's id, for example org.parlor.tictactoe.") var id: String
        @Option(help: "The server's address; for several nodes of one Parlor, their addresses separated by commas (env PARLOR_URL; default http://127.0.0.1:8080).") var server: String?
        @Option(help: "The feed LinkShare reads.") var feedURL: String?

        func run() async throws {
            guard ProcessInfo.processInfo.environment["PARLOR_APP_SECRET"].map({ !$0.isEmpty }) == true else {
                throw CommandFailure("Set PARLOR_APP_SECRET to the app's credential (parlor serve prints it, or parlor apps rotate-secret \(id)).")
            }
            do {
                try await SeedApps.runOutOfProcess(
                    AppID(id), servers: server.map(ServerAddresses.parse) ?? [], secret: nil, feedURL: feedURL.flatMap(URL.init(string:))
                ) {
                    // Unbuffered, so a script waiting for it sees it at once.
                    FileHandle.standardOutput.write(Data("\(id) is connected.\n".utf8))
                }
            } catch let error as MessagesError {
                throw CommandFailure(error.message)
            } catch let error as ConnectionRefused {
                throw CommandFailure(error.description)
            }
        }
    }
}
