import Foundation
import NIOCore
import NIOWebSocket
import ParlorInput
import Testing

/// RFC 6455 to the letter: what the server does with frames a careful library would never send
/// (the Autobahn-style run over a real `parlor serve` is Tests/conformance).
@Suite("The WebSocket to the letter: reserved bits, UTF-8, close reasons")
struct WebSocketStrictTests {
    /// A signed-in socket after `ready`, on a server of its own.
    static func withSocket(_ body: @Sendable (TestSocket) async throws -> Void) async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            try await body(try await TestSocket.session(port: port, as: alice))
        }
    }

    static func ping(_ requestId: [UInt8]) -> [UInt8] {
        Array(#"{"type":"ping","requestId":""#.utf8) + requestId + Array(#""}"#.utf8)
    }

    @Test("A frame with a reserved bit set fails the connection with 1002, whatever its opcode", arguments: [1, 2, 3])
    func reservedBits(bit: Int) async throws {
        try await Self.withSocket { socket in
            var frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: Self.ping(Array("r".utf8))))
            switch bit {
            case 1: frame.rsv1 = true
            case 2: frame.rsv2 = true
            default: frame.rsv3 = true
            }
            try await socket.sendFrame(frame)
            #expect(try await socket.closed() == .protocolError)
        }
    }

    @Test("A text message that is not UTF-8 fails the connection with 1007, never answered with U+FFFD", arguments: [
        [0xED, 0xA0, 0x80], [0x80], [0xC0, 0xAF], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE],
    ] as [[UInt8]])
    func invalidText(bytes: [UInt8]) async throws {
        try await Self.withSocket { socket in
            try await socket.sendFrame(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: Self.ping(Array("ok".utf8) + bytes))))
            #expect(try await socket.closed() == .dataInconsistentWithMessage)
        }
    }

    @Test("An invalid first fragment fails at once (fail fast); a code point split across fragments is joined; one left half-way fails")
    func fragments() async throws {
        try await Self.withSocket { socket in
            try await socket.sendFrame(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(bytes: Array(#"{"type":"ping","requestId":"\#u{0}"#.utf8.dropLast()) + [0xC0])))
            // The rest never comes: the first fragment is enough to fail.
            #expect(try await socket.closed() == .dataInconsistentWithMessage)
        }
        try await Self.withSocket { socket in
            let whole = Self.ping(Array("€uro".utf8))
            let split = whole.firstIndex(of: 0xE2).map { $0 + 1 } ?? 1  // inside the euro sign's three bytes
            try await socket.sendFrame(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(bytes: whole[..<split])))
            try await socket.sendFrame(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(bytes: whole[split...])))
            #expect(try await socket.next("pong").requestId == "€uro")
        }
        try await Self.withSocket { socket in
            let cut = Self.ping(Array("x".utf8)).dropLast(2) + [0xE2, 0x82]
            try await socket.sendFrame(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(bytes: Array(cut))))
            try await socket.sendFrame(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(bytes: [])))
            #expect(try await socket.closed() == .dataInconsistentWithMessage)
        }
    }

    @Test("A close frame whose reason is not UTF-8 is answered with 1007, not echoed with 1000")
    func closeReason() async throws {
        try await Self.withSocket { socket in
            try await socket.sendFrame(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer(bytes: [0x03, 0xE8, 0xCE, 0xBA, 0xE1, 0xBD])))
            #expect(try await socket.closed() == .dataInconsistentWithMessage)
        }
    }

    @Test("The incremental validator agrees with the standard library's UTF-8 validation, however the bytes are split", arguments: 0..<4)
    func validatorAgreesWithTheStandardLibrary(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let pieces: [[UInt8]] = [
            [0x41], [0x7F], [0xC2, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0x9F, 0xBF],
            [0x80], [0xBF], [0xC0], [0xC1], [0xC2], [0xE0, 0x80], [0xE0, 0xA0], [0xED, 0xA0, 0x80], [0xF0, 0x80], [0xF4, 0x90],
            [0xF5], [0xFE], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        ]
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...8, using: &random)).flatMap { _ in pieces.randomElement(using: &random) ?? [] }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(UTF8Validator.isValid(bytes) == expected, "\(bytes.map { String(format: "%02X", $0) })")
            // The same bytes in two pieces, split anywhere.
            let cut = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
            var validator = UTF8Validator()
            validator.consume(bytes[..<cut])
            validator.consume(bytes[cut...])
            #expect(validator.isComplete == expected)
        }
    }
}

/// A deterministic generator (SplitMix64), so a failure can be replayed from its seed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x5EED }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
