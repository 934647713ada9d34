import Foundation
import ParlorHost
import ParlorKit
import ParlorTesting
import ParlorWasmHost
import Synchronization
import Testing
import WAT

/// The sandbox around an app that is one WebAssembly module, each case a hostile module written
/// here in the WebAssembly text format: refused when it is added (what it imports, its memory,
/// its exports, its bytes), or failing only the call it breaks (a loop, a recursion, a trap, an
/// answer too large or unreadable), with the app's `appUnavailable` sentence, the next call
/// answered as if nothing had happened.
@Suite("WebAssembly apps: the sandbox")
struct WasmSandboxTests {
    static let manifest = AppManifest(id: "org.example.wasm-test", name: "Sandboxed", icon: .asset("cube.png"), summary: "A test app.")

    /// A module that answers every call with an empty result naming it (the call's JSON starts
    /// with its id, as `AppWire.encode` writes it), except what `body` does first; `memory` is
    /// its memory's declaration, `extra` more fields of the module.
    static func module(body: String = "", memory: String = "2 4", extra: String = "") -> String {
        """
        (module
          \(extra)
          (memory (export "memory") \(memory))
          (global $top (mut i32) (i32.const 65536))
          (data (i32.const 0) "{\\"type\\":\\"result\\",\\"result\\":{\\"id\\":\\"")
          (data (i32.const 100) "\\"}}")
          (data (i32.const 120) "\\",\\"state\\":")
          (data (i32.const 140) "}}")
          (data (i32.const 150) "\\"absent\\"")
          (data (i32.const 160) "saved")
          (func $alloc (export "parlor_alloc") (param $n i32) (result i32)
            (local $p i32)
            (local.set $p (global.get $top))
            (global.set $top (i32.add (global.get $top) (local.get $n)))
            (local.get $p))
          ;; The first letter of the call's hook ("v" for validate): after {"id":"<id>","hook":"
          (func $hookInitial (param $in i32) (result i32)
            (local $i i32)
            (local.set $i (i32.add (local.get $in) (i32.const 7)))
            (block $done (loop $next
              (br_if $done (i32.eq (i32.load8_u (local.get $i)) (i32.const 34)))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $next)))
            (i32.load8_u (i32.add (local.get $i) (i32.const 10))))
          ;; {"type":"result","result":{"id":"<the call's id> at 200; where it ends.
          (func $writeId (param $in i32) (result i32)
            (local $o i32) (local $i i32) (local $c i32)
            (memory.copy (i32.const 200) (i32.const 0) (i32.const 33))
            (local.set $o (i32.const 233))
            (local.set $i (i32.add (local.get $in) (i32.const 7)))
            (block $done (loop $next
              (local.set $c (i32.load8_u (local.get $i)))
              (br_if $done (i32.eq (local.get $c) (i32.const 34)))
              (i32.store8 (local.get $o) (local.get $c))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (local.set $o (i32.add (local.get $o) (i32.const 1)))
              (br $next)))
            (local.get $o))
          ;; The answer from 200 to $end.
          (func $place (param $end i32) (result i64)
            (i64.or (i64.shl (i64.const 200) (i64.const 32)) (i64.extend_i32_u (i32.sub (local.get $end) (i32.const 200)))))
          ;; {"type":"result","result":{"id":"<the call's id>"}}
          (func $answer (param $in i32) (result i64)
            (local $o i32)
            (local.set $o (call $writeId (local.get $in)))
            (memory.copy (local.get $o) (i32.const 100) (i32.const 3))
            (call $place (i32.add (local.get $o) (i32.const 3))))
          ;; {"type":"result","result":{"id":"<the call's id>","state":<count bytes at value>}}
          (func $answerWithState (param $in i32) (param $value i32) (param $count i32) (result i64)
            (local $o i32)
            (local.set $o (call $writeId (local.get $in)))
            (memory.copy (local.get $o) (i32.const 120) (i32.const 10))
            (local.set $o (i32.add (local.get $o) (i32.const 10)))
            (memory.copy (local.get $o) (local.get $value) (local.get $count))
            (local.set $o (i32.add (local.get $o) (local.get $count)))
            (memory.copy (local.get $o) (i32.const 140) (i32.const 2))
            (call $place (i32.add (local.get $o) (i32.const 2))))
          (func $recurse (param $n i32) (result i32)
            (i32.add (call $recurse (i32.add (local.get $n) (i32.const 1))) (i32.const 1)))
          (func (export "parlor_call") (param $in i32) (param $length i32) (result i64)
            \(body)
            (call $answer (local.get $in)))
        )
        """
    }

    static func load(_ text: String, limits: WasmLimits = WasmLimits()) throws -> WasmAppModule {
        try WasmAppModule(bytes: try wat2wasm(text), manifest: manifest, limits: limits)
    }

    static func link(_ text: String, limits: WasmLimits = WasmLimits()) throws -> WasmAppLink {
        WasmAppLink(module: try load(text, limits: limits))
    }

    static func call(_ hook: AppWire.Hook = .render, id: String = UUID().uuidString) -> AppWire.Call {
        AppWire.Call(id: id, hook: hook, state: .null)
    }

    /// The refusal `load` throws for `text`.
    static func refusal(_ text: String, limits: WasmLimits = WasmLimits()) throws -> MessagesError {
        let bytes = try wat2wasm(text)
        do {
            _ = try WasmAppModule(bytes: bytes, manifest: manifest, limits: limits)
        } catch {
            return error
        }
        Issue.record("the module was accepted")
        return MessagesError(.unknown, "accepted")
    }

    /// The error `link` fails `call` with.
    static func failure(_ link: WasmAppLink, _ call: AppWire.Call = call()) async -> MessagesError? {
        do {
            _ = try await link.call(call, container: nil, upload: nil)
            return nil
        } catch {
            return error
        }
    }

    @Test("A well-behaved module answers each call by its id, each call in a fresh instance; with metering off (measuring only) too", arguments: [
        WasmLimits(), WasmLimits(fuelPerCall: 0),
    ])
    func answers(limits: WasmLimits) async throws {
        let link = try Self.link(Self.module(), limits: limits)
        for _ in 0..<3 {
            let call = Self.call()
            let result = try await link.call(call, container: nil, upload: nil)
            #expect(result.id == call.id)
        }
    }

    @Test("Importing anything but Parlor's host functions (WASI's fd_write, an unknown module, a memory) is refused when the module is added, naming the import")
    func foreignImports() throws {
        let wasi = try Self.refusal(Self.module(extra: #"(import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))"#))
        #expect(wasi.code == .invalidValue)
        #expect(wasi.message.contains("wasi_snapshot_preview1.fd_write"), "\(wasi.message)")
        #expect(wasi.message.contains("parlor.container_get"), "says what may be imported: \(wasi.message)")
        let unknown = try Self.refusal(Self.module(extra: #"(import "parlor" "open_socket" (func (param i32)))"#))
        #expect(unknown.message.contains("parlor.open_socket"), "\(unknown.message)")
        let table = try Self.refusal(Self.module(extra: #"(import "parlor" "log" (table 1 funcref))"#))
        #expect(table.message.contains("parlor.log"), "\(table.message)")
        // Parlor's own, with their signatures, are accepted.
        _ = try Self.load(Self.module(extra: #"(import "parlor" "log" (func (param i32 i32))) (import "parlor" "now_ms" (func (result i64)))"#))
        // ...and one with another signature is not.
        let wrong = try Self.refusal(Self.module(extra: #"(import "parlor" "now_ms" (func (result i32)))"#))
        #expect(wrong.code == .invalidValue)
    }

    @Test("A memory with no maximum, or a maximum past the limit, is refused when the module is added; memory.grow past the declared maximum fails inside the module")
    func memoryCap() async throws {
        let unbounded = try Self.refusal(Self.module(memory: "2"))
        #expect(unbounded.message.contains("no maximum"), "\(unbounded.message)")
        let large = try Self.refusal(Self.module(memory: "2 65536"))
        #expect(large.message.contains("65536 pages") && large.message.contains("the limit is 256"), "\(large.message)")
        // Within its maximum, growing by a thousand pages answers -1 (the spec's failure): the
        // module carries on, and here says so by trapping.
        let link = try Self.link(Self.module(body: "(if (i32.ne (memory.grow (i32.const 1000)) (i32.const -1)) (then unreachable))"))
        let call = Self.call()
        #expect(try await link.call(call, container: nil, upload: nil).id == call.id)
    }

    @Test("Bytes that are not a module, a module too large, and one without the ABI's exports are refused with a sentence")
    func malformed() throws {
        do {
            _ = try WasmAppModule(bytes: Array("not wasm at all".utf8), manifest: Self.manifest)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidValue && error.message.contains("not a WebAssembly module"), "\(error.message)")
        }
        let big = try Self.refusal(Self.module(), limits: WasmLimits(maxModuleBytes: 100))
        #expect(big.message.contains("the limit is 100"), "\(big.message)")
        let noCall = try Self.refusal(#"(module (memory (export "memory") 1 1) (func (export "parlor_alloc") (param i32) (result i32) (i32.const 0)))"#)
        #expect(noCall.message.contains("parlor_call"), "\(noCall.message)")
        let wrongType = try Self.refusal(
            #"(module (memory (export "memory") 1 1) (func (export "parlor_alloc") (param i32) (result i32) (i32.const 0)) (func (export "parlor_call") (param i32 i32) (result i32) (i32.const 0)))"#)
        #expect(wrongType.message.contains("parlor_call"), "\(wrongType.message)")
        let bytes = try wat2wasm(Self.module())
        do {
            _ = try WasmAppModule(bytes: bytes)
            Issue.record("accepted without a manifest")
        } catch {
            #expect(error.message.contains("parlor.manifest"), "\(error.message)")
        }
    }

    /// A budget small enough for a debug build to burn in well under a second.
    static let smallBudget = WasmLimits(fuelPerCall: 2_000_000)
    /// Loops for ever on `handle`.
    static let loopsOnHandle = module(body: "(if (i32.eq (call $hookInitial (local.get $in)) (i32.const 104)) (then (loop $forever (br $forever))))")

    @Test("A loop that never ends is stopped by its fuel budget: that call fails with appUnavailable, the next is answered")
    func endlessLoop() async throws {
        let link = try Self.link(Self.loopsOnHandle, limits: Self.smallBudget)
        let started = ContinuousClock.now
        let error = await Self.failure(link, Self.call(.handle))
        #expect(error?.code == .appUnavailable)
        #expect(error?.message.contains("budget") == true, "\(String(describing: error))")
        // Stopped, not left running (a loaded machine may take its time to say so; the suite runs
        // hundreds of tests on two cores).
        #expect(ContinuousClock.now - started < .seconds(60), "stopped")
        let call = Self.call(.render)
        #expect(try await link.call(call, container: nil, upload: nil).id == call.id, "the next call is answered")
    }

    @Test("A person whose calls keep failing has them rest, failing at once without running, for a second, then two; drawing and someone else's calls still run; one good answer forgets it", .timeLimit(.minutes(1)))
    func failingCallsRest() async throws {
        // Traps in `handle` ("h"), answers everything else.
        let link = try Self.link(Self.module(body: "(if (i32.eq (call $hookInitial (local.get $in)) (i32.const 104)) (then unreachable))"))
        let (mallory, bob) = (ParticipantID(), ParticipantID())
        func call(_ hook: AppWire.Hook, for person: ParticipantID) -> AppWire.Call {
            AppWire.Call(
                id: UUID().uuidString, hook: hook, state: .null,
                context: AppWire.Context(
                    style: .compact, surface: .messages, modal: nil, localParticipant: person, remoteParticipants: nil, selectedMessage: nil))
        }
        for _ in 0..<3 {
            let trap = await Self.failure(link, call(.handle, for: mallory))
            #expect(trap?.message.contains("unreachable") == true, "\(String(describing: trap))")
        }
        let made = link.instancesMade
        let resting = await Self.failure(link, call(.didSelect, for: mallory))
        #expect(resting?.code == .appUnavailable)
        #expect(resting?.message == "Sandboxed failed several times in a row; try again in 1 second.")
        #expect(link.instancesMade == made, "a resting call does not run")
        let drawn = call(.render, for: mallory)
        #expect(try await link.call(drawn, container: nil, upload: nil).id == drawn.id, "drawing a bubble never rests: it draws what others sent")
        let other = call(.didSelect, for: bob)
        #expect(try await link.call(other, container: nil, upload: nil).id == other.id, "Bob's calls run")

        // After the rest, the next call runs; failing again, the rest doubles.
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(await Self.failure(link, call(.handle, for: mallory))?.message.contains("unreachable") == true)
        #expect(await Self.failure(link, call(.didSelect, for: mallory))?.message.contains("2 seconds") == true)
        try await Task.sleep(for: .milliseconds(2_100))
        let good = call(.didSelect, for: mallory)
        #expect(try await link.call(good, container: nil, upload: nil).id == good.id, "tried again after the rest")
        #expect(await Self.failure(link, call(.handle, for: mallory))?.message.contains("unreachable") == true, "a good answer forgot the failures")
        let answered = call(.didSelect, for: mallory)
        #expect(try await link.call(answered, container: nil, upload: nil).id == answered.id, "one failure does not rest")
    }

    /// Answers every request with 200 and "hello", and keeps them.
    final class RecordingFetchClient: FetchClient {
        let requests = Mutex<[FetchRequest]>([])
        func send(_ request: FetchRequest) async throws -> FetchResponse {
            requests.withLock { $0.append(request) }
            return FetchResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("hello".utf8))
        }
    }

    @Test("fetch sends a request through the host to a host the manifest allows, once even when asked again with room; another host gets the manifest's sentence; a description it cannot read, and a fetch while drawing (render), get theirs")
    func fetchThroughTheHost() async throws {
        let allowed = #"{"url":"https://feeds.example.org/a","method":"POST","body":"hi"}"#
        let other = #"{"url":"https://elsewhere.example/b"}"#
        let lowercase = #"{"url":"https://feeds.example.org/a","method":"post"}"#
        func quoted(_ json: String) -> String { json.replacingOccurrences(of: "\"", with: "\\\"") }
        let imports = #"(import "parlor" "log" (func $log (param i32 i32))) (import "parlor" "fetch" (func $fetch (param i32 i32 i32 i32) (result i32)))"#
        let text = Self.module(
            body: """
                (if (i32.eq (call $hookInitial (local.get $in)) (i32.const 119)) (then
                  (drop (call $fetch (i32.const 1000) (i32.const \(allowed.utf8.count)) (i32.const 5000) (i32.const 1)))
                  (call $log (i32.const 5000) (call $fetch (i32.const 1000) (i32.const \(allowed.utf8.count)) (i32.const 5000) (i32.const 4096)))
                  (call $log (i32.const 9000) (call $fetch (i32.const 1200) (i32.const \(other.utf8.count)) (i32.const 9000) (i32.const 4096)))
                  (call $log (i32.const 13000) (call $fetch (i32.const 1400) (i32.const \(lowercase.utf8.count)) (i32.const 13000) (i32.const 4096)))))
                (if (i32.eq (call $hookInitial (local.get $in)) (i32.const 114)) (then
                  (call $log (i32.const 17000) (call $fetch (i32.const 1000) (i32.const \(allowed.utf8.count)) (i32.const 17000) (i32.const 4096)))))
                """,
            extra: imports + #" (data (i32.const 1000) "\#(quoted(allowed))") (data (i32.const 1200) "\#(quoted(other))") (data (i32.const 1400) "\#(quoted(lowercase))")"#)
        let manifest = AppManifest(
            id: Self.manifest.id, name: Self.manifest.name, icon: Self.manifest.icon, summary: "Fetches.", allowedHosts: ["feeds.example.org"])
        let module = try WasmAppModule(bytes: try wat2wasm(text), manifest: manifest)
        let lines = Mutex<[String]>([])
        let client = RecordingFetchClient()
        let simulator = ConversationSimulator(
            participants: ["Alice", "Bob"], hosting: [WasmApp.app(module, log: { line in lines.withLock { $0.append(line) } })], httpClient: client)
        _ = try await simulator.participant("Alice").openApp(named: "Sandboxed")

        let sent = client.requests.withLock { $0 }
        #expect(sent.map(\.url.absoluteString) == ["https://feeds.example.org/a"], "sent once, although asked for twice")
        #expect(sent.first?.method == "POST" && sent.first?.body == Data("hi".utf8))
        let logged = try lines.withLock { $0 }.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(logged.count >= 4, "\(logged)")
        #expect(logged[0]?["status"] as? Int == 200 && logged[0]?["body"] as? String == "hello", "\(logged)")
        func error(_ answer: [String: Any]?) -> (code: String?, message: String?) {
            let error = answer?["error"] as? [String: String]
            return (error?["code"], error?["message"])
        }
        #expect(error(logged[1]).code == "hostNotAllowed" && error(logged[1]).message?.contains("may not reach elsewhere.example") == true)
        #expect(error(logged[2]) == ("invalidValue", "A request's method is a word of capital letters, such as GET or POST."))
        let drawing = logged.dropFirst(3).map(error)
        #expect(!drawing.isEmpty && drawing.allSatisfy { $0.code == "apiUnavailableInPresentationContext" }, "\(drawing)")
    }

    /// A container whose reads wait until `release()`.
    final class HeldContainer: AppContainer {
        private let gate = AsyncStream<Void>.makeStream()
        let asked = AsyncStream<Void>.makeStream()
        func release() { gate.continuation.finish() }
        func data(forKey key: String) async throws -> Data? {
            asked.continuation.yield()
            for await _ in gate.stream {}
            return Data("1".utf8)
        }
        func setData(_ data: Data?, forKey key: String) async throws {}
    }

    @Test("While one call is held on its lane, the same app's other calls and another app are answered")
    func heldCallDoesNotHoldOthers() async throws {
        // On handle, it reads its container, which answers only when the test says.
        let reader = Self.module(
            body: """
                (if (i32.eq (call $hookInitial (local.get $in)) (i32.const 104)) (then
                  (drop (call $get (i32.const 160) (i32.const 5) (i32.const 1000) (i32.const 64)))))
                """,
            extra: #"(import "parlor" "container_get" (func $get (param i32 i32 i32 i32) (result i32)))"#)
        let held = try Self.link(reader)
        let other = try Self.link(Self.module())
        let container = HeldContainer()
        let stuck = Task { try await held.call(Self.call(.handle), container: container, upload: nil) }
        var asked = container.asked.stream.makeAsyncIterator()
        _ = await asked.next()
        for _ in 0..<5 {
            let call = Self.call(.render)
            #expect(try await held.call(call, container: nil, upload: nil).id == call.id)
            _ = try await other.call(Self.call(.render), container: nil, upload: nil)
        }
        // Had they waited behind the held call (one lane), they would still be waiting.
        container.release()
        _ = try await stuck.value
    }

    @Test("A call whose budget outlasts the deadline (filling 16 MiB again and again) is answered appUnavailable at the deadline and stopped by the watchdog; the calls after it are answered", .timeLimit(.minutes(1)))
    func pastTheDeadline() async throws {
        let filler = Self.module(
            body: "(if (i32.eq (call $hookInitial (local.get $in)) (i32.const 104)) (then (loop $again (memory.fill (i32.const 0) (i32.const 0) (i32.const 16777216)) (br $again))))",
            memory: "256 256")
        // A budget no call spends in 5 s: only the deadline and its watchdog stop this one.
        let link = try Self.link(filler, limits: WasmLimits(fuelPerCall: 1 << 60))
        let started = ContinuousClock.now
        let error = await Self.failure(link, Self.call(.handle))
        #expect(error?.code == .appUnavailable && error?.message.contains("did not answer within") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(60), "answered at the deadline, not when the loop would end (hours)")
        // Its lane is free again once the watchdog stopped the loop: calls enough to queue on every
        // lane, the stopped one included (ties go to the first lane, where the loop ran), are all
        // answered; had the loop gone on, one of them would wait for ever (the time limit).
        let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<(2 * WasmAppLink.maxConcurrentCalls) {
                group.addTask {
                    let call = Self.call(.render)
                    return try await link.call(call, container: nil, upload: nil).id == call.id
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(answered == 2 * WasmAppLink.maxConcurrentCalls)
    }

    @Test("Host functions given places outside the memory, or asked for too many random bytes, fail that call only")
    func hostFunctionsOutOfBounds() async throws {
        let imports = #"(import "parlor" "log" (func $log (param i32 i32))) (import "parlor" "random_bytes" (func $random (param i32 i32)))"#
        let outside = try Self.link(Self.module(body: "(call $log (i32.const -16) (i32.const 32))", extra: imports))
        #expect(await Self.failure(outside)?.message.contains("outside the module's memory") == true)
        let huge = try Self.link(Self.module(body: "(call $random (i32.const 0) (i32.const 100000))", extra: imports))
        #expect(await Self.failure(huge)?.message.contains("random bytes") == true)
        let many = try Self.link(Self.module(
            body: "(local $i i32) (loop $again (call $random (i32.const 0) (i32.const 4096)) (local.set $i (i32.add (local.get $i) (i32.const 1))) (br_if $again (i32.lt_u (local.get $i) (i32.const 17))))",
            extra: imports))
        #expect(await Self.failure(many)?.message.contains("random bytes") == true, "16 asks of 4 KiB is the most")
        let enough = try Self.link(Self.module(body: "(call $random (i32.const 400) (i32.const 4096))", extra: imports))
        let call = Self.call()
        #expect(try await enough.call(call, container: nil, upload: nil).id == call.id)
    }

    @Test("A start function is refused when the module is added; a table cannot grow past 10,000 elements")
    func startAndTables() async throws {
        let start = try Self.refusal(Self.module(extra: "(func $boot) (start $boot)"))
        #expect(start.message.contains("start function"), "\(start.message)")
        let grower = try Self.link(Self.module(
            body: "(if (i32.ne (table.grow $t (ref.null func) (i32.const 1000000)) (i32.const -1)) (then unreachable))",
            extra: "(table $t 1 funcref)"))
        let call = Self.call()
        #expect(try await grower.call(call, container: nil, upload: nil).id == call.id, "table.grow answered -1")
    }

    @Test("A recursion without end fails that call (the stack is exhausted), not the host")
    func recursion() async throws {
        let link = try Self.link(Self.module(body: "(drop (call $recurse (i32.const 0)))"))
        let error = await Self.failure(link)
        #expect(error?.code == .appUnavailable)
        #expect(error?.message.contains("too deep") == true, "\(String(describing: error))")
    }

    @Test("An answer of 100 MB is refused without being read; an answer outside the memory, or one that is not JSON, fails the call")
    func badAnswers() async throws {
        let huge = try Self.link(Self.module(body: "(return (i64.or (i64.shl (i64.const 0) (i64.const 32)) (i64.const 100000000)))"))
        let tooLarge = await Self.failure(huge)
        #expect(tooLarge?.code == .appUnavailable)
        #expect(tooLarge?.message.contains("100000000 bytes") == true, "\(String(describing: tooLarge))")
        let outside = try Self.link(Self.module(body: "(return (i64.or (i64.shl (i64.const 262000) (i64.const 32)) (i64.const 1000)))"))
        #expect(await Self.failure(outside)?.message.contains("outside its memory") == true)
        // "\"}}" alone: not a frame.
        let garbage = try Self.link(Self.module(body: "(return (i64.or (i64.shl (i64.const 100) (i64.const 32)) (i64.const 3)))"))
        let unreadable = await Self.failure(garbage)
        #expect(unreadable?.code == .appUnavailable)
        #expect(unreadable?.message.contains("cannot read") == true, "\(String(describing: unreadable))")
    }

    @Test("A trap in validate refuses that message (appUnavailable) and nothing else")
    func trapInValidate() async throws {
        let link = try Self.link(Self.module(body: "(if (i32.eq (call $hookInitial (local.get $in)) (i32.const 118)) (then unreachable))"))
        let error = await Self.failure(link, Self.call(.validate))
        #expect(error?.code == .appUnavailable)
        #expect(error?.message.contains("unreachable") == true, "\(String(describing: error))")
        let call = Self.call(.render)
        #expect(try await link.call(call, container: nil, upload: nil).id == call.id)
    }

    @Test("Hosted in a conversation, a module that traps in validate gets its message refused (messageNotChecked), and nothing is posted")
    func trapInValidateRefusesTheMessage() async throws {
        let module = try Self.load(Self.module(body: "(if (i32.eq (call $hookInitial (local.get $in)) (i32.const 118)) (then unreachable))"))
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], hosting: [WasmApp.app(module)])
        let alice = simulator.participant("Alice")
        let message = Message(url: URL(string: "https://parlor.example/sandboxed?move=1"), layout: .template(TemplateLayout(caption: "A move")))
        do {
            _ = try await alice.sendRawMessage(message, app: Self.manifest.name, replacing: nil)
            Issue.record("a message the app could not check was posted")
        } catch let error as MessagesError {
            #expect(error.code == .messageNotChecked, "the host's refusal of a message its app could not check: \(error)")
        }
        #expect(try await simulator.participant("Bob").transcript().filter { $0.appName == Self.manifest.name }.isEmpty, "nothing committed")
    }

    @Test("Each call starts from the module's own memory: what one call wrote is not there for the next")
    func freshMemory() async throws {
        // Traps when the byte at 300 is already 1 (left by an earlier call), then sets it.
        let link = try Self.link(Self.module(body: "(if (i32.eq (i32.load8_u (i32.const 300)) (i32.const 1)) (then unreachable)) (i32.store8 (i32.const 300) (i32.const 1))"))
        for _ in 0..<3 {
            let call = Self.call()
            #expect(try await link.call(call, container: nil, upload: nil).id == call.id)
        }
    }

    /// Traps when an earlier call's mark is still there (in memory, in a global the module does
    /// not export, or in a table slot), then leaves its own marks.
    static let marker = module(
        body: """
            (if (i32.eq (i32.load8_u (i32.const 300)) (i32.const 1)) (then unreachable))
            (if (global.get $seen) (then unreachable))
            (if (i32.eqz (ref.is_null (table.get $t (i32.const 1)))) (then unreachable))
            (i32.store8 (i32.const 300) (i32.const 1))
            (global.set $seen (i32.const 1))
            (table.set $t (i32.const 1) (table.get $t (i32.const 0)))
            """,
        extra: "(global $seen (mut i32) (i32.const 0)) (table $t 2 2 funcref) (elem (i32.const 0) $mark) (func $mark)")

    @Test("Calls reuse an instance, each starting as a new one would: what a call left in memory, in a global the module does not export or in a table is gone for the next, on every lane")
    func reusedAsNew() async throws {
        let link = try Self.link(Self.marker)
        for _ in 0..<6 {
            let call = Self.call()
            #expect(try await link.call(call, container: nil, upload: nil).id == call.id)
        }
        #expect(link.instancesMade == 1, "one call at a time: one lane, one instance, reused")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask { _ = try await link.call(Self.call(), container: nil, upload: nil) }
            }
            try await group.waitForAll()
        }
        #expect(link.instancesMade <= WasmAppLink.maxConcurrentCalls, "at most one instance per lane")

        // An app nobody uses holds no instance: the lane lets its go once idle.
        // (Under the whole suite a call can outlast a short lifetime: the count before the wait is
        // what the wait is compared with.)
        let idle = WasmAppLink(module: try Self.load(Self.marker), idleLifetime: .milliseconds(200))
        _ = try await idle.call(Self.call(), container: nil, upload: nil)
        let before = idle.instancesMade
        try await Task.sleep(for: .seconds(2))
        _ = try await idle.call(Self.call(), container: nil, upload: nil)
        #expect(idle.instancesMade == before + 1, "the idle instance was let go; a new one answered")
    }

    @Test("An instance that trapped, or whose memory grew, is not used again; a module whose state Parlor cannot put back (a passive data segment) gets a new instance per call")
    func notReused() async throws {
        let trapsOnHandle = try Self.link(Self.module(body: "(if (i32.eq (call $hookInitial (local.get $in)) (i32.const 104)) (then unreachable))"))
        _ = try await trapsOnHandle.call(Self.call(), container: nil, upload: nil)
        #expect(await Self.failure(trapsOnHandle, Self.call(.handle))?.code == .appUnavailable)
        _ = try await trapsOnHandle.call(Self.call(), container: nil, upload: nil)
        #expect(trapsOnHandle.instancesMade == 2, "the trapped instance was dropped")

        let grower = try Self.link(Self.module(body: "(drop (memory.grow (i32.const 1)))"))
        for _ in 0..<3 { _ = try await grower.call(Self.call(), container: nil, upload: nil) }
        #expect(grower.instancesMade == 3)

        let passive = try Self.link(Self.module(body: "(memory.init $later (i32.const 400) (i32.const 0) (i32.const 2)) (data.drop $later)", extra: #"(data $later "hi")"#))
        for _ in 0..<3 {
            let call = Self.call()
            #expect(try await passive.call(call, container: nil, upload: nil).id == call.id, "memory.init works in every call: its segment is there again")
        }
        #expect(passive.instancesMade == 3)
    }

    /// A container holding `values`.
    final class Container: AppContainer {
        let values: [String: Data]
        init(_ values: [String: Data]) { self.values = values }
        func data(forKey key: String) async throws -> Data? { values[key] }
        func setData(_ data: Data?, forKey key: String) async throws {}
    }

    @Test("container_get reads the person's container during the call: the value when it fits, its length when it does not, -1 when nothing is stored, -2 past 32 reads")
    func containerReads() async throws {
        // Reads "saved" into 1000 (room for 64 bytes) and answers it as the state; when it does
        // not fit, the state is its length in hundreds; when nothing is stored, "absent".
        let reader = Self.module(
            body: """
                (local $n i32)
                (local.set $n (call $get (i32.const 160) (i32.const 5) (i32.const 1000) (i32.const 64)))
                (if (i32.eq (local.get $n) (i32.const -1)) (then (return (call $answerWithState (local.get $in) (i32.const 150) (i32.const 8)))))
                (if (i32.lt_s (local.get $n) (i32.const 0)) (then unreachable))
                (if (i32.gt_s (local.get $n) (i32.const 64)) (then
                  (i32.store8 (i32.const 1000) (i32.add (i32.const 48) (i32.div_u (local.get $n) (i32.const 100))))
                  (return (call $answerWithState (local.get $in) (i32.const 1000) (i32.const 1)))))
                (return (call $answerWithState (local.get $in) (i32.const 1000) (local.get $n)))
                """,
            extra: #"(import "parlor" "container_get" (func $get (param i32 i32 i32 i32) (result i32)))"#)
        let link = try Self.link(reader)
        let stored = try await link.call(Self.call(), container: Container(["saved": Data(#"{"n":1}"#.utf8)]), upload: nil)
        #expect(stored.state == .object(["n": .int(1)]))
        let absent = try await link.call(Self.call(), container: Container([:]), upload: nil)
        #expect(absent.state == .string("absent"))
        let large = Data(("[" + String(repeating: "0,", count: 150) + "0]").utf8)
        let tooLarge = try await link.call(Self.call(), container: Container(["saved": large]), upload: nil)
        #expect(tooLarge.state == .int(Int64(large.count / 100)), "\(String(describing: tooLarge.state)) for \(large.count) bytes")

        // Reading 40 times in one call: the 33rd answers -2, and the module traps on it.
        let greedy = Self.module(
            body: """
                (local $i i32)
                (loop $again
                  (if (i32.eq (call $get (i32.const 160) (i32.const 5) (i32.const 1000) (i32.const 64)) (i32.const -2)) (then unreachable))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (br_if $again (i32.lt_u (local.get $i) (i32.const 40))))
                """,
            extra: #"(import "parlor" "container_get" (func $get (param i32 i32 i32 i32) (result i32)))"#)
        let greedyLink = try Self.link(greedy)
        let refused = await Self.failure(greedyLink)
        #expect(refused?.code == .appUnavailable, "the 33rd read is refused")
    }
}
