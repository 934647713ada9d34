import Foundation
import Hummingbird
import Synchronization

/// What the fixture server answers to every request.
struct FeedAnswer: Sendable {
    var status = 200
    var body: String
    /// How long the server waits before answering.
    var delay: Duration = .zero

    static func listing(_ json: String) -> FeedAnswer { FeedAnswer(body: json) }
}

/// A real HTTP server on 127.0.0.1, on a free port, answering every GET with the current
/// `FeedAnswer`; tests change the answer between taps to make the feed fail or recover.
final class FeedServer: Sendable {
    private let current: Mutex<FeedAnswer>
    private let paths = Mutex<[String]>([])
    private let boundPort = Mutex<Int>(0)

    private init(answer: FeedAnswer) {
        current = Mutex(answer)
    }

    /// The port the server listens on.
    var port: Int { boundPort.withLock { $0 } }

    /// The URL of `path` on this server.
    func url(_ path: String = "/r/programming.json") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// From now on, answers with `answer`.
    func answer(with answer: FeedAnswer) { current.withLock { $0 = answer } }

    /// The paths requested so far, oldest first.
    var requestedPaths: [String] { paths.withLock { $0 } }

    private func respond(to path: String) -> FeedAnswer {
        paths.withLock { $0.append(path) }
        return current.withLock { $0 }
    }

    /// Runs `body` while a server answering `answer` listens; stops the server afterwards, so a
    /// fetch made after `body` returns finds the port closed.
    static func run<T: Sendable>(answering answer: FeedAnswer, _ body: (FeedServer) async throws -> T) async throws -> T {
        let server = FeedServer(answer: answer)
        let router = Router()
        router.get("**") { request, _ -> Response in
            let answer = server.respond(to: request.uri.path)
            if answer.delay > .zero { try await Task.sleep(for: answer.delay) }
            return Response(
                status: .init(code: answer.status), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        let (started, startedContinuation) = AsyncStream.makeStream(of: Int.self)
        var app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                startedContinuation.yield(channel.localAddress?.port ?? 0)
                startedContinuation.finish()
            })
        // The server is stopped by cancellation, which Hummingbird logs as errors while URLSession
        // still holds keep-alive connections; those lines are noise here.
        app.logger.logLevel = .critical
        let running = Task { try await app.runService(gracefulShutdownSignals: []) }
        var ports = started.makeAsyncIterator()
        guard let port = await ports.next(), port > 0 else {
            running.cancel()
            throw ServerDidNotStart(result: await running.result)
        }
        server.boundPort.withLock { $0 = port }
        let result: Result<T, any Error>
        do {
            result = .success(try await body(server))
        } catch {
            result = .failure(error)
        }
        running.cancel()
        // Wait until the port is closed; the server ends by cancellation, which is not a failure here.
        _ = await running.result
        return try result.get()
    }
}

/// The fixture server could not listen on 127.0.0.1.
struct ServerDidNotStart: Error, CustomStringConvertible {
    let result: Result<Void, any Error>
    var description: String { "The fixture server did not start: \(result)" }
}
