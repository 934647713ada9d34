import ArgumentParser
import Foundation
import ParlorKit

extension AppsCommand {
    /// `parlor apps new NAME`: a package with a working app, its simulator test and a README, as
    /// `swift package init` and `cargo new` write one.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a Swift package with a working message app, its test in the simulator and a README.")
        @Argument(help: "The app's name, a Swift type name such as Wave or QuickPoll.") var name: String
        @Option(help: "Where to write the package (default: a new folder named NAME here).") var directory: String?
        @Option(help: "The ParlorSDK package to depend on (default: the one this parlor was built from).") var sdk: String?

        func run() throws {
            let sdkPath = try resolvedSDK()
            let folder = URL(fileURLWithPath: directory ?? name, isDirectory: true)
            let files = try NewAppTemplate.files(name: name, sdkPath: sdkPath)
            guard !FileManager.default.fileExists(atPath: folder.path) else {
                throw CommandFailure("\(folder.path) already exists; pick another name or --directory.")
            }
            do {
                for (path, text) in files {
                    let file = folder.appendingPathComponent(path)
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(text.utf8).write(to: file)
                }
            } catch {
                throw CommandFailure("Cannot write \(folder.path): \(error.localizedDescription).")
            }
            print("""
                Wrote \(name) in \(folder.path).
                  cd \(folder.path)
                  swift test                                  # the app with three people in the simulator
                  parlor apps add manifest.json --data-dir <the server's data directory>   # prints its credential
                  PARLOR_URL=<the address parlor serve printed> PARLOR_APP_SECRET=… swift run --package-path Runner   # the app, dialled in
                README.md says more; docs/APPS.md is the tutorial.
                """)
        }

        /// The SDK's folder: `--sdk`, else the ParlorSDK next to the sources this binary was built from.
        private func resolvedSDK() throws -> String {
            let candidate = sdk.map { URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("ParlorSDK")
            let manifest = candidate.appendingPathComponent("Package.swift")
            guard FileManager.default.fileExists(atPath: manifest.path) else {
                throw CommandFailure("No ParlorSDK package at \(candidate.path); pass --sdk with the path of Parlor's ParlorSDK folder.")
            }
            return candidate.standardizedFileURL.path
        }
    }
}

/// The files `parlor apps new` writes.
enum NewAppTemplate {
    /// - Throws: `CommandFailure` when `name` is not a type name an app can have.
    static func files(name: String, sdkPath: String) throws -> [(path: String, text: String)] {
        let letters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let allowed = letters.union(CharacterSet(charactersIn: "0123456789"))
        guard (1...40).contains(name.count), name.unicodeScalars.allSatisfy(allowed.contains),
              let first = name.unicodeScalars.first, letters.contains(first), first.properties.isUppercase
        else {
            throw CommandFailure("An app's name is a Swift type name: a capital letter, then up to 39 letters or digits (Wave, QuickPoll).")
        }
        let fill = { (template: String) in
            template
                .replacingOccurrences(of: "__NAME__", with: name)
                .replacingOccurrences(of: "__ID__", with: "org.example.\(name.lowercased())")
                .replacingOccurrences(of: "__SDK__", with: sdkPath)
        }
        return [
            ("Package.swift", fill(packageManifest)),
            ("Sources/\(name)/\(name).swift", fill(app)),
            ("Tests/\(name)Tests/\(name)Tests.swift", fill(test)),
            ("Tests/\(name)Tests/ManifestTests.swift", fill(manifestTest)),
            ("manifest.json", try manifestJSON(name: name)),
            ("Runner/Package.swift", fill(runnerManifest)),
            ("Runner/Sources/\(name)App/main.swift", fill(runnerMain)),
            ("README.md", fill(readme)),
            (".gitignore", ".build/\nPackage.resolved\nRunner/.build/\n"),
        ]
    }

    /// The icon the app's manifest draws (in Swift and in manifest.json alike).
    static let iconSVG = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#2b7de9"/></svg>"##
    static let summary = "Send a greeting that carries who sent it."

    /// `manifest.json`: the manifest the app declares in Swift, as `parlor apps add` reads it
    /// (the package's ManifestTests checks that the two stay the same).
    static func manifestJSON(name: String) throws -> String {
        let manifest = AppManifest(id: AppID("org.example.\(name.lowercased())"), name: name, icon: .svg(iconSVG), summary: summary)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let text = String(data: try encoder.encode(manifest), encoding: .utf8) else {
            throw CommandFailure("The manifest of \(name) could not be written as JSON.")
        }
        return text + "\n"
    }

    static let packageManifest = #"""
        // swift-tools-version: 6.1
        import PackageDescription

        // The app and its tests: ParlorKit and ParlorTesting only, so `swift test` builds in
        // seconds. The runner that dials in to a server is the package in Runner/, which brings
        // SwiftNIO and builds only when you run the app.
        let package = Package(
            name: "__NAME__",
            platforms: [.macOS(.v15)],
            products: [.library(name: "__NAME__", targets: ["__NAME__"])],
            // Once ParlorSDK is published: .package(url: "https://…/parlor-sdk.git", from: "1.0.0")
            dependencies: [.package(path: "__SDK__")],
            targets: [
                .target(name: "__NAME__", dependencies: [.product(name: "ParlorKit", package: "ParlorSDK")]),
                .testTarget(name: "__NAME__Tests", dependencies: [
                    "__NAME__",
                    .product(name: "ParlorKit", package: "ParlorSDK"),
                    .product(name: "ParlorTesting", package: "ParlorSDK"),
                ]),
            ],
            swiftLanguageModes: [.v6]
        )

        """#

    static let runnerManifest = #"""
        // swift-tools-version: 6.1
        import PackageDescription

        // __NAME__ in its own process, dialled in to a Parlor server (docs/APPS.md). The SDK's
        // AppRunner trait brings the WebSocket client (SwiftNIO).
        let package = Package(
            name: "__NAME__Runner",
            platforms: [.macOS(.v15)],
            dependencies: [
                .package(path: ".."),
                .package(path: "__SDK__", traits: ["AppRunner"]),
            ],
            targets: [
                .executableTarget(name: "__NAME__App", dependencies: [
                    .product(name: "__NAME__", package: "__NAME__"),
                    .product(name: "ParlorAppRunner", package: "ParlorSDK"),
                ]),
            ],
            swiftLanguageModes: [.v6]
        )

        """#

    static let runnerMain = #"""
        import ParlorAppRunner
        import __NAME__

        // PARLOR_URL (default http://127.0.0.1:8080) and PARLOR_APP_SECRET, from `parlor apps add manifest.json`.
        try await AppRunner(app: __NAME__()).run()

        """#

    static let manifestTest = #"""
        import Foundation
        import ParlorKit
        import Testing
        import __NAME__

        @Suite("manifest.json")
        struct ManifestTests {
            /// The manifest is written once, in Swift; manifest.json (what `parlor apps add` reads)
            /// must say the same, or the server would list another app than the one that answers.
            @Test("manifest.json says what the app's manifest in Swift says")
            func manifestFileMatches() throws {
                let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("manifest.json")
                let written = try JSONDecoder().decode(AppManifest.self, from: Data(contentsOf: file))
                let declared = __NAME__().manifest
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let expected = String(decoding: try encoder.encode(declared), as: UTF8.self)
                #expect(written == declared, "manifest.json is out of date; write this in it:\n\(expected)")
            }
        }

        """#

    static let app = #"""
        import ParlorKit

        /// Pick a greeting: it is staged as a message that carries it in its URL, and whoever taps
        /// the message sees it and who sent it.
        public struct __NAME__: MessagesApp {
            public init() {}

            public var manifest: AppManifest {
                AppManifest(
                    id: "__ID__", name: "__NAME__",
                    icon: .svg(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#2b7de9"/></svg>"##),
                    summary: "Send a greeting that carries who sent it.")
            }

            public struct State: Codable, Sendable {
                var received: String?
                var from: ParticipantID?
            }

            public enum Action: Codable, Sendable { case greet(String) }

            public var initialState: State { State() }
            static let greetings = ["Hi!", "Good morning", "See you soon"]

            /// The view is a function of the state.
            public func body(state: State, environment: ViewEnvironment) -> ViewNode {
                VStack {
                    if let received = state.received {
                        Text(received, style: .title, id: "greeting")
                        if let from = state.from { Text("from \(from.mention)", style: .caption) }
                    }
                    for greeting in Self.greetings { Button(greeting, action: Action.greet(greeting)) }
                }
            }

            /// A tap stages a message; the person sends it from the compose field.
            public func handle(_ action: Action, state: inout State, context: AppContext) async throws {
                guard case .greet(let text) = action else { return }
                let url = try QueryItems(["text": text]).url(base: "https://example.org/__NAME__")
                try await context.conversation.insert(
                    Message(url: url, layout: .template(TemplateLayout(caption: text)), summaryText: "Said \(text)"))
            }

            /// Opened from a message: show what it carries.
            public func willBecomeActive(state: inout State, context: AppContext) async throws {
                guard let message = context.conversation.selectedMessage, let url = message.url else { return }
                state.received = try QueryItems(url: url).require("text")
                state.from = message.senderParticipantIdentifier
            }
        }

        """#

    static let test = #"""
        import ParlorKit
        import ParlorTesting
        import Testing
        import __NAME__

        @Suite("__NAME__")
        struct __NAME__Tests {
            @Test("A greeting Alice sends reaches Bob, who sees it and its sender when he taps it")
            func greeting() async throws {
                let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], apps: [__NAME__()])
                let alice = simulator.participant("Alice")
                try await alice.openApp(named: "__NAME__")
                try await alice.tap("Good morning")
                #expect(await alice.staged()?.message?.template?.caption == "Good morning")
                try await alice.sendStaged()

                let bob = simulator.participant("Bob")
                let view = try await bob.tapMessage(containing: "Good morning")
                #expect(view.visibleTexts.contains("Good morning"))
                #expect(view.visibleTexts.contains("from \(try await alice.participantID(in: "__NAME__").mention)"))
            }
        }

        """#

    static let readme = #"""
        # __NAME__

        A message app for Parlor, written with ParlorKit.

        - `Sources/__NAME__/__NAME__.swift`: the app: its manifest, state, view and hooks.
        - `Tests/__NAME__Tests/`: the app with three people in ParlorTesting's simulator, no server,
          and a check that `manifest.json` says what the app's manifest in Swift says.
        - `manifest.json`: the manifest `parlor apps add` reads. Change the manifest in Swift; the
          test prints the JSON to put here. `parlor apps icon FILE` turns an SVG or PNG into the
          `icon` value.
        - `Runner/`: the app in its own process, dialled in to a server (`AppRunner`). A package of its
          own, because it brings SwiftNIO: `swift test` here stays quick.

        ```
        swift test                                        # the app, tested
        parlor apps add manifest.json --data-dir PARLOR_DATA   # PARLOR_DATA: the server's --data-dir; prints the credential
        PARLOR_URL=http://127.0.0.1:8080 PARLOR_APP_SECRET=… swift run --package-path Runner
        ```

        `PARLOR_URL` is the server's address (what `parlor serve` printed). The runner's first build
        fetches and builds SwiftNIO (network needed once; a few minutes); later ones take seconds.
        `swift test` prints "Executed 0 tests" from XCTest before Swift Testing's count: not a failure.

        Then open Parlor in a browser, open a conversation, and pick __NAME__ in everyone's drawer:
        tapping a greeting puts its message in the compose field (`insert`), and Send sends it.
        Parlor's `docs/APPS.md` says more.

        """#
}
