#if WasmHost
import Foundation
import ParlorHost
import ParlorKit
import WasmKit

/// An app that is one WebAssembly module, read and checked once (docs/APPS-WASM.md): it must fit
/// the limits, import only what `WasmABI.HostFunction` names, export the ABI's memory and
/// functions with their signatures, declare a maximum memory no larger than the limit, and carry
/// its manifest (or be given one). A module that does not is refused with a sentence naming what
/// is wrong, before it ever runs a call.
///
/// ```swift
/// let module = try WasmAppModule(bytes: Array(try Data(contentsOf: file)))
/// let app = WasmApp.app(module)   // an AnyMessagesApp, hosted like any other
/// ```
public struct WasmAppModule: Sendable {
    public let manifest: AppManifest
    public let limits: WasmLimits
    /// The module's size in bytes.
    public let byteCount: Int
    let module: Module
    let engine: EngineBox
    /// What the host puts back after each call so that an instance can answer the next one; nil:
    /// each call runs in a new instance.
    let resetPlan: WasmResetPlan?
    /// The memory of a new instance, put back after each call: one for every instance of the
    /// module (instantiating runs no code, so every instance starts with these bytes).
    private(set) var initialMemory: MemoryImage?

    /// Reads and checks `bytes`.
    /// - Parameters:
    ///   - manifest: the app's manifest, when the module carries none (its `parlor.manifest` section wins otherwise).
    /// - Throws: `invalidValue` with a sentence that names what is wrong.
    public init(bytes: [UInt8], manifest given: AppManifest? = nil, limits: WasmLimits = WasmLimits()) throws(MessagesError) {
        guard bytes.count <= limits.maxModuleBytes else {
            throw MessagesError(.invalidValue, "The module is \(bytes.count) bytes; the limit is \(limits.maxModuleBytes).")
        }
        let module: Module
        do {
            module = try parseWasm(bytes: bytes)
        } catch {
            throw MessagesError(.invalidValue, "This is not a WebAssembly module Parlor can read: \(error).")
        }
        if Self.hasStartFunction(bytes) {
            throw MessagesError(
                .invalidValue, "The module has a start function; Parlor runs an app's code only in its calls (link with --no-entry).")
        }
        for wanted in module.imports {
            guard wanted.module == WasmABI.importModule, case .function = wanted.descriptor,
                WasmABI.HostFunction(rawValue: wanted.name) != nil
            else {
                let allowed = WasmABI.HostFunction.allCases.map { "\(WasmABI.importModule).\($0.rawValue)" }.joined(separator: ", ")
                throw MessagesError(
                    .invalidValue,
                    "The module imports \(wanted.module).\(wanted.name), which Parlor does not give apps; an app may import only \(allowed).")
            }
        }
        let manifest: AppManifest
        if let section = module.customSections.first(where: { $0.name == WasmABI.manifestSection }) {
            do {
                manifest = try JSONDecoder().decode(AppManifest.self, from: Data(section.bytes))
            } catch {
                throw MessagesError(.invalidValue, "The module's \(WasmABI.manifestSection) section is not an app manifest: \(error).")
            }
        } else if let given {
            manifest = given
        } else {
            throw MessagesError(.invalidValue, "The module carries no manifest: add a \(WasmABI.manifestSection) section, or give one beside it.")
        }
        self.manifest = manifest
        self.limits = limits
        byteCount = bytes.count
        // Rewritten so that the host can put back what the module keeps between calls; a module
        // it cannot do that for runs each call in a new instance.
        if let prepared = WasmResetPlan.prepare(bytes), let rewritten = try? parseWasm(bytes: prepared.bytes) {
            self.module = rewritten
            resetPlan = prepared.plan
        } else {
            self.module = module
            resetPlan = nil
        }
        engine = EngineBox(metered: limits.fuelPerCall > 0)
        // Instantiated once now, so that what only an instance shows (the memory's limits, the
        // exports' signatures) refuses the module here, not at a call.
        let inspection = try WasmInstance(module: self)
        try inspection.checkExports()
        if resetPlan != nil { initialMemory = inspection.memoryBytes().map(MemoryImage.init) }
    }
}

extension WasmAppModule {
    /// Whether the module has a start section (id 8), which would run code when it is instantiated.
    static func hasStartFunction(_ bytes: [UInt8]) -> Bool {
        WasmBinary.sections(of: bytes)?.contains { $0.id == 8 } ?? false
    }
}

/// The engine every call of one module runs on (it translates the module's code once per store;
/// WasmKit serializes what stores share).
final class EngineBox: @unchecked Sendable {
    let engine: Engine

    init(metered: Bool) {
        engine = Engine(configuration: EngineConfiguration(fuelMetering: metered))
    }
}
/// A memory's bytes as its pages that hold something: most of a new instance's memory is zeros
/// (the stack, the room to grow into), which neither this image nor `put(into:)` copies.
struct MemoryImage: Sendable {
    static let pageBytes = 4096

    /// The memory's size in bytes.
    let byteCount: Int
    /// Runs of pages not all zero: where each starts, and its bytes.
    let runs: [(offset: Int, bytes: [UInt8])]

    init(_ memory: [UInt8]) {
        byteCount = memory.count
        var runs: [(offset: Int, bytes: [UInt8])] = []
        var start: Int?
        var page = 0
        while page <= memory.count {
            let end = min(page + Self.pageBytes, memory.count)
            let holds = page < memory.count && memory[page..<end].contains { $0 != 0 }
            if holds, start == nil { start = page }
            if !holds, let first = start {
                runs.append((first, Array(memory[first..<page])))
                start = nil
            }
            page += Self.pageBytes
        }
        self.runs = runs
    }

    /// Makes `memory` (of `byteCount` bytes) hold this image again: the pages outside the runs that
    /// are not all zero are zeroed, and the runs copied. A page never written stays untouched
    /// (read, it is the system's one page of zeros), so an instance holds in memory only what
    /// its calls wrote.
    func put(into memory: UnsafeMutableRawBufferPointer) {
        guard let base = memory.baseAddress, memory.count == byteCount else { return }
        Self.zeros.withUnsafeBytes { zeros in
            guard let zero = zeros.baseAddress else { return }
            var nextRun = 0
            var page = 0
            while page < byteCount {
                if nextRun < runs.count, page == runs[nextRun].offset {
                    page += runs[nextRun].bytes.count
                    nextRun += 1
                    continue
                }
                let count = min(Self.pageBytes, byteCount - page)
                if memcmp(base + page, zero, count) != 0 { memset(base + page, 0, count) }
                page += Self.pageBytes
            }
        }
        for run in runs {
            run.bytes.withUnsafeBytes { source in
                if let from = source.baseAddress { (base + run.offset).copyMemory(from: from, byteCount: source.count) }
            }
        }
    }

    /// A page of zeros to compare pages with.
    private static let zeros = [UInt8](repeating: 0, count: pageBytes)
}
#endif
