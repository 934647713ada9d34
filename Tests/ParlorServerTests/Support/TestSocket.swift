import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// What the test socket saw, in order.
enum SocketEvent: Sendable {
    case opened
    case frame(Frame)
    /// A text the server sent that is not a frame of the protocol.
    case undecodable(String)
    /// The connection ended; the server's close code when it sent one.
    case closed(WebSocketErrorCode?)
    /// The connection could not be made (the upgrade was refused).
    case failed(String)

    var frame: Frame? {
        if case .frame(let frame) = self { return frame }
        return nil
    }
}

/// Events in arrival order. A test takes the first event that matches what it waits for (within
/// a timeout); the events it skips stay for later, oldest first.
/// A socket's events, taken by predicate.
typealias Mailbox = EventBox<SocketEvent>

struct SocketError: Error, CustomStringConvertible {
    let description: String
}

/// A WebSocket client for tests: send frames, then read the server's frames in order.
///
/// ```swift
/// let socket = try await TestSocket.connect(port: port, as: alice)
/// try await socket.send(["type": "hello", "since": [:]])
/// let ready = try await socket.next("ready")
/// ```
final class TestSocket: Sendable {
    private enum Command: Sendable {
        case text(String)
        case frame(WebSocketFrame)
        case close
    }

    private let mailbox = Mailbox()
    private let commands: AsyncStream<Command>.Continuation
    private let task: Task<Void, Never>

    private init(url: String, headers: HTTPFields) {
        let (stream, commands) = AsyncStream.makeStream(of: Command.self)
        self.commands = commands
        let mailbox = self.mailbox
        var logger = Logger(label: "test-socket")
        logger.logLevel = .critical
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 24, additionalHeaders: headers)
        task = Task {
            do {
                let close = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    await mailbox.put(.opened)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await command in stream {
                                switch command {
                                case .text(let text): try await outbound.write(.text(text))
                                case .frame(let frame): try await outbound.write(.custom(frame))
                                case .close:
                                    try await outbound.close(.normalClosure, reason: nil)
                                    return
                                }
                            }
                        }
                        group.addTask {
                            for try await message in inbound.messages(maxSize: 1 << 24) {
                                if case .text(let text) = message {
                                    // Every frame must read back as the server's own type.
                                    if let frame = Self.serverFrame(text) {
                                        await mailbox.put(.frame(frame))
                                    } else {
                                        await mailbox.put(.undecodable(text))
                                    }
                                }
                            }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
                await mailbox.put(.closed(close?.closeCode))
            } catch {
                await mailbox.put(.failed("\(error)"))
            }
        }
    }

    deinit {
        commands.finish()
    }

    /// A server text decoded as the server's own `Wire.ServerFrame`.
    static func serverFrame(_ text: String) -> Wire.ServerFrame? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Wire.ServerFrame.self, from: Data(text.utf8))
    }

    /// Connects to `/ws` as `person` (bearer token) or with the given headers.
    /// - Throws: when the server refuses the upgrade.
    static func connect(port: Int, as person: Person?, headers: HTTPFields = [:]) async throws -> TestSocket {
        var headers = headers
        if let person { headers[.authorization] = "Bearer \(person.token)" }
        let socket = TestSocket(url: "ws://localhost:\(port)/ws", headers: headers)
        switch await socket.mailbox.take(timeout: .seconds(15), where: { _ in true }) {
        case .opened?: return socket
        case .failed(let reason)?: throw SocketError(description: "The upgrade failed: \(reason)")
        case let other: throw SocketError(description: "Expected the connection to open, got \(String(describing: other))")
        }
    }

    /// Connects, reads `welcome`, says `hello` with `since`, and reads up to `ready`.
    static func session(port: Int, as person: Person, since: [ConversationID: Int64] = [:], language: String? = nil) async throws -> TestSocket {
        let socket = try await connect(port: port, as: person)
        let welcome = try await socket.next()
        guard welcome.type == "welcome" else { throw SocketError(description: "The first frame is \(welcome.type), not welcome") }
        try await socket.hello(since: since, language: language)
        _ = try await socket.next("ready")
        return socket
    }

    func hello(since: [ConversationID: Int64], language: String? = nil) async throws {
        var frame: [String: JSON] = ["type": "hello", "since": .object(Dictionary(uniqueKeysWithValues: since.map { ($0.key.description, .int($0.value)) }))]
        if let language { frame["language"] = .string(language) }
        try await send(.object(frame))
    }

    func send(_ frame: JSON) async throws { commands.yield(.text(frame.text)) }
    func sendRaw(_ text: String) async throws { commands.yield(.text(text)) }
    func sendFrame(_ frame: WebSocketFrame) async throws { commands.yield(.frame(frame)) }

    /// Starts the closing handshake.
    func close() { commands.yield(.close) }

    /// The oldest frame not yet taken.
    /// - Throws: when nothing comes within `timeout`, the connection ends, or a text is not a frame.
    func next(timeout: Duration = .seconds(15)) async throws -> Frame {
        try await next(timeout: timeout) { _ in true }
    }

    /// The oldest frame of `type` not yet taken; frames of other types stay for later.
    func next(_ type: String, timeout: Duration = .seconds(15)) async throws -> Frame {
        try await next(timeout: timeout) { $0.type == type }
    }

    /// The oldest frame of `type` that `matches`; other frames stay for later.
    func next(_ type: String, timeout: Duration = .seconds(15), where matches: @escaping @Sendable (Frame) -> Bool) async throws -> Frame {
        try await next(timeout: timeout) { $0.type == type && matches($0) }
    }

    /// The answer to the request `requestId`: its `ack`, or its `error`.
    func reply(to requestId: String, timeout: Duration = .seconds(15)) async throws -> Frame {
        try await next(timeout: timeout) { $0.requestId == requestId && ($0.type == "ack" || $0.type == "error") }
    }

    /// The oldest frame that `matches`; other frames stay for later.
    func next(timeout: Duration, where matches: @escaping @Sendable (Frame) -> Bool) async throws -> Frame {
        let event = await mailbox.take(timeout: timeout) { event in event.frame.map(matches) ?? true }
        switch event {
        case .frame(let frame)?: return frame
        case .undecodable(let text)?: throw SocketError(description: "A server text is not a protocol frame: \(text.prefix(300))")
        case nil: throw SocketError(description: "No matching frame within \(timeout)")
        case let other?: throw SocketError(description: "Expected a frame, got \(other)")
        }
    }

    /// The next `count` message frames.
    func messages(_ count: Int, timeout: Duration = .seconds(15)) async throws -> [Wire.Message] {
        var messages: [Wire.Message] = []
        while messages.count < count {
            let frame = try await next("message", timeout: timeout)
            if let message = frame.message { messages.append(message) }
        }
        return messages
    }

    /// Every frame the server queued for this connection before it answers a ping sent now, in
    /// order: once another connection's request is answered, what the server sent here because of
    /// it is all read, however slow the machine (a connection's frames keep their order).
    func framesQueued(timeout: Duration = .seconds(15)) async throws -> [Frame] {
        let marker = "queued-\(UUID().uuidString)"
        try await send("ping", ["requestId": .string(marker)])
        var frames: [Frame] = []
        while true {
            let frame = try await next(timeout: timeout)
            if frame.type == "pong", frame.requestId == marker { return frames }
            frames.append(frame)
        }
    }

    /// Every frame not yet taken, including those arriving within `duration`.
    func frames(within duration: Duration) async throws -> [Frame] {
        let deadline = ContinuousClock.now + duration
        var frames: [Frame] = []
        while let event = await mailbox.take(timeout: deadline - ContinuousClock.now, where: { _ in true }) {
            guard let frame = event.frame else { throw SocketError(description: "Expected frames, got \(event)") }
            frames.append(frame)
        }
        return frames
    }

    /// Waits for the connection to end (frames stay); the server's close code.
    func closed(timeout: Duration = .seconds(15)) async throws -> WebSocketErrorCode? {
        let event = await mailbox.take(timeout: timeout) { event in
            switch event {
            case .closed, .failed: true
            default: false
            }
        }
        switch event {
        case .closed(let code)?: return code
        case .failed(let reason)?: throw SocketError(description: "The connection failed: \(reason)")
        default: throw SocketError(description: "The connection is still open after \(timeout)")
        }
    }

    /// Closes and waits for the connection to end.
    func disconnect() async {
        close()
        _ = try? await closed(timeout: .seconds(5))
        task.cancel()
    }
}
