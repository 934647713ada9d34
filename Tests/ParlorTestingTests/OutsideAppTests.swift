import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ParlorHost
import ParlorKit
import ParlorTesting
import ParlorWasmHost
import Testing

/// An app in another language, tested headlessly: the Python example (examples/dice) started as
/// a process that speaks the app connection protocol on its standard input and output, hosted by
/// the simulator as a server hosts it.
@Suite("An app outside the process, in the simulator")
struct OutsideAppTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func manifest() throws -> AppManifest {
        try JSONDecoder().decode(AppManifest.self, from: Data(contentsOf: root.appendingPathComponent("examples/dice/manifest.json")))
    }

    static func dice() throws -> ProcessAppLink {
        try OutOfProcess.process(manifest: manifest(), command: ["python3", root.appendingPathComponent("examples/dice/dice.py").path])
    }

    /// Where Dice runs: the same app in Python, in its own process, or in C, as one WebAssembly
    /// file Parlor runs itself.
    enum DiceBuild: String, CaseIterable, CustomTestStringConvertible {
        case python = "in Python, in its own process"
        case wasm = "in C, as one WebAssembly file"

        var testDescription: String { rawValue }

        /// The app, and what ends it.
        func app() throws -> (app: AnyMessagesApp, stop: @Sendable () -> Void) {
            switch self {
            case .python:
                let dice = try OutsideAppTests.dice()
                return (dice.app, { dice.terminate() })
            case .wasm:
                return (WasmApp.app(try OutsideAppTests.wasmDice()), {})
            }
        }
    }

    /// examples/dice-c built with the toolchain's clang, as its build script does.
    static func wasmDice() throws -> WasmAppModule {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("dice-\(UUID().uuidString).wasm")
        defer { try? FileManager.default.removeItem(at: output) }
        let build = Process()
        build.executableURL = root.appendingPathComponent("examples/dice-c/build")
        build.arguments = [output.path]
        build.standardOutput = FileHandle.nullDevice
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0, "examples/dice-c/build failed")
        return try WasmAppModule(bytes: Array(try Data(contentsOf: output)))
    }

    @Test("Dice: three people roll in one session; the bubble keeps everyone's score; a forged score is refused by the app", arguments: DiceBuild.allCases)
    func threePeopleRoll(build: DiceBuild) async throws {
        let (dice, stop) = try build.app()
        defer { stop() }
        let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], hosting: [dice])
        let alice = simulator.participant("Alice")
        let bob = simulator.participant("Bob")
        let carol = simulator.participant("Carol")

        let opened = try await alice.openApp(named: "Dice")
        #expect(opened.visibleTexts.contains("Dice"), "\(opened.visibleTexts)")
        try await alice.tap("Roll a die")
        #expect(await alice.appError() == nil)
        let first = try #require(try await bob.transcript().last)
        #expect(first.text.contains("rolled"), "\(first.text)")

        for person in [bob, carol] {
            _ = try await person.tapLatestMessage()
            try await person.tap("Roll a die")
            let error = await person.appError()
            #expect(error == nil, "\(person.name): \(String(describing: error))")
        }
        let bubbles = try await alice.transcript().filter { $0.kind == .bubble && $0.appName == "Dice" }
        #expect(bubbles.count == 1, "one session, one bubble")
        let latest = try #require(bubbles.last?.posted.message)
        let scores = try #require(latest.template?.subcaption)
        #expect(scores.components(separatedBy: " · ").count == 3, "everyone's score: \(scores)")

        // Bob claims 100 points: the app's validate refuses it, and nothing is posted.
        var forged = latest
        forged.id = MessageID()
        let bobID = try await bob.participantID(in: "Dice")
        forged.url = URL(string: "https://parlor.example/dice?\(bobID)=100&last=\(bobID)&roll=6")
        do {
            _ = try await bob.sendRawMessage(forged, replacing: latest.id)
            Issue.record("a forged score was posted")
        } catch let error as MessagesError {
            #expect(error.code == .actionRefused && error.message == "That roll does not add up.", "\(error)")
        }
        #expect(try await alice.transcript().filter { $0.kind == .bubble && $0.appName == "Dice" }.last?.posted.id == latest.id)
    }

    @Test("A process that stops costs a sentence, not the conversation")
    func stoppedProcess() async throws {
        let dice = try Self.dice()
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], hosting: [dice.app])
        let alice = simulator.participant("Alice")
        _ = try await alice.openApp(named: "Dice")
        dice.terminate()
        try await alice.tap("Roll a die")
        #expect(await alice.appError()?.code == .appUnavailable)
        let sent = try await alice.send(text: "still talking")
        #expect(try await simulator.participant("Bob").transcript().last?.posted.id == sent.id, "the conversation goes on")
    }

    /// The dice app started as a person runs it against a server: dialling in over WebSocket.
    static func dialIn(to listener: AppListener, secret: String? = nil) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("examples/dice/dice.py").path]
        var environment = ProcessInfo.processInfo.environment
        environment["PARLOR_URL"] = listener.url.absoluteString
        environment["PARLOR_APP_SECRET"] = secret ?? listener.secret
        environment["PARLOR_STDIO"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = output
        try process.run()
        return (process, output)
    }

    @Test("Dice, in Python, dialled in to the simulator as to a server: played by two people; it leaving costs a sentence")
    func dialledIn() async throws {
        let listener = try await OutOfProcess.listen(manifest: Self.manifest())
        defer { listener.close() }
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], hosting: [listener.app])
        let alice = simulator.participant("Alice")
        let bob = simulator.participant("Bob")

        // Nothing connected yet: the person is told, and nothing is posted.
        _ = try? await alice.openApp(named: "Dice")
        let early = await alice.appError()
        #expect(early?.code == .appUnavailable && early?.message.contains("not connected") == true, "\(String(describing: early))")

        let (app, _) = try Self.dialIn(to: listener)
        defer { Self.kill(app) }
        try await listener.waitForApp()
        #expect(listener.connectedCount == 1)

        let opened = try await alice.openApp(named: "Dice")
        #expect(opened.visibleTexts.contains("Dice"), "\(opened.visibleTexts)")
        try await alice.tap("Roll a die")
        #expect(await alice.appError() == nil)
        _ = try await bob.tapLatestMessage()
        try await bob.tap("Roll a die")
        #expect(await bob.appError() == nil)
        let bubbles = try await alice.transcript().filter { $0.kind == .bubble && $0.appName == "Dice" }
        #expect(bubbles.count == 1, "one session, one bubble")
        let scores = try #require(bubbles.last?.posted.message?.template?.subcaption)
        #expect(scores.components(separatedBy: " · ").count == 2, "both scores: \(scores)")

        // The app stops: the next tap says so, and the conversation goes on.
        Self.kill(app)
        try await Self.eventually { !app.isRunning && listener.connectedCount == 0 }
        try await alice.tap("Roll a die")
        #expect(await alice.appError()?.code == .appUnavailable)
        let sent = try await alice.send(text: "still talking")
        #expect(try await bob.transcript().last?.posted.id == sent.id)
    }

    @Test("An app that dials in to the simulator with another credential is refused, and says why")
    func dialledInWithAnotherCredential() async throws {
        let listener = try await OutOfProcess.listen(manifest: Self.manifest())
        defer { listener.close() }
        let (app, output) = try Self.dialIn(to: listener, secret: "parlor_app_guessed")
        defer { Self.kill(app) }
        try await Self.eventually(within: .seconds(30)) { !app.isRunning }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(app.terminationStatus != 0)
        #expect(said.contains("does not know this app's credential"), "\(said)")
        #expect(listener.connectedCount == 0)
    }

    /// An app that answers its first call with a view that is not one, then draws what Parlor
    /// told it about that answer.
    static let spoiler = #"""
        import json, sys
        told = None
        for line in sys.stdin:
            frame = json.loads(line)
            if frame.get("type") == "error":
                told = frame.get("code")
            elif frame.get("type") == "call":
                call_id = frame["call"]["id"]
                view = 42 if told is None else {"type": "text", "text": f"Parlor said {told}", "style": "body"}
                print(json.dumps({"type": "result", "result": {"id": call_id, "view": view}}), flush=True)
        """#

    @Test("An app that answers something unreadable: the call fails at once with a sentence, the app is told malformedFrame, and its next answers are used")
    func unreadableAnswer() async throws {
        let manifest = try JSONDecoder().decode(AppManifest.self, from: Data(#"{"id": "org.example.spoiler", "name": "Spoiler", "icon": {"url": "https://example.org/icon.png"}}"#.utf8))
        // A deadline far beyond the test's patience: only failing the named call at once passes.
        let spoiler = try OutOfProcess.process(manifest: manifest, command: ["python3", "-c", Self.spoiler], deadline: .seconds(300))
        defer { spoiler.terminate() }
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], hosting: [spoiler.app])
        let alice = simulator.participant("Alice")

        let started = ContinuousClock.now
        _ = try? await alice.openApp(named: "Spoiler")
        let error = await alice.appError()
        #expect(error?.code == .appUnavailable && error?.message == "Spoiler answered something Parlor could not use; try again.", "\(String(describing: error))")
        // Half the deadline: Python's start under the whole suite took 11 s once, and 33 s another
        // time, on a 2-core machine.
        #expect(ContinuousClock.now - started < .seconds(150), "failed at once, not at the deadline")

        let reopened = try await alice.openApp(named: "Spoiler")
        #expect(reopened.visibleTexts == ["Parlor said malformedFrame"])
        #expect(await alice.appError() == nil)
        let sent = try await alice.send(text: "still talking")
        #expect(try await simulator.participant("Bob").transcript().last?.posted.id == sent.id)
    }

    /// Ends `process` at once. Not SIGTERM: a process started from a test's thread inherits its
    /// blocked signals, and would not end.
    static func kill(_ process: Process) {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits until `condition` holds, checking every 20 ms.
    static func eventually(within timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
        let end = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < end else {
                Issue.record("not within \(timeout)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
