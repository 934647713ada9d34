#if WasmHost
import Dispatch
import Foundation
import ParlorHost
import ParlorKit
import Synchronization
@_spi(Fuzzing) import WasmKit

/// An instance of a WebAssembly app's module, which answers calls one at a time: the call's JSON
/// written into it, `parlor_call` run under the fuel budget, and the answer read back within
/// bounds. After a call that ended well, `reset()` puts back everything the module keeps (its
/// memory's first image, its mutable globals, its tables: `WasmResetPlan`), so the next call,
/// another person's, starts as in a new instance and never from what this one left; the code
/// WasmKit translated stays. A module without a plan, an instance that trapped, ran out of fuel
/// or grew its memory, is not used again. Synchronous, on the thread that runs it: `WasmAppLink`
/// runs it off Swift's cooperative threads (a container read waits), one call at a time.
final class WasmInstance {
    /// What the host functions of one call answer from.
    struct Environment: Sendable {
        /// The person's container (nil: every read answers "nothing stored").
        var container: (any AppContainer)?
        /// The time `now_ms` answers, the same through the call.
        var now: Date
        /// Where `log` lines go.
        var log: @Sendable (String) -> Void
        /// Sends the module's HTTP requests (`AppContext.fetch`: the manifest's hosts, the host's
        /// client); nil where no person is behind the call (`fetch` is refused).
        var fetch: (@Sendable (FetchRequest) async throws -> FetchResponse)? = nil
        /// Stores the module's images for the person (`AppContext`'s upload); nil where no
        /// person is behind the call (`upload` is refused).
        var upload: AppWire.ImageUpload? = nil
        /// When the call's time is up: a container read or a request waits no longer.
        var deadline: DispatchTime = .now() + WasmInstance.callSeconds

        /// For the check when a module is added: no container, no log.
        static var inspection: Environment { Environment(container: nil, now: Date(), log: { _ in }) }
    }

    private let store: Store
    private let instance: Instance
    private let limits: WasmLimits
    private let name: String
    private let call: CallState
    /// What `reset()` puts back; nil when the module has no plan.
    private let image: Image?
    /// The stack the module's code runs on, kept from call to call (WasmKit would otherwise
    /// allocate its half a megabyte for each call into the module, twice a call).
    private var stack: ExecutionStack

    /// The state the instance started from, as `WasmResetPlan` names it.
    private struct Image {
        /// The module's `initialMemory`, shared by its instances.
        var memory: MemoryImage
        var globals: [(Global, Value)]
        var tables: [(Table, [Reference])]
    }

    /// Instantiates `module`.
    /// - Throws: `invalidValue` when it cannot be instantiated (for a module being added), with the reason.
    init(module: WasmAppModule) throws(MessagesError) {
        store = Store(engine: module.engine.engine)
        stack = ExecutionStack(engine: module.engine.engine)
        // Memory and tables cannot grow past the limits, whatever the module declares.
        store.resourceLimiter = Limiter(maxMemoryBytes: Self.memoryBytes(module.limits))
        limits = module.limits
        name = module.manifest.name
        call = CallState()
        // Instantiating runs no code (a start function is refused), but a metered store needs fuel.
        if limits.fuelPerCall > 0 { store.fuel = Fuel(remaining: limits.fuelPerCall) }
        var imports = Imports()
        for function in WasmABI.HostFunction.allCases {
            imports.define(module: WasmABI.importModule, name: function.rawValue, Self.hostFunction(function, store: store, call: call))
        }
        do {
            instance = try module.module.instantiate(store: store, imports: imports)
        } catch {
            throw MessagesError(.invalidValue, "The module cannot start: \(error).")
        }
        if let plan = module.resetPlan, let memory = module.initialMemory {
            var globals: [(Global, Value)] = []
            for name in plan.globals {
                guard let global = instance.exports[global: name] else { image = nil; return }
                globals.append((global, global.value))
            }
            var tables: [(Table, [Reference])] = []
            for name in plan.tables {
                guard let table = instance.exports[table: name] else { image = nil; return }
                tables.append((table, (0..<Int(table.type.limits.min)).map { table[$0] }))
            }
            image = Image(memory: memory, globals: globals, tables: tables)
        } else {
            image = nil
        }
    }

    /// The bytes of the instance's memory now.
    func memoryBytes() -> [UInt8]? {
        guard let memory = instance.exports[memory: WasmABI.memoryExport] else { return nil }
        return memory.withUnsafeBufferPointer(offset: 0, count: memory.byteCount) { Array($0) }
    }

    /// Puts back what the module keeps, for the next call; false when this instance cannot be
    /// used again (no plan, or its memory grew).
    func reset() -> Bool {
        guard let image, let memory = instance.exports[memory: WasmABI.memoryExport], memory.byteCount == image.memory.byteCount else {
            return false
        }
        memory.withUnsafeMutableBufferPointer(offset: 0, count: image.memory.byteCount) { image.memory.put(into: $0) }
        do {
            for (global, value) in image.globals { try global.assign(value) }
        } catch {
            return false
        }
        for (table, elements) in image.tables {
            for (index, element) in elements.enumerated() { table[index] = element }
        }
        return true
    }

    private static func memoryBytes(_ limits: WasmLimits) -> Int {
        Int(limits.maxMemoryPages * WasmLimits.pageBytes)
    }

    /// Refuses a module whose exports are not the ABI's, or whose memory may grow past the limit.
    func checkExports() throws(MessagesError) {
        guard let memory = instance.exports[memory: WasmABI.memoryExport] else {
            throw MessagesError(.invalidValue, "The module exports no memory named \"\(WasmABI.memoryExport)\".")
        }
        guard let maximum = memory.type.max else {
            throw MessagesError(
                .invalidValue,
                "The module's memory declares no maximum; declare one of at most \(limits.maxMemoryPages) pages (wasm-ld: --max-memory=\(Self.memoryBytes(limits))).")
        }
        guard maximum <= limits.maxMemoryPages, !memory.type.isMemory64, !memory.type.shared else {
            throw MessagesError(
                .invalidValue, "The module's memory may grow to \(maximum) pages; the limit is \(limits.maxMemoryPages) (\(Self.memoryBytes(limits) / 1_048_576) MiB).")
        }
        let expected: [(String, FunctionType)] = [
            (WasmABI.allocExport, FunctionType(parameters: [.i32], results: [.i32])),
            (WasmABI.callExport, FunctionType(parameters: [.i32, .i32], results: [.i64])),
        ]
        for (export, type) in expected {
            guard let function = instance.exports[function: export] else {
                throw MessagesError(.invalidValue, "The module exports no function \"\(export)\".")
            }
            guard function.type == type else {
                throw MessagesError(.invalidValue, "The module's \(export) is \(function.type); the ABI's is \(type).")
            }
        }
    }

    /// Runs a call and reads its answer.
    /// - Parameter watchdog: holds the instance's store while the call runs, so that a call past
    ///   its deadline can be stopped from another thread.
    /// - Throws: `appUnavailable` for a trap, an exhausted budget, or an answer out of bounds or too large.
    func run(_ input: [UInt8], environment: Environment, watchdog: Watchdog? = nil) throws(MessagesError) -> [UInt8] {
        call.begin(environment)
        // The person's container and log are not kept past their call.
        defer { call.begin(.inspection) }
        if limits.fuelPerCall > 0 { store.fuel = Fuel(remaining: limits.fuelPerCall) }
        watchdog?.watch(store)
        guard let memory = instance.exports[memory: WasmABI.memoryExport],
            let alloc = instance.exports[function: WasmABI.allocExport],
            let call = instance.exports[function: WasmABI.callExport]
        else { throw unavailable("it exports no ABI") }
        do {
            guard case .i32(let place)? = try alloc.invoke([.i32(UInt32(input.count))], on: &stack).first, place != 0,
                Self.fits(offset: UInt64(place), count: input.count, in: memory)
            else { throw unavailable("it has no room for the call") }
            memory.withUnsafeMutableBufferPointer(offset: UInt(place), count: input.count) { $0.copyBytes(from: input) }
            guard case .i64(let answer)? = try call.invoke([.i32(place), .i32(UInt32(input.count))], on: &stack).first else {
                throw unavailable("its answer is not where the ABI says")
            }
            let offset = answer >> 32
            let count = Int(answer & 0xFFFF_FFFF)
            guard count <= limits.maxAnswerBytes else {
                throw unavailable("its answer is \(count) bytes; the limit is \(limits.maxAnswerBytes)")
            }
            guard Self.fits(offset: offset, count: count, in: memory) else { throw unavailable("its answer is outside its memory") }
            return memory.withUnsafeBufferPointer(offset: UInt(offset), count: count) { Array($0) }
        } catch let error as MessagesError {
            throw error
        } catch {
            throw unavailable(Self.reason(error))
        }
    }

    /// The most table elements a module may have (tables hold functions, not data).
    static let maxTableElements = 10_000
    /// The most random bytes one call may ask for, and in one ask.
    static let maxRandomBytesPerCall = 64 * 1024
    static let maxRandomBytesPerAsk = 4096
    /// The longest container key (as the app protocol's reads).
    static let maxKeyBytes = 200

    private final class Limiter: ResourceLimiter {
        let maxMemoryBytes: Int
        init(maxMemoryBytes: Int) { self.maxMemoryBytes = maxMemoryBytes }
        func limitMemoryGrowth(to desired: Int) throws -> Bool { desired <= maxMemoryBytes }
        func limitTableGrowth(to desired: Int) throws -> Bool { desired <= WasmInstance.maxTableElements }
    }

    private func unavailable(_ reason: String) -> MessagesError {
        MessagesError(.appUnavailable, "\(name) stopped: \(reason).")
    }

    /// What stopped a call, in words.
    private static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("out of fuel") { return "it ran past its budget of work or time for one call" }
        if text.contains("call stack exhausted") { return "it called itself too deep" }
        return String(text.split(separator: "\n").first ?? "it failed").replacingOccurrences(of: "Trap: ", with: "")
    }

    /// Whether `count` bytes at `offset` are inside `memory`.
    private static func fits(offset: UInt64, count: Int, in memory: Memory) -> Bool {
        count >= 0 && offset <= UInt64(memory.byteCount) && UInt64(count) <= UInt64(memory.byteCount) - offset
    }

    // MARK: Host functions

    /// What the host functions answer from during the call that runs: its environment, and its
    /// log lines, container reads and random bytes so far (each call starts from none).
    private final class CallState: Sendable {
        private let current = Mutex<Environment>(.inspection)
        let logLines = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let randomBytes = Atomic<Int>(0)
        let fetches = Atomic<Int>(0)
        let uploads = Atomic<Int>(0)
        /// The last request sent (a fetch or an upload) and its answer: asked again with more
        /// room, it is not sent again. The request is known by where it is, its length and a hash
        /// of its bytes, not kept (an image may be megabytes).
        let lastAnswer = Mutex<(function: WasmABI.HostFunction, request: RequestKey, answer: [UInt8])?>(nil)

        func begin(_ environment: Environment) {
            current.withLock { $0 = environment }
            logLines.store(0, ordering: .relaxed)
            reads.store(0, ordering: .relaxed)
            randomBytes.store(0, ordering: .relaxed)
            fetches.store(0, ordering: .relaxed)
            uploads.store(0, ordering: .relaxed)
            lastAnswer.withLock { $0 = nil }
        }

        var environment: Environment { current.withLock { $0 } }
    }

    private static func hostFunction(_ function: WasmABI.HostFunction, store: Store, call counters: CallState) -> Function {
        let signature = function.signature
        let type = FunctionType(
            parameters: signature.parameters.map(\.valueType), results: signature.results.map(\.valueType))
        return Function(store: store, type: type) { caller, arguments in
            guard let memory = caller.instance?.exports[memory: WasmABI.memoryExport] else {
                throw HostFault("the module has no memory")
            }
            func bytes(_ pointer: Value, _ length: Value) throws -> (UInt64, Int) {
                guard case .i32(let offset) = pointer, case .i32(let count) = length,
                    fits(offset: UInt64(offset), count: Int(count), in: memory)
                else { throw HostFault("a host function was given a place outside the module's memory") }
                return (UInt64(offset), Int(count))
            }
            let environment = counters.environment
            switch function {
            case .log:
                let (offset, count) = try bytes(arguments[0], arguments[1])
                guard counters.logLines.add(1, ordering: .relaxed).newValue <= WasmABI.maxLogLinesPerCall else { return [] }
                let line = memory.withUnsafeBufferPointer(offset: UInt(offset), count: min(count, WasmABI.maxLogLineBytes)) {
                    String(decoding: $0, as: UTF8.self)
                }
                environment.log(line)
                return []
            case .nowMilliseconds:
                return [.i64(UInt64(bitPattern: Int64((environment.now.timeIntervalSince1970 * 1000).rounded(.down))))]
            case .randomBytes:
                let (offset, count) = try bytes(arguments[0], arguments[1])
                guard count <= maxRandomBytesPerAsk,
                    counters.randomBytes.add(count, ordering: .relaxed).newValue <= maxRandomBytesPerCall
                else { throw HostFault("it asked for more random bytes than a call may have") }
                var generator = SystemRandomNumberGenerator()
                memory.withUnsafeMutableBufferPointer(offset: UInt(offset), count: count) { buffer in
                    var index = 0
                    while index < buffer.count {
                        withUnsafeBytes(of: generator.next() as UInt64) { word in
                            for byte in word where index < buffer.count {
                                buffer[index] = byte
                                index += 1
                            }
                        }
                    }
                }
                return []
            case .containerGet:
                let (keyOffset, keyCount) = try bytes(arguments[0], arguments[1])
                let (outOffset, capacity) = try bytes(arguments[2], arguments[3])
                guard keyCount <= maxKeyBytes, counters.reads.add(1, ordering: .relaxed).newValue <= AppWire.maxContainerReadsPerCall else {
                    return [.i32(UInt32(bitPattern: WasmABI.refused))]
                }
                let key = memory.withUnsafeBufferPointer(offset: UInt(keyOffset), count: keyCount) { String(decoding: $0, as: UTF8.self) }
                guard let container = environment.container else { return [.i32(UInt32(bitPattern: WasmABI.absent))] }
                let data: Data
                switch read(key, from: container, until: environment.deadline) {
                case .stored(let stored): data = stored
                case .absent: return [.i32(UInt32(bitPattern: WasmABI.absent))]
                case .refused: return [.i32(UInt32(bitPattern: WasmABI.refused))]
                }
                if data.count <= capacity {
                    memory.withUnsafeMutableBufferPointer(offset: UInt(outOffset), count: data.count) { $0.copyBytes(from: data) }
                }
                return [.i32(UInt32(data.count))]
            case .fetch, .upload:
                let (requestOffset, requestCount) = try bytes(arguments[0], arguments[1])
                let (outOffset, capacity) = try bytes(arguments[2], arguments[3])
                let key = memory.withUnsafeBufferPointer(offset: UInt(requestOffset), count: requestCount) {
                    RequestKey(offset: requestOffset, bytes: UnsafeRawBufferPointer($0))
                }
                let answer: [UInt8]
                if let waiting = counters.lastAnswer.withLock({ $0 }), waiting.function == function, waiting.request == key {
                    // The answer that did not fit last time, asked for again with room.
                    answer = waiting.answer
                } else if function == .fetch {
                    let description = memory.withUnsafeBufferPointer(offset: UInt(requestOffset), count: requestCount) { Array($0) }
                    answer = fetchAnswer(description, environment: environment, counters: counters).bytes
                } else {
                    let image = memory.withUnsafeBufferPointer(offset: UInt(requestOffset), count: requestCount) { Data($0) }
                    answer = uploadAnswer(image, environment: environment, counters: counters).bytes
                }
                let fits = answer.count <= capacity
                if fits {
                    memory.withUnsafeMutableBufferPointer(offset: UInt(outOffset), count: answer.count) { $0.copyBytes(from: answer) }
                }
                counters.lastAnswer.withLock { $0 = fits ? nil : (function, key, answer) }
                return [.i32(UInt32(answer.count))]
            }
        }
    }

    /// A request a module made (`fetch`, `upload`), as `lastAnswer` knows it.
    struct RequestKey: Equatable, Sendable {
        let offset: UInt64
        let count: Int
        let hash: Int

        init(offset: UInt64, bytes: UnsafeRawBufferPointer) {
            self.offset = offset
            count = bytes.count
            var hasher = Hasher()
            hasher.combine(bytes: bytes)
            hash = hasher.finalize()
        }
    }

    /// The answer to an `upload` of `image`: its id, or why there is none.
    private static func uploadAnswer(_ image: Data, environment: Environment, counters: CallState) -> HostAnswer {
        guard let upload = environment.upload else {
            return .error(
                .apiUnavailableInPresentationContext,
                "Apps upload in the hooks a person's action or a delivery runs, not while drawing (render), validating or rebasing.")
        }
        guard counters.uploads.add(1, ordering: .relaxed).newValue <= AppWire.maxUploadsPerCall else {
            return .error(.actionRefused, "A call uploads at most \(AppWire.maxUploadsPerCall) images.")
        }
        let answer = waitHere(until: environment.deadline) { () -> HostAnswer in
            do {
                return .uploaded(try await upload(image))
            } catch let error as MessagesError {
                return .error(error.code, error.message)
            } catch {
                return .error(.unknown, "The image could not be stored.")
            }
        }
        return answer ?? .error(.networkFailure, "The image was not stored within the call's \(Int(callSeconds)) seconds.")
    }

    /// The answer to the request `description` describes: the host's, or why there is none.
    private static func fetchAnswer(_ description: [UInt8], environment: Environment, counters: CallState) -> HostAnswer {
        guard let fetch = environment.fetch else {
            return .error(
                .apiUnavailableInPresentationContext,
                "Apps fetch in the hooks a person's action or a delivery runs, not while drawing (render), validating or rebasing.")
        }
        guard counters.fetches.add(1, ordering: .relaxed).newValue <= WasmABI.maxFetchesPerCall else {
            return .error(.actionRefused, "A call sends at most \(WasmABI.maxFetchesPerCall) requests.")
        }
        let request: FetchRequest
        switch FetchDescription.request(from: description) {
        case .success(let described): request = described
        case .failure(let error): return .error(error.code, error.message)
        }
        return send(request, through: fetch, until: environment.deadline)
    }

    /// A request as a module describes it to `fetch`.
    private struct FetchDescription: Decodable {
        var url: String
        var method: String?
        var headers: [String: String]?
        var body: String?

        static let maxHeaderFields = 32

        /// The request `bytes` describe, or why they describe none.
        static func request(from bytes: [UInt8]) -> Result<FetchRequest, MessagesError> {
            guard bytes.count <= WasmABI.maxFetchRequestBytes else {
                return .failure(MessagesError(.invalidValue, "A request's description is at most \(WasmABI.maxFetchRequestBytes / 1024) KiB."))
            }
            guard let description = try? JSONDecoder().decode(FetchDescription.self, from: Data(bytes)) else {
                return .failure(MessagesError(.invalidValue, #"A request is described as JSON: {"url", "method", "headers", "body"}, all strings but headers, an object of strings."#))
            }
            guard let url = URL(string: description.url), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                return .failure(MessagesError(.invalidValue, "A request's url is an http or https address; \(description.url.prefix(100)) is not."))
            }
            let method = description.method ?? "GET"
            guard (1...16).contains(method.utf8.count), method.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
                return .failure(MessagesError(.invalidValue, "A request's method is a word of capital letters, such as GET or POST."))
            }
            guard (description.headers?.count ?? 0) <= maxHeaderFields else {
                return .failure(MessagesError(.invalidValue, "A request has at most \(maxHeaderFields) header fields."))
            }
            return .success(FetchRequest(
                url: url, method: method, headers: description.headers ?? [:], body: description.body.map { Data($0.utf8) },
                timeout: AppWire.callDeadline))
        }
    }

    /// What `fetch` and `upload` copy to the module.
    private enum HostAnswer: Encodable, Sendable {
        case response(status: Int, headers: [String: String], body: String)
        case uploaded(String)
        case error(MessagesError.Code, String)

        enum CodingKeys: String, CodingKey { case status, headers, body, upload, error }
        enum ErrorKeys: String, CodingKey { case code, message }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .response(let status, let headers, let body):
                try container.encode(status, forKey: .status)
                try container.encode(headers, forKey: .headers)
                try container.encode(body, forKey: .body)
            case .uploaded(let id):
                try container.encode(id, forKey: .upload)
            case .error(let code, let message):
                var error = container.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
                try error.encode(code.name, forKey: .code)
                try error.encode(message, forKey: .message)
            }
        }

        var bytes: [UInt8] { Array((try? JSONEncoder().encode(self)) ?? Data()) }
    }

    /// Sends `request`, waiting on this thread until `deadline`, the call's: past it the request
    /// is cancelled.
    private static func send(
        _ request: FetchRequest, through fetch: @escaping @Sendable (FetchRequest) async throws -> FetchResponse, until deadline: DispatchTime
    ) -> HostAnswer {
        let host = request.url.host ?? ""
        let answer = waitHere(until: deadline) { () -> HostAnswer in
            do {
                let response = try await fetch(request)
                return response.body.count > WasmABI.maxFetchAnswerBytes
                    ? .error(.networkFailure, "The answer from \(host) is larger than \(WasmABI.maxFetchAnswerBytes / (1024 * 1024)) MiB.")
                    : .response(status: response.status, headers: response.headers, body: String(decoding: response.body, as: UTF8.self))
            } catch let error as MessagesError {
                return .error(error.code, error.message)
            } catch {
                return .error(.networkFailure, "Could not reach \(host).")
            }
        }
        return answer ?? .error(.networkFailure, "\(host) did not answer within the call's \(Int(callSeconds)) seconds.")
    }

    /// The app protocol's deadline for one call, in seconds.
    static let callSeconds = Double(AppWire.callDeadline.components.seconds)

    private enum Read: Sendable { case stored(Data), absent, refused }

    /// Reads `key`, waiting on this thread: refused when it fails or is not done by `deadline`, the call's.
    private static func read(_ key: String, from container: any AppContainer, until deadline: DispatchTime) -> Read {
        waitHere(until: deadline) { () -> Read in
            do {
                return try await container.data(forKey: key).map(Read.stored) ?? .absent
            } catch {
                return .refused
            }
        } ?? .refused
    }

    private final class Outcome<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
    }

    /// What `work` gives, waited for on this thread (never one of Swift's cooperative threads,
    /// which the work itself needs); nil, and the work cancelled, when it is not done by `deadline`.
    private static func waitHere<Value: Sendable>(until deadline: DispatchTime, _ work: @escaping @Sendable () async -> Value) -> Value? {
        guard deadline > .now() else { return nil }
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<Value>()
        let task = Task(priority: .high) {
            let value = await work()
            outcome.value.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: deadline) == .success else {
            task.cancel()
            return nil
        }
        return outcome.value.withLock { $0 }
    }

    private struct HostFault: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension WasmABI.Kind {
    var valueType: ValueType {
        switch self {
        case .i32: .i32
        case .i64: .i64
        }
    }
}

/// Stops a call that runs past its deadline: its store's fuel is set to nothing, again and again
/// until the call ends, so its next charge traps. The store is WasmKit's, confined to the call's
/// thread: this writes the one word WasmKit reads at every charge, from another thread, which is
/// how a host interrupts an interpreter that has no interrupt (WasmKit 0.4.2 has none). With fuel
/// metering off, nothing stops it.
final class Watchdog: Sendable {
    /// The store of the call, handed to the watchdog's thread on purpose (see above).
    private final class Running: @unchecked Sendable {
        let store: Store
        init(_ store: Store) { self.store = store }
    }

    private let running = Mutex<Running?>(nil)
    private let finished = Atomic<Bool>(false)

    func watch(_ store: Store) {
        let call = Running(store)
        running.withLock { $0 = call }
    }

    /// The call ended: nothing to stop any more.
    func finish() {
        finished.store(true, ordering: .relaxed)
        running.withLock { $0 = nil }
    }

    /// Stops the call, if it still runs, within a few milliseconds.
    func stop() {
        DispatchQueue.global().async {
            while !self.finished.load(ordering: .relaxed) {
                self.running.withLock { call in
                    if let store = call?.store, store.fuel != nil { store.fuel = Fuel(remaining: 0) }
                }
                usleep(2_000)
            }
        }
    }
}
#endif
