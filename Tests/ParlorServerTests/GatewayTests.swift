import Foundation
import HTTPTypes
import NIOCore
import NIOWebSocket
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

@Suite("The WebSocket protocol: connecting, frames, errors")
struct GatewayTests {
    @Test("The first frame is welcome with protocol version 1 and the user; ping is answered with pong and its requestId")
    func welcomeAndPing() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let socket = try await TestSocket.connect(port: port, as: alice)
            let welcome = try await socket.next()
            #expect(welcome.type == "welcome")
            #expect(welcome.protocolVersion == 1)
            #expect(welcome.user == alice.user)
            try await socket.send(["type": "ping", "requestId": "p1"])
            let pong = try await socket.next()
            #expect(pong.type == "pong")
            #expect(pong.requestId == "p1")
            try await socket.hello(since: [:])
            #expect(try await socket.next().type == "ready")
            await socket.disconnect()
        }
    }

    @Test("The server pings: a client that answers stays connected, one that stops answering is closed with 1001 (Ping timeout)")
    func pingTimeout() async throws {
        try await TestServer(configure: { $0.webSocketPingInterval = .seconds(1) }).run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let answering = try await TestSocket.connect(port: port, as: alice)
            #expect(try await answering.next().type == "welcome")
            // The hand-made client reads frames but never answers a ping.
            let silent = try await RawWebSocket.open(port: port, token: alice.token)
            var opcodes: [UInt8] = []
            var close: (code: Int, reason: String)?
            while close == nil, opcodes.count < 10 {
                let frame = try await silent.firstFrame()
                opcodes.append(frame.opcode)
                if frame.opcode == 8, frame.payload.count >= 2 {
                    close = (Int(frame.payload[0]) << 8 | Int(frame.payload[1]), String(decoding: frame.payload.dropFirst(2), as: UTF8.self))
                }
            }
            #expect(opcodes.prefix(2) == [1, 9], "welcome, then a ping")
            #expect(close?.code == 1001)
            #expect(close?.reason == "Ping timeout")
            // Several intervals later, the client that answers pings is still served.
            try await answering.send(["type": "ping", "requestId": "still here"])
            #expect(try await answering.next("pong").requestId == "still here")
            await answering.disconnect()
        }
    }

    @Test("A server that shuts down closes its open tabs with 1001 (going away), so that they reconnect to the next one")
    func shutdownClosesTabs() async throws {
        let socket = try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            return try await TestSocket.session(port: port, as: alice)
        }
        #expect(try await socket.closed() == .goingAway)
    }

    @Test("The upgrade needs a signed-in user (bearer or cookie) and, from a browser, the page's own origin")
    func upgradeRules() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let cases: [(KeyValuePairs<String, String>, Int, String)] = [
                ([:], 400, "nobody signed in"),
                (["Authorization": "Bearer forged"], 400, "an unknown token"),
                (["Authorization": "Bearer \(alice.token)", "Origin": "http://evil.example"], 400, "another site's page"),
                (["Authorization": "Bearer \(alice.token)", "Origin": "http://localhost:\(port + 1)"], 400, "another port"),
                (["Cookie": "parlor_session=\(alice.token)", "Origin": "http://localhost:\(port)"], 101, "the page's own origin with the cookie"),
                (["Authorization": "Bearer \(alice.token)"], 101, "a client without Origin"),
                (["Authorization": "Bearer \(alice.token)", "Origin": "ws://localhost"], 101, "a non-browser client naming its ws URL"),
            ]
            for (headers, status, what) in cases {
                #expect(try await RawWebSocket.open(port: port, headers: headers).status == status, "\(what)")
            }
            #expect(try await api.get("/ws", as: alice).status == .ok, "a plain GET without upgrade headers does nothing")
            #expect(try await api.get("/ws").status == .unauthorized)
        }
    }

    @Test("Malformed JSON, a binary frame and an unknown type get error frames, and the connection stays usable")
    func badFramesKeepTheConnection() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let socket = try await TestSocket.session(port: port, as: alice)
            try await socket.sendRaw("{\"type\": \"ping\"")
            let malformed = try await socket.next()
            #expect(malformed.type == "error")
            #expect(malformed.error?.code == "malformedFrame")
            try await socket.sendFrame(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(string: "{\"type\":\"ping\"}")))
            #expect(try await socket.next().error?.code == "malformedFrame")
            try await socket.send(["type": "dance", "requestId": "r7"])
            let unknown = try await socket.next()
            #expect(unknown.error?.code == "malformedFrame")
            #expect(unknown.error?.message.contains("dance") == true, "the message names the unknown type")
            #expect(unknown.requestId == "r7")
            try await socket.send(["type": "sendText", "requestId": "r8", "conversation": "\(UUID().uuidString)", "id": "\(UUID().uuidString)"])
            let missing = try await socket.next()
            #expect(missing.error?.code == "invalidValue", "a frame without a field its type needs")
            #expect(missing.requestId == "r8")
            #expect(missing.error?.message == "This frame needs 'text'.")
            try await socket.send(["type": "read", "requestId": "r9", "conversation": "\(UUID().uuidString)", "sequence": "seven"])
            let mistyped = try await socket.next()
            #expect(mistyped.error?.code == "malformedFrame", "a field of the wrong type")
            #expect(mistyped.requestId == "r9", "the envelope could be read, so the answer names the request")
            try await socket.send(["type": "openHome", "requestId": "r10", "app": nil])
            #expect(try await socket.next().error?.message == "This frame needs 'app'.", "a null field is a missing one")
            try await socket.send(["type": "ping", "requestId": "after"])
            #expect(try await socket.next().requestId == "after")
            await socket.disconnect()
        }
    }

    @Test("A message over 64 KiB closes the connection with 1009 and the limit, whole or as soon as its fragments pass it; fragments under the limit are joined")
    func oversizedFrames() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let padding = String(repeating: "x", count: 70 * 1024)

            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let text = String(repeating: "y", count: 9_000)
            let frame = JSON.object(["type": "sendText", "requestId": "joined", "conversation": .string(direct.id), "id": .string(UUID().uuidString), "text": .string(text)])
            try await sendInFragments(Array(frame.text.utf8), of: 4_000, on: socket)
            let ack = try await socket.next("ack")
            #expect(ack.requestId == "joined")
            #expect(ack.message?.text == text)
            try await socket.sendRaw(#"{"type":"ping","requestId":"big","pad":"\#(padding)"}"#)
            #expect(try await socket.closed() == .messageTooLarge, "one message over the limit")

            // In fragments: closed once they pass the limit, before the message ends.
            let fragmented = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bytes = Array(#"{"type":"ping","requestId":"big2","pad":"\#(padding)"}"#.utf8)
            try await fragmented.sendFrame(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(bytes: bytes.prefix(40_000))))
            try await fragmented.sendFrame(WebSocketFrame(fin: false, opcode: .continuation, data: ByteBuffer(bytes: bytes.dropFirst(40_000).prefix(40_000))))
            #expect(try await fragmented.closed() == .messageTooLarge, "fragments passing the limit")

            let single = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            try await single.sendRaw(String(repeating: " ", count: 2 * 1024 * 1024))
            #expect(try await single.closed() == .messageTooLarge, "a single frame over 1 MiB ends the connection")
        }
    }

    private func sendInFragments(_ bytes: [UInt8], of size: Int, on socket: TestSocket) async throws {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            let opcode: WebSocketOpcode = offset == 0 ? .text : .continuation
            try await socket.sendFrame(WebSocketFrame(fin: end == bytes.count, opcode: opcode, data: ByteBuffer(bytes: bytes[offset..<end])))
            offset = end
        }
    }

    @Test("sendText is acknowledged with its requestId; every connection of every member gets the message once, retries included")
    func sendAndFanOut() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol])
            let since = [group.id: Int64(0)]
            let alicePhone = try await TestSocket.session(port: port, as: alice, since: since)
            let aliceLaptop = try await TestSocket.session(port: port, as: alice, since: since)
            let bobTab = try await TestSocket.session(port: port, as: bob, since: since)
            let bobOtherTab = try await TestSocket.session(port: port, as: bob, since: since)
            let id = MessageID()
            let send: JSON = ["type": "sendText", "requestId": "s1", "conversation": .string(group.id), "id": .string(id), "text": "Hello all"]
            try await alicePhone.send(send)
            let ack = try await alicePhone.next("ack")
            #expect(ack.requestId == "s1")
            #expect(ack.message?.id == id)
            #expect(ack.message?.sequence == 1)
            for socket in [alicePhone, aliceLaptop, bobTab, bobOtherTab] {
                let messages = try await socket.messages(1)
                #expect(messages.map(\.id) == [id])
                #expect(messages.first?.senderName == "Alice")
            }
            try await alicePhone.send(send)
            #expect(try await alicePhone.next("ack").message?.sequence == 1, "a retry is acknowledged with the original")
            try await api.send("second", in: group.id, as: carol)
            for socket in [alicePhone, aliceLaptop, bobTab, bobOtherTab] {
                #expect(try await socket.messages(1).map(\.text) == ["second"], "the retry is not delivered again")
                #expect(try await socket.frames(within: .milliseconds(200)).filter { $0.type == "message" }.isEmpty)
            }
            for socket in [alicePhone, aliceLaptop, bobTab, bobOtherTab] { await socket.disconnect() }
        }
    }

    @Test("hello with since replays exactly the missed messages in order, then ready, then live ones: no gap, no duplicate")
    func replayAfterReconnect() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let first = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            for index in 1...3 { try await api.send("before \(index)", in: direct.id, as: alice) }
            #expect(try await first.messages(3).map(\.sequence) == [1, 2, 3])
            await first.disconnect()

            for index in 4...8 { try await api.send("while away \(index)", in: direct.id, as: alice) }
            let second = try await TestSocket.connect(port: port, as: bob)
            #expect(try await second.next().type == "welcome")
            try await second.hello(since: [direct.id: 3])
            var replayed: [Wire.Message] = []
            while true {
                let frame = try await second.next()
                if frame.type == "ready" { break }
                #expect(frame.type == "message", "only messages come before ready, got \(frame.type)")
                if let message = frame.message { replayed.append(message) }
            }
            #expect(replayed.map(\.sequence) == [4, 5, 6, 7, 8])
            #expect(replayed.map(\.text) == (4...8).map { "while away \($0)" })
            try await api.send("live", in: direct.id, as: alice)
            let live = try await second.messages(1)
            #expect(live.map(\.sequence) == [9])
            #expect(try await second.frames(within: .milliseconds(300)).filter { $0.type == "message" }.isEmpty)
            await second.disconnect()
        }
    }

    @Test("Messages committed while a client replays arrive exactly once and in order")
    func replayDuringConcurrentSends() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            for index in 1...20 { try await api.send("early \(index)", in: direct.id, as: alice) }
            let socket = try await TestSocket.connect(port: port, as: bob)
            #expect(try await socket.next().type == "welcome")
            let sending = Task {
                for index in 21...60 { try await api.send("during \(index)", in: direct.id, as: alice) }
            }
            try await socket.hello(since: [direct.id: 5])
            try await sending.value
            var sequences: [Int64] = []
            while sequences.last != 60 {
                let frame = try await socket.next()
                if let message = frame.message, frame.type == "message" { sequences.append(message.sequence) }
            }
            #expect(sequences == Array(6...60))
            #expect(try await socket.frames(within: .milliseconds(300)).filter { $0.type == "message" }.isEmpty)
            await socket.disconnect()
        }
    }

    @Test("A client more than 1000 messages behind in a conversation gets resync instead of a replay, then live messages")
    func resyncWhenFarBehind() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let quiet = try await api.conversation(of: alice, with: [bob], title: "Quiet")
            for index in 1...1001 { try await api.send("m\(index)", in: direct.id, as: alice) }
            try await api.send("q1", in: quiet.id, as: alice)
            let socket = try await TestSocket.connect(port: port, as: bob)
            _ = try await socket.next()
            try await socket.hello(since: [direct.id: 0, quiet.id: 0])
            var replayed: [Frame] = []
            while true {
                let frame = try await socket.next()
                if frame.type == "ready" { break }
                replayed.append(frame)
            }
            #expect(replayed.filter { $0.type == "resync" }.map(\.conversation) == [direct.id])
            #expect(replayed.compactMap(\.message).map(\.text) == ["q1"], "other conversations replay as usual")
            try await api.send("live", in: direct.id, as: alice)
            #expect(try await socket.messages(1).map(\.sequence) == [1002])
            await socket.disconnect()
        }
    }

    @Test("Conversations not named in hello are not replayed, but their new messages are delivered live")
    func helloWithoutConversation() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            try await api.send("old", in: direct.id, as: alice)
            let socket = try await TestSocket.session(port: port, as: bob)
            try await api.send("new", in: direct.id, as: alice)
            #expect(try await socket.messages(1).map(\.text) == ["new"])
            await socket.disconnect()
        }
    }
}
