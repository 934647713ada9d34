import Foundation
import ParlorKit

/// Builds an app written in Embedded Swift with ParlorWasmKit (`ParlorSDK/Sources/ParlorWasmHost/ParlorWasmKit`)
/// into one `.wasm` file, with the Swift toolchain alone (docs/APPS-WASM.md §6): the SDK compiled
/// as a module for wasm32, the app's Swift files against it, the SDK's C runtime by the
/// toolchain's clang, everything linked by its `wasm-ld`, and the manifest put in the module as
/// its `parlor.manifest` section. `parlor apps build` runs it.
///
/// ```swift
/// let report = try WasmAppBuilder(app: URL(fileURLWithPath: "examples/tictactoe-wasm")).build(to: output)
/// ```
public struct WasmAppBuilder: Sendable {
    /// The app's Swift files.
    public var sources: [URL]
    /// The app's manifest (APPS-PROTOCOL §2) as JSON.
    public var manifestFile: URL
    /// The 64 KiB pages the module's memory may grow to (4 MiB by default; Parlor's limit is 256).
    public var maxMemoryPages = 64
    /// The pages the module starts with (1 MiB): a call whose memory stays within them leaves an
    /// instance Parlor can reuse for the next call (`WasmResetPlan`); one that grows it does not.
    public var initialMemoryPages = 16
    /// Whether the toolchain's own Unicode data library is linked when it has one (else, or when
    /// false, the kit's generated tables: Unicode 15.0).
    public var usesToolchainUnicodeData = true
    /// Where ParlorWasmKit's sources are.
    /// nil: `kitFolder`, looked up only when the app is built (a `kit` given needs no resources).
    public var kit: URL?

    /// What a build made.
    public struct Report: Sendable {
        public var output: URL
        public var byteCount: Int
    }

    /// Why a build failed, in a sentence a developer can act on (with the compiler's own words).
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The folder of ParlorWasmKit: `PARLOR_WASM_KIT` when set, else the copy this build of
    /// Parlor carries among its resources (beside the program, as its web client is), so that a
    /// `parlor` moved away from its sources still builds apps with the kit it was built with.
    public static var kitFolder: URL {
        if let given = ProcessInfo.processInfo.environment["PARLOR_WASM_KIT"], !given.isEmpty { return URL(fileURLWithPath: given) }
        return shippedKitFolder
    }

    /// The kit among this build's resources.
    public static var shippedKitFolder: URL {
        Bundle.module.url(forResource: "ParlorWasmKit", withExtension: nil) ?? Bundle.module.bundleURL.appendingPathComponent("ParlorWasmKit")
    }

    /// An app in `folder` (its `.swift` files and `manifest.json`), or one Swift file with
    /// `manifest.json` beside it.
    public init(app path: URL, manifest: URL? = nil) throws(Failure) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else {
            throw Failure(description: "There is no \(path.path).")
        }
        let folder = isFolder.boolValue ? path : path.deletingLastPathComponent()
        if isFolder.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path.path)) ?? []
            sources = names.filter { $0.hasSuffix(".swift") }.sorted().map { path.appendingPathComponent($0) }
        } else {
            sources = [path]
        }
        guard !sources.isEmpty else { throw Failure(description: "\(path.path) holds no .swift file.") }
        manifestFile = manifest ?? folder.appendingPathComponent("manifest.json")
        guard FileManager.default.fileExists(atPath: manifestFile.path) else {
            throw Failure(description: "There is no manifest at \(manifestFile.path): write the app's manifest (docs/APPS-PROTOCOL.md §2) there, or name it with --manifest.")
        }
    }

    /// Builds the app into `output`.
    public func build(to output: URL) throws(Failure) -> Report {
        let manifest: Data
        do {
            manifest = try Data(contentsOf: manifestFile)
            _ = try JSONDecoder().decode(AppManifest.self, from: manifest)
        } catch {
            throw Failure(description: "\(manifestFile.path) is not an app manifest: \(error)")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-build-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "Could not make a folder to build in: \(error.localizedDescription)")
        }
        let swiftc = try Self.tool("swiftc", environment: "SWIFTC")
        // -O rather than -Osize: Parlor interprets the module, and -O's code runs 8% fewer operators
        // per Tic-Tac-Toe move (2.49 M against 2.71 M) for a module 8% larger.
        let flags = [
            "-target", "wasm32-unknown-none-wasm", "-enable-experimental-feature", "Embedded", "-wmo", "-O",
            "-Xfrontend", "-disable-stack-protector", "-parse-as-library",
        ]
        let kit = kit ?? Self.kitFolder
        let kitSources = ((try? FileManager.default.contentsOfDirectory(atPath: kit.path)) ?? []).sorted()
        let kitSwift = kitSources.filter { $0.hasSuffix(".swift") }.map { kit.appendingPathComponent($0).path }
        guard !kitSwift.isEmpty else {
            throw Failure(description: "ParlorWasmKit's sources are not at \(kit.path): name the folder (ParlorSDK/Sources/ParlorWasmHost/ParlorWasmKit in Parlor's sources) with --kit or PARLOR_WASM_KIT.")
        }
        let kitObject = work.appendingPathComponent("ParlorWasmKit.o").path
        try Self.run(swiftc, flags + ["-enable-experimental-feature", "Extern", "-module-name", "ParlorWasmKit", "-emit-module",
            "-emit-module-path", work.appendingPathComponent("ParlorWasmKit.swiftmodule").path] + kitSwift + ["-c", "-o", kitObject],
            what: "ParlorWasmKit", embedded: true)
        let appObject = work.appendingPathComponent("app.o").path
        try Self.run(swiftc, flags + ["-I", work.path, "-module-name", "App"] + sources.map(\.path) + ["-c", "-o", appObject],
            what: "the app", embedded: true)
        // The kit's C: the runtime, and whatever else it keeps in C (the linker takes only what is
        // used). The Unicode data the standard library reads to compare, hash or change the case of
        // Strings: the toolchain's own library for wasm32 when it has one (the data native Swift
        // has), else the kit's tables generated from Debian's Unicode 15.0 (tools/generate_unicode_tables.py).
        let clang = try Self.tool("clang", environment: "CLANG", beside: swiftc)
        let unicodeLibrary = usesToolchainUnicodeData ? Self.unicodeDataTables(beside: swiftc) : nil
        var runtimeInputs: [String] = unicodeLibrary.map { [$0.path] } ?? []
        for name in kitSources where name.hasSuffix(".c") && !(unicodeLibrary != nil && name == Self.generatedUnicodeTables) {
            let object = work.appendingPathComponent("\(name).o").path
            try Self.run(clang, ["--target=wasm32", "-mbulk-memory", "-nostdlib", "-Os", "-c", kit.appendingPathComponent(name).path, "-o", object],
                what: "ParlorWasmKit's \(name)")
            runtimeInputs.append(object)
        }
        let linker = try Self.tool("wasm-ld", environment: "WASM_LD", beside: swiftc)
        let linked = work.appendingPathComponent("app.wasm")
        try Self.run(linker, [
            // The stack below the data: overflowing it traps instead of writing over the data.
            "--no-entry", "--stack-first", "--export=\(WasmABI.allocExport)", "--export=\(WasmABI.callExport)",
            "--max-memory=\(maxMemoryPages * 65536)", "--initial-memory=\(initialMemoryPages * 65536)", "--strip-debug", appObject, kitObject,
        ] + runtimeInputs + ["-o", linked.path], what: "the module")
        do {
            let module = try Data(contentsOf: linked)
            let bytes = Self.withManifest(Array(module), manifest: Array(manifest))
            try Data(bytes).write(to: output)
            return Report(output: output, byteCount: bytes.count)
        } catch {
            throw Failure(description: "Could not write \(output.path): \(error.localizedDescription)")
        }
    }

    /// `module` with `manifest` as its `parlor.manifest` custom section (after the others, as a
    /// custom section may be: id 0, its size, its name, its bytes).
    public static func withManifest(_ module: [UInt8], manifest: [UInt8]) -> [UInt8] {
        module + WasmBinary.section(0, WasmBinary.name(WasmABI.manifestSection) + manifest)
    }

    /// The kit's own Unicode tables, used when the toolchain has none for wasm32.
    static let generatedUnicodeTables = "unicode_tables.c"

    /// The toolchain's Unicode data library for Embedded Swift on wasm32, if it has one.
    static func unicodeDataTables(beside swiftc: URL) -> URL? {
        let library = swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a")
        return FileManager.default.fileExists(atPath: library.path) ? library : nil
    }

    /// A tool of the toolchain: from the environment variable, beside `swiftc`, or on the PATH.
    static func tool(_ name: String, environment: String, beside swiftc: URL? = nil) throws(Failure) -> URL {
        let variables = ProcessInfo.processInfo.environment
        if let given = variables[environment], !given.isEmpty { return URL(fileURLWithPath: given) }
        var folders: [String] = []
        if let swiftc { folders.append(swiftc.resolvingSymlinksInPath().deletingLastPathComponent().path) }
        folders += (variables["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in folders {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(description: "\(name) is not on the PATH: install the Swift toolchain (6.3 or later, from swift.org), which brings \(name), or name it with \(environment)=….")
    }

    /// Runs a tool; a failure says what was being built and shows the tool's own words.
    static func run(_ tool: URL, _ arguments: [String], what: String, embedded: Bool = false) throws(Failure) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "Could not run \(tool.path): \(error.localizedDescription)")
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus != 0 else { return }
        if embedded, said.contains("Embedded") && (said.contains("not supported") || said.contains("unknown") || said.contains("no such module 'Swift'")) {
            throw Failure(description: "This Swift toolchain cannot compile Embedded Swift for wasm32 (Swift 6.3 or later can; check with `swiftc --version`).\n\(said)")
        }
        throw Failure(description: "Building \(what) failed:\n\(said)")
    }
}
