import Foundation
@_spi(Hosting) import ParlorHost
import ParlorKit
import ParlorTesting
import ParlorWasmHost
import Testing

/// An app written in Embedded Swift and built with the Swift toolchain alone
/// (examples/hello-embedded-swift), hosted as one WebAssembly file.
/// Its tests build modules with the Swift toolchain, one at a time: several at once, beside the
/// rest of the suite, would starve tests that wait on the clock.
@Suite("WebAssembly apps: Embedded Swift", .serialized)
struct EmbeddedSwiftTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Hello, in Embedded Swift, built by its script into one .wasm file, opens in the simulator with its view and manifest")
    func hello() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hello-\(UUID().uuidString).wasm")
        defer { try? FileManager.default.removeItem(at: output) }
        let build = Process()
        build.executableURL = Self.root.appendingPathComponent("examples/hello-embedded-swift/build")
        build.arguments = [output.path]
        build.standardOutput = FileHandle.nullDevice
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0, "examples/hello-embedded-swift/build failed")

        let module = try WasmAppModule(bytes: Array(try Data(contentsOf: output)))
        #expect(module.manifest.id == "org.example.hello-embedded", "the manifest travels in the module")
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], hosting: [WasmApp.app(module)])
        let opened = try await simulator.participant("Alice").openApp(named: "Hello Embedded")
        #expect(opened.visibleTexts == ["Hello from Embedded Swift"])
        #expect(await simulator.participant("Alice").appError() == nil)
    }

    /// An app of `source` (one Swift file) and `manifest`, built by `WasmAppBuilder` in a folder
    /// of its own.
    static func build(
        _ source: String, manifest: String = #"{"id": "org.example.echo", "name": "Echo", "icon": {"url": "https://example.org/echo.png"}}"#,
        toolchainUnicode: Bool = true
    ) throws -> (WasmAppBuilder.Report, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wasm-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(source.utf8).write(to: folder.appendingPathComponent("App.swift"))
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        var builder = try WasmAppBuilder(app: folder)
        builder.usesToolchainUnicodeData = toolchainUnicode
        let report = try builder.build(to: folder.appendingPathComponent("app.wasm"))
        return (report, folder)
    }

    static let echo = #"""
        import ParlorWasmKit

        struct Echo: MessagesApp {
            struct State: AppState {
                var said = ""
                init() {}
                init(json: JSON) throws(AppError) { said = json["said"].string ?? "" }
                var json: JSON { ["said": .string(said)] }
            }
            var initialState: State { State() }
            func body(state: State, context: Context) -> View {
                VStack {
                    TextField("Say", text: state.said, id: "say", onSubmit: ["say": TextField.typed])
                    Text(state.said, id: "said")
                }.view
            }
            func handle(_ action: JSON, state: inout State, context: Context, effects: inout Effects) throws(AppError) {
                guard let text = action["say"].string else { throw AppError(.actionRefused, "Echo has no such control.") }
                guard !text.utf8.isEmpty else { throw AppError(.invalidValue, "Say something.") }
                state.said = text
            }
        }

        @_expose(wasm, "parlor_call") @_cdecl("parlor_call")
        func parlorCall(_ call: UnsafePointer<UInt8>, _ length: Int32) -> Int64 { Echo().answer(call, length) }
        """#

    @Test("An app written with ParlorWasmKit and built by WasmAppBuilder reads and writes JSON as Foundation does: text typed with quotes, back-slashes, control characters, accents and emoji comes back in its view exactly; its refusal reaches the person")
    func kitRoundTrip() async throws {
        let (report, folder) = try Self.build(Self.echo)
        defer { try? FileManager.default.removeItem(at: folder) }
        let module = try WasmAppModule(bytes: Array(try Data(contentsOf: report.output)))
        #expect(module.manifest.name == "Echo" && report.byteCount == module.byteCount)
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], hosting: [WasmApp.app(module)])
        let alice = simulator.participant("Alice")
        _ = try await alice.openApp(named: "Echo")
        // The kit reads and writes strings eight bytes at a time: what needs an escape at each
        // place in, and across, those eight.
        let aroundWords = [0, 1, 6, 7, 8, 9, 15, 16, 17].map { String(repeating: "x", count: $0) + "\"\\\u{1}é\u{7F}" + String(repeating: "y", count: $0) }
        for typed in ["plain", "He said \"hi\" \\ /slash/", "tab\tline\nbreak\u{1}\u{1F}", "Gr\u{FC}\u{DF}e Gru\u{308}\u{DF}e 👩‍👩‍👧‍👦 👋🏽 🇯🇵", "مرحبا \u{200B}\u{FEFF}"] + aroundWords {
            try await alice.submit(typed, in: "say")
            let said = await alice.view().visibleTexts.last
            #expect(said.map { Array($0.unicodeScalars) } == Array(typed.unicodeScalars), "\(typed.debugDescription)")
        }
        try await alice.submit("", in: "say")
        #expect(await alice.appError() == MessagesError(.invalidValue, "Say something."))
    }

    @Test("The kit's query items and JSON reader at their edges: a name written with an escape, the first of two values, a URL written back as read, a bad escape at the very end, strings of eight and sixteen bytes with no closing quote, a name given twice in non-ASCII or in bytes that are not UTF-8")
    func kitEdges() async throws {
        let source = #"""
            import ParlorWasmKit
            struct Edges: MessagesApp {
                struct State: AppState {
                    init() {}
                    init(json: JSON) throws(AppError) {}
                    var json: JSON { [:] }
                }
                var initialState: State { State() }
                func body(state: State, context: Context) -> View {
                    VStack {
                        for line in Edges.checks() { Text(line) }
                    }.view
                }
                func handle(_ action: JSON, state: inout State, context: Context, effects: inout Effects) throws(AppError) {}

                static func parses(_ bytes: [UInt8]) -> Bool {
                    bytes.withUnsafeBufferPointer { (try? JSON(parsing: $0)) != nil }
                }

                static func checks() -> [String] {
                    var lines: [String] = []
                    func check(_ name: String, _ passed: Bool) { lines.append(passed ? "ok" : "failed: " + name) }
                    let base = "https://example.org/a"
                    let items = try? QueryItems(url: base + "?position%30=X&b=1&b=2&c=%7e", base: base)
                    check("a name written with an escape", items?["position0"] == "X")
                    check("the first of two values", items?["b"] == "1")
                    check("a value read back", items?["c"] == "~")
                    check("written back as read", items?.url(base: base) == base + "?position%30=X&b=1&b=2&c=%7e")
                    check("a bad escape at the end", (try? QueryItems(url: base + "?a=%4", base: base)) == nil)
                    check("a bad escape in a name", (try? QueryItems(url: base + "?%zz=1", base: base)) == nil)
                    check("eight bytes unterminated", (try? JSON(parsing: #""abcdefgh"#)) == nil)
                    check("sixteen bytes unterminated", (try? JSON(parsing: #""abcdefghabcdefgh"#)) == nil)
                    check("eight bytes", (try? JSON(parsing: #""abcdefgh""#))?.string == "abcdefgh")
                    check("a name twice, once escaped", !parses(Array(#"{"aé":1,"a\u00e9":2}"#.utf8)))
                    check("a name twice, non-ASCII", !parses(Array(#"{"aé":1,"aé":2}"#.utf8)))
                    check("a name twice, not UTF-8", !parses(Array(#"{"a"#.utf8) + [0xFF] + Array(#"":1,"a"#.utf8) + [0xFE] + Array(#"":2}"#.utf8)))
                    check("names alike but not the same", parses(Array(#"{"ab":1,"ba":2,"a":3,"abcdefghi":4,"abcdefghj":5}"#.utf8)))
                    return lines
                }
            }

            @_expose(wasm, "parlor_call") @_cdecl("parlor_call")
            func parlorCall(_ call: UnsafePointer<UInt8>, _ length: Int32) -> Int64 { Edges().answer(call, length) }
            """#
        let (report, folder) = try Self.build(source, manifest: #"{"id": "org.example.edges", "name": "Edges", "icon": {"url": "https://example.org/edges.png"}}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let module = try WasmAppModule(bytes: Array(try Data(contentsOf: report.output)))
        let simulator = ConversationSimulator(participants: ["Alice"], hosting: [WasmApp.app(module)])
        let texts = try await simulator.participant("Alice").openApp(named: "Edges").visibleTexts
        #expect(texts.count == 13 && texts.allSatisfy { $0 == "ok" }, "\(texts)")
    }

    @Test("A kit app fetches through Parlor (Host.fetch): the answer reaches its view; a host the manifest does not allow gets the manifest's sentence")
    func kitFetch() async throws {
        let fetching = Self.echo.replacingOccurrences(of: "state.said = text", with: #"""
            switch Host.fetch("https://\(text)/feed", method: "POST", headers: [("Accept", "text/plain")], body: "hi") {
            case .success(let response): state.said = "\(response.status) \(response.body)"
            case .failure(let error): throw error
            }
            """#)
        let manifest = #"{"id": "org.example.echo", "name": "Echo", "icon": {"url": "https://example.org/echo.png"}, "allowedHosts": ["feeds.example.org"]}"#
        let (report, folder) = try Self.build(fetching, manifest: manifest)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = WasmSandboxTests.RecordingFetchClient()
        let simulator = ConversationSimulator(
            participants: ["Alice"], hosting: [WasmApp.app(try WasmAppModule(bytes: Array(try Data(contentsOf: report.output))))], httpClient: client)
        let alice = simulator.participant("Alice")
        _ = try await alice.openApp(named: "Echo")
        try await alice.submit("feeds.example.org", in: "say")
        #expect(await alice.view().visibleTexts.last == "200 hello")
        let sent = client.requests.withLock { $0 }
        #expect(sent.map(\.url.absoluteString) == ["https://feeds.example.org/feed"])
        #expect(sent.first?.method == "POST" && sent.first?.headers == ["Accept": "text/plain"] && sent.first?.body == Data("hi".utf8))
        try await alice.submit("elsewhere.example", in: "say")
        let refusal = await alice.appError()
        #expect(refusal?.code == .hostNotAllowed && refusal?.message.contains("may not reach elsewhere.example") == true, "\(String(describing: refusal))")
    }

    @Test("A kit app uploads an image it made (Host.upload) and shows it by its id in its view and in a message; a file that is not an image gets the upload rules' sentence, a ninth upload in one call is refused")
    func kitUpload() async throws {
        let uploading = Self.echo
            .replacingOccurrences(of: "state.said = text", with: #"""
                let png: [UInt8] = [
                    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
                    0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41,
                    0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
                    0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
                ]
                let times = text == "many" ? 9 : 1
                for _ in 0..<times {
                    switch Host.upload(text == "text" ? [0x68, 0x69] : png) {
                    case .success(let id):
                        state.said = id
                    case .failure(let error): throw error
                    }
                }
                effects.send(AppMessage(url: "https://example.org/echo", caption: "Look", image: .upload(state.said)))
                """#)
            .replacingOccurrences(of: #"Text(state.said, id: "said")"#, with: #"""
                Text(state.said, id: "said")
                if state.said.utf8.count == 64 { Image(.upload(state.said), label: "What Echo made") }
                """#)
        let (report, folder) = try Self.build(uploading)
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulator = ConversationSimulator(
            participants: ["Alice", "Bob"], hosting: [WasmApp.app(try WasmAppModule(bytes: Array(try Data(contentsOf: report.output))))])
        let alice = simulator.participant("Alice")
        _ = try await alice.openApp(named: "Echo")
        try await alice.submit("png", in: "say")
        #expect(await alice.appError() == nil)
        let shown = await alice.view().allNodes.compactMap { node -> ImageSource? in if case .image(let image) = node { image.source } else { nil } }
        guard case .upload(let id)? = shown.first else {
            Issue.record("no uploaded image in the view: \(shown)")
            return
        }
        #expect(await simulator.uploadedImage(id)?.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "the PNG the module made")
        let message = try #require(try await simulator.participant("Bob").transcript().last?.message)
        #expect(message.template?.image == .upload(id), "the message shows it by the same id")

        try await alice.submit("text", in: "say")
        #expect(await alice.appError()?.code == .improperFileType)
        try await alice.submit("many", in: "say")
        let refusal = await alice.appError()
        #expect(refusal?.code == .actionRefused && refusal?.message.contains("at most 8") == true, "\(String(describing: refusal))")
    }

    @Test("A kit app compares, hashes and changes the case of Strings as Swift does (the Unicode data linked in: the toolchain's, or the kit's generated tables): é typed decomposed equals the composed é, is one key of a Set, and lowercases", arguments: [true, false])
    func unicodeStrings(toolchainUnicode: Bool) async throws {
        let unicode = Self.echo.replacingOccurrences(
            of: "state.said = text",
            with: #"state.said = "\(text.lowercased()) \(text == "CAFÉ" ? "same" : "different") \(Set([text, "CAFÉ"]).count) \(["ß": 1][text.lowercased()] ?? 0)""#)
        let (report, folder) = try Self.build(unicode, toolchainUnicode: toolchainUnicode)
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulator = ConversationSimulator(participants: ["Alice"], hosting: [WasmApp.app(try WasmAppModule(bytes: Array(try Data(contentsOf: report.output))))])
        let alice = simulator.participant("Alice")
        _ = try await alice.openApp(named: "Echo")
        try await alice.submit("CAFE\u{301}", in: "say")
        #expect(await alice.view().visibleTexts.last == "cafe\u{301} same 1 0")
        try await alice.submit("Café", in: "say")
        #expect(await alice.view().visibleTexts.last == "café different 2 0")
        try await alice.submit("ß", in: "say")
        #expect(await alice.view().visibleTexts.last == "ß different 2 1")
    }

    @Test("parlor apps build says what is wrong: the compiler's own words for an app that does not compile, and where the manifest should be")
    func buildFailures() throws {
        let broken = Self.echo.replacingOccurrences(of: "state.said = text", with: "state.said = undefinedName")
        #expect {
            _ = try Self.build(broken)
        } throws: { error in
            let said = "\(error)"
            return said.hasPrefix("Building the app failed:") && said.contains("undefinedName") && said.contains("App.swift")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wasm-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.echo.utf8).write(to: folder.appendingPathComponent("App.swift"))
        #expect {
            _ = try WasmAppBuilder(app: folder)
        } throws: { error in
            "\(error)".contains("There is no manifest at \(folder.path)/manifest.json")
        }
    }

    @Test("A game of Tic-Tac-Toe in Embedded Swift runs in instances reused from call to call: its calls fit the module's first megabyte, so Parlor puts it back instead of making a new one")
    func reusedInstances() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tictactoe-\(UUID().uuidString).wasm")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try WasmAppBuilder(app: Self.root.appendingPathComponent("examples/tictactoe-wasm")).build(to: output)
        let module = try WasmAppModule(bytes: Array(try Data(contentsOf: output)))
        let link = WasmAppLink(module: module)
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], hosting: [AnyMessagesApp(RemoteApp(manifest: module.manifest, link: link))])
        let alice = simulator.participant("Alice"), bob = simulator.participant("Bob")
        _ = try await alice.openApp(named: module.manifest.name)
        try await alice.tap("square4")
        _ = try await alice.sendStaged()
        for (person, square) in [(bob, 0), (alice, 8), (bob, 2)] {
            _ = try await person.tapLatestMessage()
            try await person.tap("square\(square)")
            _ = try await person.sendStaged()
        }
        let made = link.instancesMade
        #expect(made >= 1 && made <= WasmAppLink.maxConcurrentCalls, "\(made) instances for a game of some twenty calls")
    }
}
