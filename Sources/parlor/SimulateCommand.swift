import ArgumentParser
import Foundation
import ParlorHost
import ParlorKit
import ParlorTesting
import ParlorWasmHost

extension AppsCommand {
    /// `parlor apps simulate MANIFEST -- COMMAND…`: ParlorTesting's simulator for an app in any
    /// language, driven by lines of JSON on standard input (`SimulatorDriver`), so the app's own
    /// tests act as any number of people with no server and no browser (docs/APPS.md).
    struct Simulate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Host an app in the simulator with simulated people, driven by JSON lines on standard input (docs/APPS.md).",
            discussion: """
                Each line read is a request such as {"as": "Alice", "do": "openApp", "app": "Dice"}; each answer is one line \
                of JSON on standard output. The app is started with COMMAND and spoken to over its standard input and output, \
                or, with --listen, dials in as it would to a server: the first line printed then gives its PARLOR_URL and \
                PARLOR_APP_SECRET, and requests wait until it is connected. An app that is one WebAssembly file \
                (docs/APPS-WASM.md) is given as that file, with no command: the simulator runs it itself.
                """)
        @Argument(help: "The app's manifest (JSON), as for parlor apps add; or the app's .wasm file.") var manifest: String
        @Option(help: "The people in the conversation, separated by commas.") var people = "Alice,Bob"
        @Flag(help: "Wait for the app to dial in over WebSocket instead of starting COMMAND.") var listen = false
        @Option(help: "How long to wait for one answer of the app, in seconds (at most 600).") var deadline = 5.0
        @Argument(parsing: .postTerminator, help: "The command that starts the app (after --).") var command: [String] = []

        func validate() throws {
            if (try? AppsCommand.readModule(manifest)) ?? nil != nil {
                guard !listen, command.isEmpty else {
                    throw ValidationError("A .wasm app runs in the simulator itself: give neither a command nor --listen.")
                }
                return
            }
            guard listen != !command.isEmpty else {
                throw ValidationError("Give the app's command after --, or --listen for an app that dials in, not both.")
            }
            guard deadline >= 0.001, deadline <= 600 else { throw ValidationError("--deadline is in seconds, from 0.001 to 600.") }
        }

        func run() async throws {
            let names = people.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw CommandFailure("--people names nobody.") }
            let wait = Duration.seconds(deadline)
            let app: AnyMessagesApp
            var listener: AppListener?
            var process: ProcessAppLink?
            if let module = try AppsCommand.readModule(self.manifest) {
                app = WasmApp.app(try await AppsCommand.failingAsCommand { try WasmAppModule(bytes: Array(module)) })
            } else if listen {
                let manifest = try readManifest(self.manifest)
                let opened = try await OutOfProcess.listen(manifest: manifest, deadline: wait)
                listener = opened
                app = opened.app
                let encoder = JSONEncoder()
                encoder.outputFormatting = .withoutEscapingSlashes
                Self.write(try encoder.encode(["listening": ["url": opened.url.absoluteString, "secret": opened.secret]]))
            } else {
                let manifest = try readManifest(self.manifest)
                do {
                    let started = try OutOfProcess.process(manifest: manifest, command: command, deadline: wait)
                    process = started
                    app = started.app
                } catch {
                    throw CommandFailure("Cannot start \(command.joined(separator: " ")): \(error.localizedDescription).")
                }
            }
            defer {
                listener?.close()
                process?.terminate()
            }
            let driver = SimulatorDriver(simulator: ConversationSimulator(participants: names, hosting: [app]))
            try await listener?.waitForApp()
            for await line in Self.standardInputLines() where !line.allSatisfy(\.isWhitespace) {
                Self.write(await driver.respond(to: Data(line.utf8)))
            }
        }

        /// Standard input's lines, read on a thread of their own: a blocking read must not hold
        /// one of the few threads that run the simulator and the app's link.
        private static func standardInputLines() -> AsyncStream<String> {
            AsyncStream { continuation in
                Thread.detachNewThread {
                    while let line = readLine(strippingNewline: true) {
                        continuation.yield(line)
                    }
                    continuation.finish()
                }
            }
        }

        /// One answer and its newline, unbuffered: the test reading it is waiting for it.
        private static func write(_ line: Data) {
            FileHandle.standardOutput.write(line + Data("\n".utf8))
        }
    }
}

/// Reads an app's manifest file (`parlor apps add`, `parlor apps simulate`).
/// - Throws: a `CommandFailure` that points to an example.
func readManifest(_ path: String) throws -> AppManifest {
    do {
        return try JSONDecoder().decode(AppManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
        throw CommandFailure("\(path) is not an app manifest: \(error.localizedDescription). docs/APPS.md shows one.")
    }
}
