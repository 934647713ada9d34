import Foundation
import Logging
import ParlorKit
@testable import ParlorServer
import Synchronization
import Testing

@Suite("Apps' failed fetches are logged for the operator")
struct AppFetchLogTests {
    /// Answers every request with `status`, or fails with `error`; remembers the addresses it was
    /// told to connect to.
    final class StubClient: AddressPinningFetchClient {
        let status: Int
        let error: MessagesError?
        let pinned = Mutex<[String]>([])
        init(status: Int = 200, error: MessagesError? = nil) {
            self.status = status
            self.error = error
        }
        func send(_ request: FetchRequest) async throws -> FetchResponse {
            if let error { throw error }
            return FetchResponse(status: status)
        }
        func send(_ request: FetchRequest, connectingTo address: String, for host: String) async throws -> FetchResponse {
            pinned.withLock { $0.append(address) }
            return try await send(request)
        }
    }

    static func manifest(_ hosts: [String]) -> AppManifest {
        AppManifest(id: "org.parlor.linkshare", name: "LinkShare", icon: .svg("<svg/>"), allowedHosts: hosts)
    }

    @Test("A host reached only through * must be on a public address, and the request goes to the address checked; a host the manifest names is reached as it is")
    func privateNetworkRefused() async throws {
        let lines = Lines()
        let client = StubClient()
        let anyHost = AppFetchClient(client: client, manifest: Self.manifest(["*"]), allowPrivateHosts: false, logger: lines.logger)
        for address in ["http://localhost:8080/feed", "http://10.0.0.7/feed", "http://169.254.169.254/latest/meta-data", "http://[::1]/feed"] {
            let error = await #expect(throws: MessagesError.self, "\(address)") {
                try await anyHost.send(FetchRequest(url: try #require(URL(string: address))))
            }
            #expect(error?.code == .hostNotAllowed)
        }
        #expect(try await anyHost.send(FetchRequest(url: try #require(URL(string: "http://93.184.215.14/feed")))).status == 200)
        #expect(client.pinned.withLock { $0 } == ["93.184.215.14"], "connected to the address that was checked")

        let named = AppFetchClient(client: client, manifest: Self.manifest(["*", "localhost"]), allowPrivateHosts: false, logger: lines.logger)
        #expect(try await named.send(FetchRequest(url: try #require(URL(string: "http://localhost:8080/feed")))).status == 200)
        let allowed = AppFetchClient(client: client, manifest: Self.manifest(["*"]), allowPrivateHosts: true, logger: lines.logger)
        #expect(try await allowed.send(FetchRequest(url: try #require(URL(string: "http://10.0.0.7/feed")))).status == 200)
        #expect(client.pinned.withLock { $0 }.count == 1, "named hosts and a private-network server take the plain path")
    }

    /// Keeps every log line, with its level and metadata.
    final class Lines: Sendable {
        let entries = Mutex<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])
        var logger: Logger {
            Logger(label: "AppFetchLogTests") { _ in Handler(lines: self) }
        }
        struct Handler: LogHandler {
            let lines: Lines
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                lines.entries.withLock { $0.append((event.level, "\(event.message)", event.metadata ?? [:])) }
            }
        }
    }

    let request = FetchRequest(url: URL(string: "https://user:secret@feeds.example.org/r/swift.json?token=abc")!)

    @Test("A network failure and a non-2xx answer are logged at warning with the app, the host and the reason; nothing else of the URL")
    func logsFailures() async throws {
        let lines = Lines()
        let manifest = Self.manifest(["feeds.example.org"])
        let failing = AppFetchClient(
            client: StubClient(error: MessagesError(.networkFailure, "feeds.example.org did not answer in time.")),
            manifest: manifest, allowPrivateHosts: false, logger: lines.logger)
        await #expect(throws: MessagesError.self) { try await failing.send(request) }
        let refused = AppFetchClient(client: StubClient(status: 503), manifest: manifest, allowPrivateHosts: false, logger: lines.logger)
        #expect(try await refused.send(request).status == 503)
        let fine = AppFetchClient(client: StubClient(status: 200), manifest: manifest, allowPrivateHosts: false, logger: lines.logger)
        #expect(try await fine.send(request).status == 200)

        let entries = lines.entries.withLock { $0 }
        #expect(entries.map(\.level) == [.warning, .warning])
        #expect(entries.map { $0.metadata["reason"]?.description } == ["feeds.example.org did not answer in time.", "HTTP 503"])
        #expect(entries.allSatisfy { $0.metadata["app"]?.description == "org.parlor.linkshare" })
        #expect(entries.allSatisfy { $0.metadata["host"]?.description == "feeds.example.org" })
        let logged = entries.map { "\($0.message) \($0.metadata)" }.joined()
        #expect(!logged.contains("secret") && !logged.contains("token") && !logged.contains("/r/swift"))
    }
}
