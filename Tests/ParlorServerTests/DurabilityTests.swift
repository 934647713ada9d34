import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// The real `parlor serve`, killed with SIGKILL while clients send: what it acknowledged must be there
/// after a restart on the same data directory.
@Suite("Durability of the parlor server process")
struct DurabilityTests {
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

    @Test("kill -9 under load from several clients loses no acknowledged message; sequences stay gapless and ordered")
    func acknowledgedMessagesSurviveKill() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-durability-\(UUID().uuidString)", isDirectory: true)
        let data = folder.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await run(data: data, logs: folder, client: client)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func run(data: URL, logs: URL, client: HTTPClient) async throws {
        let acknowledged = try await ParlorProcess.running(dataDirectory: data, log: logs.appendingPathComponent("first.log")) { first in
            try await load(first, client: client)
        }
        try await ParlorProcess.running(dataDirectory: data, log: logs.appendingPathComponent("second.log")) { second in
            try await check(acknowledged, server: second, client: client)
        }
    }

    /// Three people write in two conversations from six senders until 300 messages are
    /// acknowledged, then the server is killed; returns what it acknowledged.
    private func load(_ first: ParlorProcess, client: HTTPClient) async throws -> Acknowledged {
        let firstPort = first.port
        var people: [Answer] = []
        for name in ["alice", "bob", "carol"] {
            let body: JSON = ["username": .string(name), "displayName": .string(name.capitalized), "password": .string("password-\(name)")]
            people.append(try await post("/api/auth/signup", body, port: firstPort, client: client))
        }
        let tokens = try people.map { try #require(Self.string($0.json["token"])) }
        let direct = try await post("/api/conversations", ["members": ["bob"]], token: tokens[0], port: firstPort, client: client)
        let group = try await post("/api/conversations", ["members": ["alice", "carol"]], token: tokens[1], port: firstPort, client: client)
        let conversations = try [direct, group].map { try #require(Self.string($0.json["id"])) }

        let ledger = Ledger()
        let traffic = Task {
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
                            guard let reply = try? await post("/api/conversations/\(conversation)/messages", body, token: token, port: firstPort, client: client)
                            else {
                                await ledger.recordInterruption()  // the server is gone
                                return
                            }
                            if reply.status == 201, let sequence = Self.integer(reply.json["sequence"]) {
                                await ledger.record(id, sequence, in: conversation)
                            }
                        }
                    }
                }
            }
        }
        while await ledger.count < 300 { try await Task.sleep(for: .milliseconds(10)) }
        await first.kill()
        #expect(first.process.terminationReason == .uncaughtSignal)
        await traffic.value
        #expect(await ledger.interrupted == 6, "every sender was still sending when the server was killed")
        return Acknowledged(conversations: conversations, tokens: tokens, messages: await ledger.acknowledged)
    }

    /// What the killed server acknowledged, and who can read it.
    struct Acknowledged {
        let conversations: [String]
        let tokens: [String]
        let messages: [String: [(id: String, sequence: Int64)]]
    }

    /// Every acknowledged message is on the restarted server, gapless, and sending continues.
    private func check(_ acknowledged: Acknowledged, server second: ParlorProcess, client: HTTPClient) async throws {
        let (conversations, tokens) = (acknowledged.conversations, acknowledged.tokens)
        let port = second.port
        for conversation in conversations {
            var stored: [(id: String, sequence: Int64)] = []
            while true {
                let after = stored.last?.sequence ?? 0
                let page = try await get("/api/conversations/\(conversation)/messages?after=\(after)&limit=500", token: tokens[1], port: port, client: client)
                let items = try #require(page as? [Any])
                if items.isEmpty { break }
                for item in items {
                    let message = try #require(item as? [String: Any])
                    stored.append((try #require(Self.string(message["id"])), try #require(Self.integer(message["sequence"]))))
                }
            }
            #expect(stored.map(\.sequence) == (0..<stored.count).map { Int64($0) + 1 }, "gapless and in order")
            let byID = Dictionary(stored.map { ($0.id, $0.sequence) }, uniquingKeysWith: { first, _ in first })
            #expect(byID.count == stored.count, "no id twice")
            let mine = acknowledged.messages[conversation] ?? []
            #expect(!mine.isEmpty)
            for (id, sequence) in mine {
                #expect(byID[id] == sequence, "acknowledged message \(id) #\(sequence) is \(byID[id].map { "#\($0)" } ?? "missing") after the restart")
            }
            let next = try await post("/api/conversations/\(conversation)/messages", ["id": .string(UUID().uuidString), "text": "after restart"], token: tokens[1], port: port, client: client)
            #expect(Self.integer(next.json["sequence"]) == Int64(stored.count) + 1, "the restarted server continues the sequence")
        }
    }

    // MARK: HTTP

    struct Answer {
        let status: UInt
        let json: [String: Any]
    }

    private func post(_ path: String, _ body: JSON, token: String? = nil, port: Int, client: HTTPClient) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(string: body.text))
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
        return Answer(status: response.status.code, json: json)
    }

    private func get(_ path: String, token: String, port: Int, client: HTTPClient) async throws -> Any {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 24)
        #expect(response.status == .ok)
        return try JSONSerialization.jsonObject(with: Data(buffer: bytes))
    }

    static func string(_ value: Any?) -> String? { value as? String }
    static func integer(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }
}
