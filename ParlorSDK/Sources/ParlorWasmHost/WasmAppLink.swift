#if WasmHost
import Dispatch
import Foundation
@_spi(Hosting) import ParlorHost
import ParlorKit
import Synchronization

/// A WebAssembly app as any other app to the host: a `RemoteApp` whose link runs each call in an
/// instance of the module (each call starting as in a new one) instead of sending it over a socket, so the lifecycle, the rules
/// and every limit are the ones every app is held to.
///
/// ```swift
/// let simulator = ConversationSimulator(hosting: [WasmApp.app(try WasmAppModule(bytes: bytes))])
/// ```
public enum WasmApp {
    /// The app in `module`, under `manifest` (the module's own, unless the host checked and
    /// trimmed it); `log` receives its log lines.
    public static func app(
        _ module: WasmAppModule, manifest: AppManifest? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    ) -> AnyMessagesApp {
        AnyMessagesApp(RemoteApp(manifest: manifest ?? module.manifest, link: WasmAppLink(module: module, log: log)))
    }
}

/// Runs calls in instances of one module, off Swift's cooperative threads (a call is synchronous
/// and may wait for a container read), on `maxConcurrentCalls` lanes of its own, each call on the
/// lane with the fewest waiting: a call that burns its whole budget holds up its own lane only,
/// and no thread is held waiting for a lane. A person whose calls keep failing has them rest a
/// while (`CallerBackoff`).
public final class WasmAppLink: AppLink, Sendable {
    public let module: WasmAppModule
    private let log: @Sendable (String) -> Void
    private let lanes: [Lane]
    /// The hooks the module said it has no code for: not called again.
    private let unimplemented = Mutex<Set<AppWire.Hook>>([])
    private let backoff = Mutex(CallerBackoff())

    /// The most calls of one app that run at once.
    public static let maxConcurrentCalls = 4

    /// How many instances of the module this link has made: one per lane while calls end well and
    /// the module can be reset (`WasmResetPlan`), one per call otherwise.
    public var instancesMade: Int { instances.load(ordering: .relaxed) }
    private let instances = Atomic<Int>(0)

    private func instantiate() throws(MessagesError) -> WasmInstance {
        instances.add(1, ordering: .relaxed)
        return try WasmInstance(module: module)
    }

    /// - Parameter idleLifetime: how long a lane keeps its instance with no call (an app nobody
    ///   uses then holds only its module).
    public init(module: WasmAppModule, idleLifetime: Duration = .seconds(60), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.module = module
        self.log = log
        let idle = Double(idleLifetime.components.seconds) + Double(idleLifetime.components.attoseconds) / 1e18
        lanes = (0..<Self.maxConcurrentCalls).map { Lane(queue: DispatchQueue(label: "parlor.wasm-app.\($0)"), idleLifetime: idle) }
    }

    public func call(_ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
        try await perform(call, environment: WasmInstance.Environment(container: container, now: Date(), log: log, upload: upload))
    }

    /// A hook's call: the module's requests over HTTP go through `context.fetch`, its images through `upload`.
    public func call(_ call: AppWire.Call, context: AppContext, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
        try await perform(
            call,
            environment: WasmInstance.Environment(
                container: context.container, now: Date(), log: log, fetch: { try await context.fetch($0) }, upload: upload))
    }

    private func perform(_ call: AppWire.Call, environment: WasmInstance.Environment) async throws(MessagesError) -> AppWire.Result {
        if unimplemented.withLock({ $0.contains(call.hook) }) { return AppWire.Result(id: call.id, unimplemented: true) }
        // Whom the call is for. A call for no one in particular never rests, nor does `render`:
        // a bubble is drawn from what someone else sent, and its failures are not the viewer's.
        guard call.hook != .render, let caller = call.context?.localParticipant ?? call.message?.senderParticipantIdentifier else {
            return try await run(call, environment: environment, started: Started()).get()
        }
        if let rest = backoff.withLock({ $0.rest(of: caller) }) {
            let parts = rest.components
            let seconds = max(1, Int(parts.seconds) + (parts.attoseconds > 0 ? 1 : 0))
            throw MessagesError(
                .appUnavailable, "\(module.manifest.name) failed several times in a row; try again in \(seconds) second\(seconds == 1 ? "" : "s").")
        }
        let answer: Result<AppWire.Result, MessagesError>
        let started = Started()
        do {
            answer = try await run(call, environment: environment, started: started)
        } catch {
            // Only a call that ran counts: one whose deadline passed while it waited behind
            // others' calls on its lane says nothing about this person.
            if started.value { backoff.withLock { $0.failed(caller) } }
            throw error
        }
        backoff.withLock { $0.answered(caller) }
        return try answer.get()
    }

    /// The module's answer to `call`: a result, or its refusal. Throws when the module failed.
    private func run(
        _ call: AppWire.Call, environment: WasmInstance.Environment, started: Started
    ) async throws(MessagesError) -> Result<AppWire.Result, MessagesError> {
        let input = Array(AppWire.encode(call))
        let module = module
        let name = module.manifest.name
        let seconds = WasmInstance.callSeconds
        var environment = environment
        environment.deadline = .now() + seconds
        let answer: Result<[UInt8], MessagesError> = await withCheckedContinuation { [environment] continuation in
            let answered = Once(continuation)
            let watchdog = Watchdog()
            let lane = lanes.min { $0.calls.load(ordering: .relaxed) < $1.calls.load(ordering: .relaxed) } ?? lanes[0]
            lane.calls.add(1, ordering: .relaxed)
            lane.queue.async {
                // The lane is free again before the caller hears back: its next call finds the
                // lane, and the instance it kept, idle.
                func done() {
                    watchdog.finish()
                    lane.calls.subtract(1, ordering: .relaxed)
                }
                // Answered already (its deadline passed while it waited on the lane): nobody wants
                // the work, and running it would only cost the lane its instance.
                guard !answered.isAnswered else { return done() }
                started.set()
                let result = Result { () throws(MessagesError) -> [UInt8] in
                    // The lane's instance, put back as it started after its last call, or a new one.
                    let instance: WasmInstance
                    if let spare = lane.spare.take() { instance = spare } else { instance = try self.instantiate() }
                    let answer = try instance.run(input, environment: environment, watchdog: watchdog)
                    if instance.reset() { lane.keepIdle(instance) }
                    return answer
                }.mapError { $0 }
                done()
                answered.resume(result)
            }
            // Past the deadline (a call waiting behind others on its lane or on a container read, or
            // work its budget allows on a slow machine), the person is told at once and the call
            // stopped.
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if answered.resume(.failure(MessagesError(.appUnavailable, "\(name) did not answer within \(Int(seconds)) seconds."))) {
                    watchdog.stop()
                }
            }
        }
        let frame: AppWire.AppFrame
        do {
            frame = try AppWire.decode(AppWire.AppFrame.self, from: Data(try answer.get()))
        } catch let error where error.code == .appUnavailable {
            throw error
        } catch {
            throw MessagesError(.appUnavailable, "\(module.manifest.name) answered something Parlor cannot read: \(error.message)")
        }
        switch frame {
        case .result(let result) where result.id == call.id:
            if result.unimplemented == true, call.hook.mayBeUnimplemented {
                unimplemented.withLock { _ = $0.insert(call.hook) }
            }
            return .success(result)
        case .refuse(let refusal) where refusal.id == call.id:
            return .failure(refusal.error)
        default:
            throw MessagesError(.appUnavailable, "\(module.manifest.name) answered another call.")
        }
    }
}

/// One of an app's lanes: a serial queue, the calls in it (running or waiting), and the instance
/// its calls reuse.
private final class Lane: Sendable {
    let queue: DispatchQueue
    let calls = Atomic<Int>(0)
    let spare = Spare()

    /// How long the lane keeps its instance with no call, in seconds.
    let idleLifetime: Double

    /// The instance a lane's next call may use. Only the lane's serial queue takes and keeps it,
    /// so one instance never runs two calls at once.
    final class Spare: @unchecked Sendable {
        private var instance: WasmInstance?
        /// Counts the instances kept, so that a drop scheduled for one leaves a newer one.
        private(set) var generation = 0

        func take() -> WasmInstance? {
            defer { instance = nil }
            return instance
        }

        func keep(_ instance: WasmInstance) {
            self.instance = instance
            generation += 1
        }

        func drop(ifStill generation: Int) {
            if generation == self.generation { instance = nil }
        }
    }

    init(queue: DispatchQueue, idleLifetime: Double) {
        self.queue = queue
        self.idleLifetime = idleLifetime
    }

    /// Keeps `instance` for the lane's next call, and drops it if none comes within `idleLifetime`.
    /// On the lane's queue only.
    func keepIdle(_ instance: WasmInstance) {
        spare.keep(instance)
        let generation = spare.generation
        queue.asyncAfter(deadline: .now() + idleLifetime) { [spare] in spare.drop(ifStill: generation) }
    }
}

/// Whether a call began to run (it had a lane before its deadline).
private final class Started: Sendable {
    private let started = Atomic<Bool>(false)
    var value: Bool { started.load(ordering: .relaxed) }
    func set() { started.store(true, ordering: .relaxed) }
}

/// A continuation resumed once: by the answer or by the deadline, whichever comes first.
private final class Once: Sendable {
    private let continuation: Mutex<CheckedContinuation<Result<[UInt8], MessagesError>, Never>?>

    init(_ continuation: CheckedContinuation<Result<[UInt8], MessagesError>, Never>) {
        self.continuation = Mutex(continuation)
    }

    /// Whether the call has its answer (or its deadline's).
    var isAnswered: Bool { continuation.withLock { $0 == nil } }

    /// Resumes with `result` unless it was resumed already; whether this did.
    @discardableResult
    func resume(_ result: Result<[UInt8], MessagesError>) -> Bool {
        guard let continuation = continuation.withLock({ state in defer { state = nil }; return state }) else { return false }
        continuation.resume(returning: result)
        return true
    }
}
#endif
