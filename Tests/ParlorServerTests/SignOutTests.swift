import Foundation
import NIOWebSocket
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// Where a sign-in ends: the sockets it opened close at once (code 4401), here and on other
/// nodes, whether it ended by signing out, by "sign out everywhere", by a password change, or
/// behind the server's back (the backstop sweep).
@Suite("Sessions: sign-out, password change and sign out everywhere close every socket")
struct SignOutTests {
    /// The close code of a socket whose sign-in ended.
    static let signedOut = WebSocketErrorCode.unknown(4401)

    /// Signs `person` in once more: a second device with a token of its own.
    static func signIn(_ person: Person, password: String? = nil, api: API) async throws -> Person {
        let reply = try await api.post(
            "/api/auth/signin", json: ["username": "\(person.username)", "password": "\(password ?? "password-\(person.username)")"])
        #expect(reply.status == .ok, "sign in: \(reply.text)")
        let session = try reply.decode(Wire.Session.self)
        return Person(user: session.user, token: session.token)
    }

    /// Whether a socket still answers: a ping gets its pong.
    static func answers(_ socket: TestSocket) async -> Bool {
        let id = UUID().uuidString
        do {
            try await socket.send("ping", ["requestId": .string(id)])
            return try await socket.next("pong", timeout: .seconds(5)) { $0.requestId == id }.type == "pong"
        } catch {
            return false
        }
    }

    @Test("Signing out closes the sockets of that sign-in with 4401, and they carry no new message; another device stays")
    func signOutClosesItsSockets() async throws {
        try await TestServer().run(.live) { api, _ in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let phone = try await Self.signIn(alice, api: api)
            let direct = try await api.conversation(of: bob, with: [alice])
            let laptopSocket = try await TestSocket.session(port: port, as: alice)
            let phoneSocket = try await TestSocket.session(port: port, as: phone)

            #expect(try await api.post("/api/auth/signout", as: alice).status == .noContent)
            #expect(try await laptopSocket.closed() == Self.signedOut, "the signed-out socket is closed with the code the browser understands")
            try await api.send("after sign-out", in: direct.id, as: bob)
            let onPhone = try await phoneSocket.messages(1)
            #expect(onPhone.first?.text == "after sign-out", "the other device keeps its socket")
            #expect(await Self.answers(phoneSocket))
            await phoneSocket.disconnect()
        }
    }

    @Test("A socket opened with an ended sign-in cannot send: a frame that comes during the closing handshake is not handled")
    func endedSocketCannotSend() async throws {
        try await TestServer().run(.live) { api, _ in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            // A client that does not answer the server's close at once: its frames still reach the server.
            let socket = try await RawWebSocket.open(port: port, token: alice.token)
            #expect(try await socket.firstFrame().opcode == 1, "welcome")
            func send(_ text: String) -> Bool {
                socket.sendText(#"{"type":"sendText","conversation":"\#(direct.id)","id":"\#(UUID().uuidString)","text":"\#(text)"}"#)
            }
            #expect(send("before"))
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await api.messages(in: direct.id, as: bob).map(\.text) == ["before"], "this socket sends while signed in")
            #expect(try await api.post("/api/auth/signout", as: alice).status == .noContent)
            var frame = try await socket.firstFrame()
            while frame.opcode != 8 { frame = try await socket.firstFrame() }
            #expect(Int(frame.payload[0]) << 8 | Int(frame.payload[1]) == 4401)
            #expect(send("still here?"), "the server waits for the close's answer, reading what comes")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await api.messages(in: direct.id, as: bob).map(\.text) == ["before"], "nothing is sent in the name of a session that ended")
        }
    }

    @Test("Sign out everywhere ends every sign-in of the account and closes all its sockets; other people's stay")
    func signOutEverywhere() async throws {
        try await TestServer().run(.live) { api, _ in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let phone = try await Self.signIn(alice, api: api)
            let sockets = [try await TestSocket.session(port: port, as: alice), try await TestSocket.session(port: port, as: phone)]
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            let reply = try await api.post("/api/auth/signout-everywhere", as: phone)
            #expect(reply.status == .ok)
            #expect(try reply.decode(Wire.SessionsEnded.self).ended == 2)
            #expect(reply.headers[.setCookie]?.contains("Max-Age=0") == true, "this browser's cookie is cleared too")
            for socket in sockets { #expect(try await socket.closed() == Self.signedOut) }
            for token in [alice, phone] { #expect(try await api.get("/api/me", as: token).status == .unauthorized) }
            #expect(await Self.answers(bobSocket), "someone else's socket stays")
            #expect(try await api.get("/api/me", as: bob).status == .ok)
            #expect(try await api.post("/api/auth/signout-everywhere").status == .unauthorized)
            await bobSocket.disconnect()
        }
    }

    @Test("A password change asks for the current password, ends every other sign-in and closes their sockets; this one stays")
    func passwordChange() async throws {
        try await TestServer().run(.live) { api, _ in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let stolen = try await Self.signIn(alice, api: api)
            let stolenSocket = try await TestSocket.session(port: port, as: stolen)
            let ownSocket = try await TestSocket.session(port: port, as: alice)

            let wrong = try await api.post("/api/me/password", as: alice, json: ["currentPassword": "not-it-at-all", "newPassword": "a much better one"])
            #expect(wrong.status == .forbidden)
            #expect(wrong.errorCode == "wrongPassword")
            let weak = try await api.post("/api/me/password", as: alice, json: ["currentPassword": "password-alice", "newPassword": "short"])
            #expect(weak.status == .badRequest)
            #expect(weak.text.contains("at least 8 characters"))
            let common = try await api.post("/api/me/password", as: alice, json: ["currentPassword": "password-alice", "newPassword": "password123"])
            #expect(common.status == .badRequest)
            let same = try await api.post("/api/me/password", as: alice, json: ["currentPassword": "password-alice", "newPassword": "password-alice"])
            #expect(same.status == .badRequest)
            #expect(await Self.answers(stolenSocket), "refused changes end nothing")

            let changed = try await api.post(
                "/api/me/password", as: alice, json: ["currentPassword": "password-alice", "newPassword": "a much better one"])
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try changed.decode(Wire.SessionsEnded.self).ended == 1)
            #expect(try await stolenSocket.closed() == Self.signedOut, "the other device's socket closes at once")
            #expect(try await api.get("/api/me", as: stolen).status == .unauthorized)
            #expect(try await api.get("/api/me", as: alice).status == .ok, "the session that changed it stays signed in")
            #expect(await Self.answers(ownSocket))

            let old = try await api.post("/api/auth/signin", json: ["username": "alice", "password": "password-alice"])
            #expect(old.status == .unauthorized, "the old password no longer signs in")
            _ = try await Self.signIn(alice, password: "a much better one", api: api)
            await ownSocket.disconnect()
        }
    }

    @Test("The current password is guessed no faster than at sign-in: after five wrong ones, 429 even for the right one")
    func passwordChangeThrottled() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            for _ in 0..<5 {
                let wrong = try await api.post("/api/me/password", as: alice, json: ["currentPassword": "guess-guess", "newPassword": "a much better one"])
                #expect(wrong.status == .forbidden)
            }
            let locked = try await api.post("/api/me/password", as: alice, json: ["currentPassword": "password-alice", "newPassword": "a much better one"])
            #expect(locked.status == .tooManyRequests)
            #expect(locked.errorCode == "tooManyAttempts")
            #expect(try await api.get("/api/me", as: alice).status == .ok, "guessing does not sign the session out")
        }
    }

    @Test("Another node's sign-out closes this node's sockets of those tokens; this node tells the others of its own")
    func acrossNodes() async throws {
        let bus = ScriptedBus()
        var server = try TestServer()
        server.bus = bus
        try await server.run(.live) { api, _ in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let phone = try await Self.signIn(alice, api: api)
            let socket = try await TestSocket.session(port: port, as: alice)
            let phoneSocket = try await TestSocket.session(port: port, as: phone)

            // The phone signs out on another node, which deleted its token and says so.
            bus.announce(.sessionsEnded(user: alice.id, tokenHashes: [Digest.sha256Hex(phone.token)]))
            #expect(try await phoneSocket.closed() == Self.signedOut)
            #expect(await Self.answers(socket))

            #expect(try await api.post("/api/auth/signout", as: alice).status == .noContent)
            #expect(try await socket.closed() == Self.signedOut)
            #expect(bus.published.contains(.sessionsEnded(user: alice.id, tokenHashes: [Digest.sha256Hex(alice.token)])))
        }
    }

    @Test("A socket upgraded with a token just before its sign-in ended is closed when it registers, not left to the sweep")
    func upgradeRacingSignOut() async throws {
        let bus = ScriptedBus()
        var server = try TestServer()
        server.bus = bus
        try await server.run(.live) { api, _ in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let phone = try await Self.signIn(alice, api: api)
            // Another node ended the phone's sign-in; this node's upgrade had checked the token
            // before the row went (here it never goes, so the upgrade always wins the race).
            bus.announce(.sessionsEnded(user: alice.id, tokenHashes: [Digest.sha256Hex(phone.token)]))
            try await Task.sleep(for: .milliseconds(200))
            let late = try await TestSocket.connect(port: port, as: phone)
            #expect(try await late.closed() == Self.signedOut, "the socket of an ended sign-in is closed at once")
            let laptop = try await TestSocket.session(port: port, as: alice)
            #expect(await Self.answers(laptop), "another sign-in of the same person is not refused")
        }
    }

    @Test("A sign-in that ends behind the server's back (the account removed by another process) has its sockets closed by the sweep")
    func sweepCatchesWhatNobodySaid() async throws {
        try await TestServer { $0.sessionSweepInterval = .milliseconds(200) }.run(.live) { api, store in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let socket = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            // `parlor user remove alice`, run beside the server, deletes the account and its tokens.
            try await store.deleteUser(id: alice.id)
            #expect(try await socket.closed() == Self.signedOut)
            #expect(await Self.answers(bobSocket))
            await bobSocket.disconnect()
        }
    }
}
