import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// Three people writing in two conversations from six senders against a real `parlor serve`,
/// with a ledger of what the server acknowledged: for tests that stop, kill or copy the server
/// mid-load and then look for every acknowledged message.
final class Traffic: Sendable {
    /// What the clients got a 2xx for.
    actor Ledger {
        var acknowledged: [String: [(id: String, sequence: Int64)]] = [:]
        var count = 0
        /// Senders whose request failed because the server went away mid-load.
        var interrupted = 0
        func record(_ id: String, _ sequence: Int64, in conversation: String) {
            acknowledged[conversation, default: []].append((id, sequence))
            count += 1
        }
        func recordInterruption() { interrupted += 1 }
    }

    let conversations: [String]
    let tokens: [String]
    let ledger = Ledger()
    private let senders: Task<Void, Never>

    /// Signs up alice, bob and carol, makes a direct and a group conversation, and starts sending.
    init(port: Int, client: HTTPClient) async throws {
        var people: [HTTPAnswer] = []
        for name in ["alice", "bob", "carol"] {
            let body: JSON = ["username": .string(name), "displayName": .string(name.capitalized), "password": .string("password-\(name)")]
            people.append(try await HTTPAnswer.post("/api/auth/signup", body, port: port, client: client))
        }
        let tokens = try people.map { try #require($0.json["token"] as? String) }
        let direct = try await HTTPAnswer.post("/api/conversations", ["members": ["bob"]], token: tokens[0], port: port, client: client)
        let group = try await HTTPAnswer.post("/api/conversations", ["members": ["alice", "carol"]], token: tokens[1], port: port, client: client)
        let conversations = try [direct, group].map { try #require($0.json["id"] as? String) }
        self.tokens = tokens
        self.conversations = conversations
        let ledger = ledger
        senders = Task {
            await withTaskGroup(of: Void.self) { senders in
                for sender in 0..<6 {
                    senders.addTask {
                        var round = 0
                        while !Task.isCancelled {
                            round += 1
                            let conversation = conversations[(sender + round) % 2]
                            let token = conversation == conversations[0] ? tokens[sender % 2] : tokens[sender % 3]
                            let id = UUID().uuidString
                            let body: JSON = ["id": .string(id), "text": .string("sender \(sender) round \(round)")]
                            guard let reply = try? await HTTPAnswer.post(
                                "/api/conversations/\(conversation)/messages", body, token: token, port: port, client: client)
                            else {
                                await ledger.recordInterruption()  // the server is gone
                                return
                            }
                            if reply.status == 201, let sequence = (reply.json["sequence"] as? NSNumber)?.int64Value {
                                await ledger.record(id, sequence, in: conversation)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Waits until the server has acknowledged at least `count` messages in all.
    func waitForAcknowledged(_ count: Int) async throws {
        while await ledger.count < count { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// Stops sending (when the server is gone, the senders have stopped already).
    func stop() async {
        senders.cancel()
        await senders.value
    }

    /// Every message of `acknowledged` is on the server at `port` with its sequence number, the
    /// conversations are gapless, and a new message continues the sequence.
    func check(_ acknowledged: [String: [(id: String, sequence: Int64)]], port: Int, client: HTTPClient) async throws {
        for conversation in conversations {
            var stored: [(id: String, sequence: Int64)] = []
            while true {
                let after = stored.last?.sequence ?? 0
                let page = try await HTTPAnswer.get(
                    "/api/conversations/\(conversation)/messages?after=\(after)&limit=500", token: tokens[1], port: port, client: client)
                let items = try #require(page as? [Any])
                if items.isEmpty { break }
                for item in items {
                    let message = try #require(item as? [String: Any])
                    stored.append((try #require(message["id"] as? String), try #require((message["sequence"] as? NSNumber)?.int64Value)))
                }
            }
            #expect(stored.map(\.sequence) == (0..<stored.count).map { Int64($0) + 1 }, "gapless and in order")
            let byID = Dictionary(stored.map { ($0.id, $0.sequence) }, uniquingKeysWith: { first, _ in first })
            #expect(byID.count == stored.count, "no id twice")
            let mine = acknowledged[conversation] ?? []
            #expect(!mine.isEmpty)
            for (id, sequence) in mine {
                #expect(byID[id] == sequence, "acknowledged message \(id) #\(sequence) is \(byID[id].map { "#\($0)" } ?? "missing")")
            }
            let next = try await HTTPAnswer.post(
                "/api/conversations/\(conversation)/messages", ["id": .string(UUID().uuidString), "text": "after restart"],
                token: tokens[1], port: port, client: client)
            #expect((next.json["sequence"] as? NSNumber)?.int64Value == Int64(stored.count) + 1, "the server continues the sequence")
        }
    }
}

/// Runs `body` with a new temporary folder named `prefix-UUID` and an HTTP client, for tests of
/// the real executable; removes the folder and shuts the client down afterwards, whether `body`
/// returned or threw.
func withScratch<T>(_ prefix: String, _ body: (URL, HTTPClient) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    do {
        let result = try await body(folder, client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// A status and JSON object from a real server, over AsyncHTTPClient.
struct HTTPAnswer {
    let status: UInt
    let json: [String: Any]

    static func post(_ path: String, _ body: JSON, token: String? = nil, port: Int, client: HTTPClient) async throws -> HTTPAnswer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(string: body.text))
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
        return HTTPAnswer(status: response.status.code, json: json)
    }

    /// The JSON at `path` (any shape); expects 200.
    static func get(_ path: String, token: String, port: Int, client: HTTPClient) async throws -> Any {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 24)
        #expect(response.status == .ok)
        return try JSONSerialization.jsonObject(with: Data(buffer: bytes))
    }
}
