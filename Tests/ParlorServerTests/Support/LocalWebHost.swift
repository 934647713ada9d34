import Foundation
import Hummingbird

/// A web server on 127.0.0.1 standing for a remote host (an image host, a web page), with the
/// routes a test gives it; it runs for the duration of `body`, which gets its port.
enum LocalWebHost {
    static func run<T: Sendable>(_ routes: (Router<BasicRequestContext>) -> Void, _ body: (Int) async throws -> T) async throws -> T {
        let router = Router()
        routes(router)
        let (started, continuation) = AsyncStream.makeStream(of: Int.self)
        var app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            })
        app.logger.logLevel = .critical
        let running = Task { try await app.runService(gracefulShutdownSignals: []) }
        var ports = started.makeAsyncIterator()
        guard let port = await ports.next(), port > 0 else {
            running.cancel()
            throw SocketError(description: "The local web host did not start")
        }
        let result: Result<T, any Error>
        do { result = .success(try await body(port)) } catch { result = .failure(error) }
        running.cancel()
        _ = await running.result
        return try result.get()
    }
}
