import Dispatch
import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension OutOfProcess {
    /// An app in any language, started as a process that speaks the app connection protocol over
    /// its standard input and output (one JSON frame per line; docs/APPS-PROTOCOL.md), hosted in
    /// the simulator as a server would host it: every hook, view and check is a call to it.
    ///
    /// ```swift
    /// let dice = try OutOfProcess.process(manifest: manifest, command: ["python3", "examples/dice/dice.py", "--stdio"])
    /// let simulator = ConversationSimulator(hosting: [dice.app])
    /// ```
    /// - Throws: when the process cannot start.
    public static func process(
        manifest: AppManifest, command: [String], environment: [String: String]? = nil, deadline: Duration = AppWire.callDeadline
    ) throws -> ProcessAppLink {
        try ProcessAppLink(manifest: manifest, command: command, environment: environment, deadline: deadline)
    }
}

/// A link to an app process over its standard input and output. The process ends with the link
/// (`terminate()`, or when the link is released).
public final class ProcessAppLink: AppLink, Sendable {
    public let manifest: AppManifest
    private let process: Process
    private let input: FileHandle
    private let writes = DispatchQueue(label: "parlor.process-app-link")

    private let calls: PendingCalls
    /// Output not yet split into lines.
    private let buffer = Mutex(Data())

    /// The app as the simulator hosts it.
    public var app: AnyMessagesApp { AnyMessagesApp(RemoteApp(manifest: manifest, link: self)) }

    init(manifest: AppManifest, command: [String], environment: [String: String]?, deadline: Duration) throws {
        guard let executable = command.first else { throw MessagesError(.invalidValue, "The command is empty.") }
        self.manifest = manifest
        calls = PendingCalls(appName: manifest.name, deadline: deadline)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + command.dropFirst()
        var variables = environment ?? ProcessInfo.processInfo.environment
        variables["PARLOR_STDIO"] = "1"
        process.environment = variables
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        input = stdin.fileHandleForWriting
        // Writing to a process that has ended must fail the write, not end this process.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            // At the end of the output the handle stays readable: the handler must be cleared
            // there, whether or not the link is still here, or it runs in a tight loop.
            guard let self else {
                if data.isEmpty { handle.readabilityHandler = nil }
                return
            }
            if data.isEmpty {
                handle.readabilityHandler = nil
                self.ended()
            } else {
                self.received(data)
            }
        }
        write(AppWire.encode(AppWire.ServerFrame.welcome(app: manifest.id, protocolVersion: AppWire.version)))
    }

    deinit { terminate() }

    /// Stops the process; open calls fail.
    public func terminate() {
        // The end of its input ends an app in stdio mode (docs/APPS-PROTOCOL.md); SIGTERM alone
        // may not, when the process inherited a thread's blocked signals.
        try? input.close()
        if process.isRunning { process.terminate() }
        ended()
    }

    public func call(_ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
        try await calls.call(call, container: container, upload: upload) { self.write(AppWire.encode(AppWire.ServerFrame.call($0))) }
    }

    private func write(_ frame: Data) {
        let input = input
        writes.async { try? input.write(contentsOf: frame + Data("\n".utf8)) }
    }

    private func received(_ data: Data) {
        let lines: [Data] = buffer.withLock { buffer in
            buffer.append(data)
            var lines: [Data] = []
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(buffer[buffer.startIndex..<newline])
                buffer.removeSubrange(buffer.startIndex...newline)
            }
            return lines
        }
        for line in lines where !line.isEmpty {
            calls.receive(Data(line)) { self.write(AppWire.encode($0)) }
        }
    }

    private func ended() {
        calls.endAll(MessagesError(.appUnavailable, "\(manifest.name) stopped."))
    }
}
