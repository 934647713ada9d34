import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOWebSocket
import ParlorHost
import ParlorKit

/// An app process a test scripts frame by frame: it dials in to `/api/apps/connect` with a
/// credential, hands the test each frame Parlor sends, and sends whatever the test says, well
/// formed or not. For the misbehaviours a real app would not script.
final class FakeApp: Sendable {
    enum Event: Sendable {
        case opened
        case frame(AppWire.ServerFrame)
        case closed(WebSocketErrorCode?, String?)
        case failed(String)
    }

    private let mailbox = EventBox<Event>()
    private let commands: AsyncStream<String>.Continuation
    private let task: Task<Void, Never>

    /// Connects with `secret`.
    /// - Throws: when the upgrade is refused.
    static func connect(port: Int, secret: String) async throws -> FakeApp {
        let app = FakeApp(url: "ws://127.0.0.1:\(port)/api/apps/connect?protocol=1", secret: secret)
        switch await app.mailbox.take(timeout: .seconds(15), where: { _ in true }) {
        case .opened?: return app
        case .failed(let reason)?: throw SocketError(description: "The upgrade failed: \(reason)")
        case let other: throw SocketError(description: "Expected the connection to open, got \(String(describing: other))")
        }
    }

    private init(url: String, secret: String) {
        let (stream, commands) = AsyncStream.makeStream(of: String.self)
        self.commands = commands
        let mailbox = self.mailbox
        var logger = Logger(label: "fake-app")
        logger.logLevel = .critical
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 24, additionalHeaders: [.authorization: "Bearer \(secret)"])
        task = Task {
            do {
                let close = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    await mailbox.put(.opened)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in stream { try await outbound.write(.text(text)) }
                        }
                        group.addTask {
                            for try await message in inbound.messages(maxSize: 1 << 24) {
                                if case .text(let text) = message, let frame = try? AppWire.decode(AppWire.ServerFrame.self, from: Data(text.utf8)) {
                                    await mailbox.put(.frame(frame))
                                }
                            }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
                await mailbox.put(.closed(close?.closeCode, close?.reason))
            } catch {
                await mailbox.put(.failed("\(error)"))
            }
        }
    }

    deinit { commands.finish() }

    /// The next call Parlor makes.
    func nextCall(timeout: Duration = .seconds(15)) async throws -> AppWire.Call {
        let event = await mailbox.take(timeout: timeout) { event in
            if case .frame(.call) = event { return true }
            if case .frame = event { return false }
            return true
        }
        guard case .frame(.call(let call))? = event else { throw SocketError(description: "Expected a call, got \(String(describing: event))") }
        return call
    }

    /// The next frame of any kind.
    func nextFrame(timeout: Duration = .seconds(15)) async throws -> AppWire.ServerFrame {
        let event = await mailbox.take(timeout: timeout) { _ in true }
        guard case .frame(let frame)? = event else { throw SocketError(description: "Expected a frame, got \(String(describing: event))") }
        return frame
    }

    /// Waits for the connection to end: the close code and reason.
    func closed(timeout: Duration = .seconds(15)) async throws -> (code: WebSocketErrorCode?, reason: String?) {
        let event = await mailbox.take(timeout: timeout) { event in
            switch event {
            case .closed, .failed: true
            default: false
            }
        }
        switch event {
        case .closed(let code, let reason)?: return (code, reason)
        case .failed?: return (nil, nil)
        default: throw SocketError(description: "The connection did not end within \(timeout)")
        }
    }

    func send(_ frame: AppWire.AppFrame) { commands.yield(String(decoding: AppWire.encode(frame), as: UTF8.self)) }
    func sendRaw(_ text: String) { commands.yield(text) }

    /// Answers `call` as an app that keeps a little state and shows one text.
    func answer(_ call: AppWire.Call, text: String = "fake", effects: [AppWire.Effect] = []) {
        send(.result(AppWire.Result(id: call.id, state: .object(["n": .int(1)]), effects: effects, view: Self.text(text))))
    }

    /// A text view, as an app in any language writes it.
    static func text(_ text: String) -> ViewNode? {
        let json = #"{"type":"text","style":"body","text":"# + (String(data: (try? JSONEncoder().encode(text)) ?? Data(), encoding: .utf8) ?? "\"\"") + "}"
        return try? JSONDecoder().decode(ViewNode.self, from: Data(json.utf8))
    }

    func disconnect() async {
        commands.finish()
        task.cancel()
        _ = await task.value
    }
}

/// Events in arrival order, taken by predicate (as `Mailbox`, for any event type). Several tasks
/// may wait at once: each event goes to the longest-waiting task it matches, or stays for later.
actor EventBox<Event: Sendable> {
    private struct Waiter {
        let id: Int
        let predicate: @Sendable (Event) -> Bool
        let continuation: CheckedContinuation<Event?, Never>
    }

    private var buffer: [Event] = []
    private var waiters: [Waiter] = []
    private var nextWaiter = 0

    func put(_ event: Event) {
        if let index = waiters.firstIndex(where: { $0.predicate(event) }) {
            waiters.remove(at: index).continuation.resume(returning: event)
        } else {
            buffer.append(event)
        }
    }

    func take(timeout: Duration, where predicate: @escaping @Sendable (Event) -> Bool) async -> Event? {
        if let index = buffer.firstIndex(where: predicate) { return buffer.remove(at: index) }
        nextWaiter += 1
        let id = nextWaiter
        // A cancelled wait ends at once (a task answering calls stops with its test).
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
                Task {
                    try? await Task.sleep(for: timeout)
                    self.expire(id)
                }
            }
        } onCancel: {
            Task { await self.expire(id) }
        }
    }

    private func expire(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: nil)
    }
}
