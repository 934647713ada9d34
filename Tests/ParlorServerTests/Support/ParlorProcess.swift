import Foundation
import Testing
import Synchronization

#if canImport(Glibc)
import Glibc
private let sendSignal = Glibc.kill
#elseif canImport(Darwin)
import Darwin
private let sendSignal = Darwin.kill
#endif

/// The real `parlor` executable, run as `parlor serve --port 0` on a data directory.
final class ParlorProcess: Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    /// The built `parlor` next to the test bundle (`swift build --build-tests` builds both).
    static func binary() throws -> URL {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("parlor"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("parlor"),
            OpenAPISpec.packageRoot.appendingPathComponent(".build/debug/parlor"),
        ].compactMap { $0 }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw SocketError(description: """
                The parlor executable was not found (looked at \(candidates.map(\.path))). \
                Build it first: swift build --build-tests (scripts/test does).
                """)
        }
        return found
    }

    /// Starts the server and waits for its "Parlor is running. Open http://127.0.0.1:PORT/" line.
    /// `options` come last, so they override the defaults (`--log-level warning`).
    static func start(dataDirectory: URL, log: URL, options: [String] = []) async throws -> ParlorProcess {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = ["serve", "--port", "0", "--data-dir", dataDirectory.path, "--password-cost", "4", "--log-level", "warning"] + options
        let output = Pipe()
        process.standardOutput = output
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw SocketError(description: "Cannot create the log file \(log.path)")
        }
        process.standardError = try FileHandle(forWritingTo: log)
        let printed = Printed()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            // At the end of the output the handle stays readable: without this, the handler would
            // run in a tight loop, a whole core of a 2-core machine, until the process is freed.
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            printed.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let port = printed.text.withLock({ Self.port(in: $0) }) {
                return ParlorProcess(process: process, port: port)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw SocketError(description: "parlor serve did not say it was running. Output: \(printed.text.withLock { $0 }) Errors: \(errors.suffix(2000))")
    }

    /// Runs `body` with a started server, and stops the server afterwards (SIGTERM, if it still
    /// runs) whether `body` returned or threw.
    static func running<T>(
        dataDirectory: URL, log: URL, options: [String] = [], _ body: (ParlorProcess) async throws -> T
    ) async throws -> T {
        let server = try await start(dataDirectory: dataDirectory, log: log, options: options)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Runs `parlor ARGUMENTS…` to its end: its exit status and what it printed (both streams).
    static func command(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Read to the end on a thread of its own: the blocking read must not hold a shared thread.
        let printed = Task {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)) }.start()
            }
        }
        // A command that never ends fails its test and is killed, which also ends the output.
        let status = await ParlorProcess(process: process, port: 0).exited(within: .seconds(120))
        return (status, await printed.value)
    }

    /// A port of 127.0.0.1 nothing listens on now (for a server option that takes a port).
    static func freePort() throws -> Int {
        let (descriptor, loopback) = try Loopback.socket(port: 0)
        var address = loopback
        defer { close(descriptor) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw SocketError(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// What the server printed so far.
    private final class Printed: Sendable {
        let text = Mutex("")
    }

    static func port(in output: String) -> Int? {
        let marker = "Parlor is running. Open http://127.0.0.1:"
        guard let start = output.range(of: marker)?.upperBound else { return nil }
        return Int(output[start...].prefix { $0.isNumber })
    }

    /// `kill -9`: no shutdown, no flush, no goodbye.
    func kill() async {
        _ = sendSignal(process.processIdentifier, SIGKILL)
        _ = await exited()
    }

    /// Asks the server to stop (SIGTERM) and waits.
    func stop() async {
        if process.isRunning { process.terminate() }
        _ = await exited(within: Self.stopPatience)
    }

    /// How long a server may take to stop after SIGTERM before the test fails and kills it.
    static let stopPatience: Duration = .seconds(30)

    /// Sends `signal` and returns the exit status once the server has stopped.
    func stop(with signal: Int32) async -> Int32 {
        _ = sendSignal(process.processIdentifier, signal)
        return await exited(within: Self.stopPatience)
    }

    /// The exit status, once the process has ended. It polls rather than calling
    /// `waitUntilExit()`, which would hold one of the few threads every other test runs on.
    /// A process still running after `patience` fails the test and is killed, so that a server
    /// that does not stop fails its test instead of hanging the whole run.
    private func exited(within patience: Duration? = nil) async -> Int32 {
        await Self.waitForExit(of: process, within: patience)
    }

    /// Waits for `process` to end (for at most `patience`, then records an issue and kills it).
    static func waitForExit(of process: Process, within patience: Duration?, sourceLocation: SourceLocation = #_sourceLocation) async -> Int32 {
        let deadline = patience.map { ContinuousClock.now + $0 }
        while process.isRunning {
            if let deadline, ContinuousClock.now > deadline {
                let command = ([process.executableURL?.lastPathComponent ?? "?"] + (process.arguments?.prefix(2) ?? [])).joined(separator: " ")
                Issue.record("\(command) was still running \(patience.map { "\($0)" } ?? "") after it was asked to stop; killed it", sourceLocation: sourceLocation)
                _ = sendSignal(process.processIdentifier, SIGKILL)
                while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
                break
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }
}
