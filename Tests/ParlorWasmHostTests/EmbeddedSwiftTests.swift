import Foundation
import ParlorHost
import ParlorKit
import ParlorTesting
import ParlorWasmHost
import Testing

/// An app written in Embedded Swift and built with the Swift toolchain alone
/// (examples/hello-embedded-swift), hosted as one WebAssembly file.
@Suite("WebAssembly apps: Embedded Swift")
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
}
