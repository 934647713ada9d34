import Foundation

#if canImport(Glibc)
import Glibc
private let systemSend = Glibc.send
#elseif canImport(Darwin)
import Darwin
private let systemSend = Darwin.send
#endif

/// A WebSocket client on a plain TCP socket with a tiny receive buffer, that reads only when told
/// to: what a stalled browser tab looks like to the server.
final class RawWebSocket: Sendable {
    private let descriptor: Int32

    /// Connects to `/ws` on 127.0.0.1 with a bearer token and reads the upgrade response.
    /// - Throws: when the server does not switch protocols.
    static func open(port: Int, token: String) async throws -> RawWebSocket {
        let socket = try await open(port: port, headers: ["Authorization": "Bearer \(token)"])
        guard socket.status == 101 else { throw SocketError(description: "upgrade refused with \(socket.status)") }
        return socket
    }

    /// Sends an upgrade request to `path` (`/ws` unless told) with `headers` (and a Host of
    /// localhost:port) and reads the answer's head, on a thread of its own: the blocking reads must
    /// not hold one of the few threads the server under test runs on.
    static func open(port: Int, path: String = "/ws", headers: KeyValuePairs<String, String>) async throws -> RawWebSocket {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try RawWebSocket(port: port, path: path, headers: headers) }) }.start()
        }
    }

    /// The upgrade's HTTP status (101 when it switched to the WebSocket protocol).
    let status: Int

    private init(port: Int, path: String, headers: KeyValuePairs<String, String>) throws {
        let (descriptor, loopback) = try Loopback.socket(port: port)
        var address = loopback
        var size: Int32 = 2048
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var patience = timeval(tv_sec: 15, tv_usec: 0)  // a server that never answers fails the test, not hangs it
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw SocketError(description: "connect() failed: \(errno)")
        }
        var request = "GET \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        guard Self.send(Array((request + "\r\n").utf8), on: descriptor) else {
            close(descriptor)
            throw SocketError(description: "could not send the upgrade request")
        }
        var response: [UInt8] = []
        while !response.suffix(4).elementsEqual([13, 10, 13, 10]) {
            var byte: UInt8 = 0
            guard recv(descriptor, &byte, 1, 0) == 1 else {
                close(descriptor)
                throw SocketError(description: "the upgrade response ended early")
            }
            response.append(byte)
        }
        let statusLine = String(decoding: response, as: UTF8.self).prefix { $0 != "\r" }
        self.descriptor = descriptor
        status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    deinit { close(descriptor) }

    /// Ends the sending side of the TCP connection (a FIN) without a close frame: a client that
    /// went away without saying so.
    func shutdownWriting() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Sends a masked text frame (under 64 KiB of payload).
    @discardableResult
    func sendText(_ text: String) -> Bool {
        let payload = Array(text.utf8)
        precondition(payload.count < 65_536, "frames under 64 KiB only")
        let length: [UInt8] = payload.count < 126 ? [0x80 | UInt8(payload.count)] : [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let masked = payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return Self.send([0x81] + length + mask + masked, on: descriptor)
    }

    /// Whether the server has dropped the connection: sending fails (the peer reset it) or it was closed.
    func isDropped() -> Bool {
        if !sendText(#"{"type":"ping"}"#) { return true }
        var byte: UInt8 = 0
        let peeked = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return peeked < 0 && errno == ECONNRESET
    }

    /// The first frame the server sends: its opcode (1 text, 8 close) and payload, read on a
    /// thread of its own. A close frame's payload starts with its code.
    func firstFrame() async throws -> (opcode: UInt8, payload: [UInt8]) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try self.readFrame() }) }.start()
        }
    }

    /// The close code of the server's first frame, or nil when that frame is not a close.
    func closeCode() async throws -> Int? {
        try await closing()?.code
    }

    /// The code and reason of the server's first frame, or nil when that frame is not a close.
    func closing() async throws -> (code: Int, reason: String)? {
        let frame = try await firstFrame()
        guard frame.opcode == 8, frame.payload.count >= 2 else { return nil }
        return (Int(frame.payload[0]) << 8 | Int(frame.payload[1]), String(decoding: frame.payload.dropFirst(2), as: UTF8.self))
    }

    private func readFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
        func read(_ count: Int) throws -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let got = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress.map { $0 + filled }, count - filled, 0) }
                guard got > 0 else { throw SocketError(description: "the connection ended or timed out before a whole frame") }
                filled += got
            }
            return bytes
        }
        let head = try read(2)
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            length = try read(2).reduce(0) { $0 << 8 | Int($1) }
        } else if length == 127 {
            length = try read(8).reduce(0) { $0 << 8 | Int($1) }
        }
        return (head[0] & 0x0F, try read(length))
    }

    private static func send(_ bytes: [UInt8], on descriptor: Int32) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, flags) } == bytes.count
    }
}

/// A TCP socket for 127.0.0.1, for the test clients that work below the HTTP libraries.
enum Loopback {
    /// A new TCP socket, and 127.0.0.1:`port` as an address (0: any free port, when bound).
    static func socket(port: Int) throws -> (descriptor: Int32, address: sockaddr_in) {
        #if canImport(Glibc)
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw SocketError(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return (descriptor, address)
    }
}
