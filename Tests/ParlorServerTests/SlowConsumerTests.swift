import Foundation
import NIOWebSocket
import Testing

@Suite("Slow and silent clients")
struct SlowConsumerTests {
    @Test("A connection that stops reading is dropped without holding up other connections; it reconnects and replays everything")
    func stalledReaderIsDropped() async throws {
        try await TestServer(configure: {
            $0.sendQueueLimit = 16
            $0.adminToken(OperationsTests.token)
        }).run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol])
            let stalled = try await RawWebSocket.open(port: port, token: carol.token)
            #expect(stalled.sendText(#"{"type":"hello","since":{"\#(group.id)":0}}"#))
            let reader = try await TestSocket.session(port: port, as: bob, since: [group.id: 0])

            // Enough to fill the kernel's send buffer for the stalled socket (up to tcp_wmem's maximum) twice over.
            let text = String(repeating: "😀", count: 9_990)
            let count = 2 * Self.maximumSendBuffer() / text.utf8.count + 20
            let sending = Task {
                for index in 1...count { try await api.send("\(index) \(text)", in: group.id, as: alice) }
            }
            let delivered = try await reader.messages(count, timeout: .seconds(30))
            #expect(delivered.map(\.sequence) == (1...count).map(Int64.init), "the reading connection gets everything, in order")
            try await sending.value

            var dropped = false
            let deadline = ContinuousClock.now + .seconds(15)
            while !dropped, ContinuousClock.now < deadline {
                dropped = stalled.isDropped()
                if !dropped { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(dropped, "the server still holds a connection that has not read for seconds")
            let metrics = try await OperationsTests.scrape(api)
            #expect(OperationsTests.value("parlor_slow_consumer_disconnects_total", in: metrics) == 1)

            let back = try await TestSocket.connect(port: port, as: carol)
            #expect(try await back.next().type == "welcome")
            try await back.hello(since: [group.id: 0])
            let replayed = try await back.messages(count, timeout: .seconds(30))
            #expect(replayed.map(\.sequence) == (1...count).map(Int64.init))
            await back.disconnect()
            await reader.disconnect()
        }
    }

    /// The most a socket's send buffer grows to (Linux: the last number of tcp_wmem).
    static func maximumSendBuffer() -> Int {
        let setting = (try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8)) ?? ""
        return setting.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) } ?? 4 * 1024 * 1024
    }

    @Test("A connection that never says hello cannot pile up messages: past the queue limit it is closed with 1013, and a reconnect replays")
    func silentClientIsClosed() async throws {
        try await TestServer(configure: { $0.sendQueueLimit = 8 }).run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let silent = try await TestSocket.connect(port: port, as: bob)
            #expect(try await silent.next().type == "welcome")
            for index in 1...20 { try await api.send("m\(index)", in: direct.id, as: alice) }
            let code = try await silent.closed(timeout: .seconds(10))
            #expect(code == .unknown(1013))

            let again = try await TestSocket.connect(port: port, as: bob)
            _ = try await again.next()
            try await again.hello(since: [direct.id: 0])
            var sequences: [Int64] = []
            while true {
                let frame = try await again.next()
                if frame.type == "ready" { break }
                if let message = frame.message { sequences.append(message.sequence) }
            }
            #expect(sequences == Array(1...20))
            await again.disconnect()
        }
    }
}
