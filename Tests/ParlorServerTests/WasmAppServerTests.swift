import Crypto
import Foundation
import HTTPTypes
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorWasmHost
import Testing

/// An app that is one WebAssembly file, added to a running server by the operator's route: run by
/// the server itself, refused with a sentence when it is not fit, upgraded in place, removed.
@Suite("WebAssembly apps on a running server")
struct WasmAppServerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let admin: HTTPFields = [.authorization: "Bearer \(OperationsTests.token)"]

    /// examples/dice-c, built by its script with the toolchain's clang; `title`: the view's title.
    static func dice(title: String = "Dice") throws -> Data {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("dice-\(UUID().uuidString).wasm")
        defer { try? FileManager.default.removeItem(at: output) }
        let build = Process()
        build.executableURL = root.appendingPathComponent("examples/dice-c/build")
        build.arguments = [output.path]
        build.environment = ProcessInfo.processInfo.environment.merging(["DICE_TITLE": title]) { $1 }
        build.standardOutput = FileHandle.nullDevice
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0, "examples/dice-c/build failed")
        return try Data(contentsOf: output)
    }

    static func post(_ api: API, module: Data, to path: String = "/api/admin/apps", method: HTTPRequest.Method = .post) async throws -> Reply {
        var headers = admin
        headers[.contentType] = AdminRoutes.wasmContentType
        return try await api.request(method, path, body: module, headers: headers)
    }

    @Test("parlor carries the kit it builds apps with: a copy of the program and its resources, moved away from Parlor's sources, builds an app with the copy's own kit, and says which file of it failed")
    func shippedKit() async throws {
        let built = try ParlorProcess.binary()
        let kit = WasmAppBuilder.shippedKitFolder
        #expect(!kit.path.hasPrefix(Self.root.appendingPathComponent("ParlorSDK").path), "the copy among the build's resources, not the sources: \(kit.path)")
        let sources = Self.root.appendingPathComponent("ParlorSDK/Sources/ParlorWasmHost/ParlorWasmKit")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: kit.path).sorted() == files)
        for file in files {
            #expect(try Data(contentsOf: kit.appendingPathComponent(file)) == Data(contentsOf: sources.appendingPathComponent(file)), "\(file)")
        }

        // The program and the kit's resources in a folder of their own, as a build is installed,
        // and the smallest app (built twice: a bigger one would hold the suite's clock-bound tests up).
        let installed = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-installed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: installed) }
        let app = installed.appendingPathComponent("Hi")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("examples/tictactoe-wasm/manifest.json"), encoding: .utf8)
            .replacingOccurrences(of: "org.example.tictactoe-wasm", with: "org.example.hi").replacingOccurrences(of: "Tic-Tac-Toe (Wasm)", with: "Hi")
        try Data(manifest.utf8).write(to: app.appendingPathComponent("manifest.json"))
        try Data("""
            import ParlorWasmKit
            struct Hi: MessagesApp {
                struct State: AppState {
                    init() {}
                    init(json: JSON) throws(AppError) {}
                    var json: JSON { [:] }
                }
                var initialState: State { State() }
                func body(state: State, context: Context) -> View { Text("Hi").view }
                func handle(_ action: JSON, state: inout State, context: Context, effects: inout Effects) throws(AppError) {}
            }
            @_expose(wasm, "parlor_call") @_cdecl("parlor_call")
            func parlorCall(_ call: UnsafePointer<UInt8>, _ length: Int32) -> Int64 { Hi().answer(call, length) }
            """.utf8).write(to: app.appendingPathComponent("App.swift"))
        let program = installed.appendingPathComponent("parlor")
        try FileManager.default.copyItem(at: built, to: program)
        let bundle = installed.appendingPathComponent(kit.deletingLastPathComponent().lastPathComponent)
        try FileManager.default.copyItem(at: kit.deletingLastPathComponent(), to: bundle)
        func build() async throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = program
            process.arguments = ["apps", "build", app.path, "-o", installed.appendingPathComponent("app.wasm").path]
            var environment = ProcessInfo.processInfo.environment
            environment["PARLOR_WASM_KIT"] = nil
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, printed)
        }
        let first = try await build()
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("Hi (org.example.hi)"), "\(first.output)")
        // The copy's kit is the one used: broken there, and only there, the build says so.
        try Data("not Swift".utf8).write(to: bundle.appendingPathComponent("ParlorWasmKit/ByteWriter.swift"))
        let broken = try await build()
        #expect(broken.status != 0 && broken.output.contains("ByteWriter.swift"), "\(broken.output)")
    }

    @Test("The operator adds Dice as one .wasm file: people play it at once, the list shows its module's hash, an upgrade replaces it in place, a removal takes it off")
    func addPlayUpgradeRemove() async throws {
        try await TestServer { $0.adminToken(OperationsTests.token) }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let module = try Self.dice()

            let added = try await Self.post(api, module: module)
            #expect(added.status == .created, "\(added.text)")
            let info = try added.decode(Wire.RegisteredAppInfo.self)
            let hash = SHA256.hash(data: module).map { String(format: "%02x", $0) }.joined()
            #expect(info.id == "org.example.dice" && info.moduleHash == hash)
            try await RemoteAppTests.waitUntilListed(api, as: alice, app: "org.example.dice")

            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            let opened = try await aliceSocket.openApp("org.example.dice", in: direct.id)
            #expect(opened.error == nil, "\(String(describing: opened.error))")
            #expect(opened.view.visibleTexts.contains("No rolls yet"), "\(opened.view.visibleTexts)")
            try await aliceSocket.activate("Roll a die", in: opened, conversation: direct.id)
            let rolled = try #require(try await bobSocket.messages(1).first)
            #expect(rolled.app?.layout.caption?.contains(" rolled ") == true, "\(String(describing: rolled.app))")

            let listed = try await api.request(.get, "/api/admin/apps", headers: Self.admin).decode([Wire.RegisteredAppInfo].self)
            #expect(listed.map(\.moduleHash) == [hash])
            // A module app has no credential to replace.
            let rotate = try await api.request(.post, "/api/admin/apps/org.example.dice/credential", headers: Self.admin)
            #expect(rotate.status == .badRequest && rotate.text.contains("no credential"), "\(rotate.text)")

            // Upgraded in place: a new version of the same app, which people see at their next open.
            let rebuilt = try Self.dice(title: "Dice 2")
            let upgraded = try await Self.post(api, module: rebuilt, to: "/api/admin/apps/org.example.dice/module", method: .put)
            #expect(upgraded.status == .ok, "\(upgraded.text)")
            #expect(try upgraded.decode(Wire.RegisteredAppInfo.self).moduleHash != hash)
            try await aliceSocket.send("closeApp", ["conversation": .string(direct.id.description)])
            try await aliceSocket.send("openApp", ["conversation": .string(direct.id.description), "app": "org.example.dice"])
            // The frames of the close, then of the open: the first drawn view after them is the new version's.
            var drawn: [String] = []
            for _ in 0..<10 {
                let update = try await aliceSocket.appUpdate()
                if update.isActive, update.error == nil, !update.view.visibleTexts.isEmpty { drawn = update.view.visibleTexts }
                if drawn.first == "Dice 2" { break }
            }
            #expect(drawn.first == "Dice 2", "the new version draws: \(drawn)")
            // ...under another app's id, it is refused.
            let wrongID = try await Self.post(api, module: rebuilt, to: "/api/admin/apps/org.example.other/module", method: .put)
            #expect(wrongID.status == .badRequest && wrongID.text.contains("keeps the app's id"), "\(wrongID.text)")

            let removed = try await api.request(.delete, "/api/admin/apps/org.example.dice", headers: Self.admin)
            #expect(removed.status == .noContent)
            try await RemoteAppTests.waitUntilListed(api, as: alice, app: "org.example.dice", listed: false)
            for socket in [aliceSocket, bobSocket] { await socket.disconnect() }
        }
    }

    /// An app in Embedded Swift (ParlorWasmKit) that fetches `http://<typed>/api/rules` through
    /// Parlor and shows the status and the body.
    static let fetcher = #"""
        import ParlorWasmKit

        struct Fetcher: MessagesApp {
            struct State: AppState {
                var got = ""
                init() {}
                init(json: JSON) throws(AppError) { got = json["got"].string ?? "" }
                var json: JSON { ["got": .string(got)] }
            }
            var initialState: State { State() }
            func body(state: State, context: Context) -> View {
                VStack {
                    TextField("Address", text: "", id: "address", onSubmit: ["address": TextField.typed])
                    Text(state.got, id: "got")
                }.view
            }
            func handle(_ action: JSON, state: inout State, context: Context, effects: inout Effects) throws(AppError) {
                guard let address = action["address"].string else { throw AppError(.actionRefused, "Fetcher has no such control.") }
                switch Host.fetch("http://\(address)/api/rules") {
                case .success(let response): state.got = "\(response.status) \(response.body)"
                case .failure(let error): throw error
                }
            }
        }

        @_expose(wasm, "parlor_call") @_cdecl("parlor_call")
        func parlorCall(_ call: UnsafePointer<UInt8>, _ length: Int32) -> Int64 { Fetcher().answer(call, length) }
        """#

    @Test("A module fetches over the network through the server, from the hosts its manifest names only: the answer reaches the person's view; another host gets the manifest's sentence")
    func fetchesThroughTheServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wasm-fetcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.fetcher.utf8).write(to: folder.appendingPathComponent("App.swift"))
        let manifest = #"{"id": "org.example.fetcher", "name": "Fetcher", "icon": {"url": "https://example.org/f.png"}, "allowedHosts": ["127.0.0.1"]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        // Built off Swift's cooperative threads: the toolchain takes seconds, and a blocked pool
        // thread would hold up the suites running beside this one.
        let module = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try Data(contentsOf: try WasmAppBuilder(app: folder).build(to: folder.appendingPathComponent("app.wasm")).output)
                })
            }
        }

        try await TestServer { $0.adminToken(OperationsTests.token) }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let added = try await Self.post(api, module: module)
            #expect(added.status == .created, "\(added.text)")
            try await RemoteAppTests.waitUntilListed(api, as: alice, app: "org.example.fetcher")

            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let opened = try await socket.openApp("org.example.fetcher", in: direct.id)
            #expect(opened.error == nil, "\(String(describing: opened.error))")
            // This server's own rules, fetched by the module over HTTP: what a person sees in the app.
            try await socket.submit("127.0.0.1:\(port)", in: "Address", of: opened, conversation: direct.id)
            let fetched = try await socket.appUpdate()
            let got = fetched.view.text(id: "got") ?? ""
            #expect(got.hasPrefix("200 {") && got.contains("\"maxAboutLength\""), "\(got) \(String(describing: fetched.error))")
            // The same server by another name: not a host the manifest names.
            try await socket.submit("localhost:\(port)", in: "Address", of: fetched, conversation: direct.id)
            let refused = try await socket.appUpdate()
            #expect(refused.error?.code == "hostNotAllowed" && refused.error?.message.contains("localhost") == true, "\(String(describing: refused.error))")
            #expect(refused.view.text(id: "got") == got, "what was fetched before stays")
            await socket.disconnect()
        }
    }

    @Test("A module that imports WASI, that is not WebAssembly, or larger than the limit is refused with a sentence; nothing is added")
    func refusals() async throws {
        try await TestServer {
            $0.adminToken(OperationsTests.token)
            $0.wasmLimits.maxModuleBytes = 64 * 1024
        }.run { api in
            // A module importing WASI's fd_write, in bytes: its type section, then its import section.
            var wasi: [UInt8] = [0x00, 0x61, 0x73, 0x6D, 1, 0, 0, 0, 0x01, 0x09, 0x01, 0x60, 0x04, 0x7F, 0x7F, 0x7F, 0x7F, 0x01, 0x7F]
            let (from, name) = (Array("wasi_snapshot_preview1".utf8), Array("fd_write".utf8))
            let imports: [UInt8] = [1, UInt8(from.count)] + from + [UInt8(name.count)] + name + [0x00, 0x00]
            wasi += [0x02, UInt8(imports.count)] + imports
            let importsWASI = try await Self.post(api, module: Data(wasi))
            #expect(importsWASI.status == .badRequest && importsWASI.text.contains("wasi_snapshot_preview1.fd_write"), "\(importsWASI.text)")

            let text = Data(#"(module (func (export "parlor_call")))"#.utf8)
            let notWasm = try await Self.post(api, module: text)
            #expect(notWasm.status == .badRequest && notWasm.text.contains("not a WebAssembly module"), "\(notWasm.text)")

            let large = try await Self.post(api, module: Data(count: 64 * 1024 + 1))
            #expect(large.status == .contentTooLarge && large.text.contains("bodyTooLarge"), "\(large.text)")

            let listed = try await api.request(.get, "/api/admin/apps", headers: Self.admin).decode([Wire.RegisteredAppInfo].self)
            #expect(listed.isEmpty)
            // Without the operator's token, nothing at all.
            var headers: HTTPFields = [.contentType: AdminRoutes.wasmContentType]
            headers[.authorization] = "Bearer wrong"
            let stranger = try await api.request(.post, "/api/admin/apps", body: try Self.dice(), headers: headers)
            #expect(stranger.status == .unauthorized)
        }
    }
}
