import Foundation
import HTTPTypes
import NIOWebSocket
import ParlorInput
import ParlorServer
import Testing

/// What an attacker tries against sign-in, names, cross-site requests and connection floods,
/// each the way a script would (issue: "Security").
@Suite("Holding against an attacker")
struct SecurityTests {
    /// A server behind a trusted proxy on 127.0.0.1, so tests can speak from several addresses.
    static func behindProxy() throws -> TestServer {
        try TestServer { $0.trustedProxies = ["127.0.0.1"] }
    }

    static func signIn(_ api: API, _ username: String, _ password: String, from address: String? = nil) async throws -> Reply {
        var headers: HTTPFields = [:]
        if let address { headers[HTTPField.Name("X-Forwarded-For")!] = address }
        return try await api.request(.post, "/api/auth/signin", json: ["username": .string(username), "password": .string(password)], headers: headers)
    }

    @Test("40 wrong passwords for one account sent at once: at most five are checked, the rest are refused with 429")
    func burstIsThrottled() async throws {
        try await TestServer().run(.live) { api in
            _ = try await api.signUp("bob")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<40 { group.addTask { try await Self.signIn(api, "bob", "not-the-password").status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count <= 5, "checked: \(statuses.filter { $0 == .unauthorized }.count)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count >= 35)
            #expect(statuses.allSatisfy { $0 == .unauthorized || $0 == .tooManyRequests })
        }
    }

    @Test("Five wrong passwords for bob from one address do not lock bob out from another; a forged X-Forwarded-For is not believed without a trusted proxy")
    func strangerCannotLockOwnerOut() async throws {
        try await Self.behindProxy().run(.live) { api in
            _ = try await api.signUp("bob")
            for _ in 0..<5 { #expect(try await Self.signIn(api, "bob", "guess-guess", from: "203.0.113.5").status == .unauthorized) }
            #expect(try await Self.signIn(api, "bob", "password-bob", from: "203.0.113.5").status == .tooManyRequests, "that address is locked out")
            #expect(try await Self.signIn(api, "bob", "password-bob", from: "198.51.100.7").status == .ok, "the owner, from elsewhere, signs in")
        }
        try await TestServer().run(.live) { api in
            _ = try await api.signUp("bob")
            for index in 0..<5 {
                #expect(try await Self.signIn(api, "bob", "guess-guess", from: "203.0.113.\(index)").status == .unauthorized)
            }
            let forged = try await Self.signIn(api, "bob", "guess-guess", from: "198.51.100.99")
            #expect(forged.status == .tooManyRequests, "with no trusted proxy, every attempt comes from the socket's address")
        }
    }

    @Test("One address spraying wrong passwords over many accounts runs out of its budget")
    func addressBudget() async throws {
        try await TestServer().run { api in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<55 { statuses.append(try await Self.signIn(api, "nobody\(index)", "guess-guess").status) }
            #expect(statuses.prefix(50).allSatisfy { $0 == .unauthorized })
            #expect(statuses.suffix(5).allSatisfy { $0 == .tooManyRequests })
        }
    }

    @Test("An unknown username costs as much to refuse as a wrong password (the stand-in hash has the real cost)")
    func equalCost() async throws {
        try await TestServer { $0.passwordCost = 10 }.run { api in
            _ = try await api.signUp("carol")
            func median(_ username: String) async throws -> Duration {
                var times: [Duration] = []
                for _ in 0..<3 {
                    let start = ContinuousClock.now
                    #expect(try await Self.signIn(api, username, "wrong-password").status == .unauthorized)
                    times.append(ContinuousClock.now - start)
                }
                return times.sorted()[1]
            }
            let known = try await median("carol")
            let unknown = try await median("nobody-at-all")
            // Cost 10 against the old stand-in's cost 4 is 64 times the work; a shared machine's noise is far less.
            #expect(unknown * 3 > known, "unknown \(unknown), known \(known)")
        }
    }

    @Test("Display names and titles: a letter under 30,000 combining marks, bidi overrides, invisible characters, NUL and line breaks are refused; emoji are fine")
    func names() async throws {
        try await TestServer().run { api in
            let refused = [
                "a" + String(repeating: "\u{301}", count: 30_000), "evil\u{202E}gnp.exe", "alice\u{200B}", "nul\u{0}byte", "two\nlines",
                "\u{2066}isolate", "soft\u{00AD}hyphen",
            ]
            for (index, name) in refused.enumerated() {
                let reply = try await api.post(
                    "/api/auth/signup", json: ["username": "user\(index)", "displayName": .string(name), "password": "long-enough-password"])
                #expect(reply.status == .badRequest, "\(name.unicodeScalars.prefix(12).map { String($0.value, radix: 16) })")
                #expect(reply.errorCode == "invalidValue")
            }
            // Names people use: emoji joined and with variation selectors, Persian with a
            // non-joiner, Sinhala with a joiner, a Japanese ideographic variant, a Scottish flag.
            let real = ["Zoë 👨‍👩‍👧 ❤️", "تقی\u{200C}زاده", "ශ්\u{200D}රී", "葛\u{E0100}西", "Iain 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
                        String(repeating: "क्षि", count: 16)]
            for (index, name) in real.enumerated() {
                let reply = try await api.post(
                    "/api/auth/signup", json: ["username": "real\(index)", "displayName": .string(name), "password": "long-enough-password"])
                #expect(reply.status == .created, "\(name): \(reply.text)")
            }
            let stray = try await api.post(
                "/api/auth/signup", json: ["username": "stray", "displayName": "\u{200C}Ann", "password": "long-enough-password"])
            #expect(stray.status == .badRequest, "a joiner with nothing to join is invisible padding")

            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            for title in ["a" + String(repeating: "\u{301}", count: 30_000), "Plans\u{202E}"] {
                let reply = try await api.request(
                    .post, "/api/conversations", as: alice, json: ["members": ["bob", "carol"], "title": .string(title)])
                #expect(reply.status == .badRequest)
            }
            let group = try await api.conversation(of: alice, with: [bob, carol], title: "Plans 🎉")
            #expect(group.title == "Plans 🎉")
            let rename = try await api.request(.patch, "/api/conversations/\(group.id)", as: bob, json: ["title": "x\u{200B}"])
            #expect(rename.status == .badRequest)
        }
    }

    @Test("Passwords over bcrypt's 72 bytes are refused at sign-up, and a longer one never signs in to a 72-byte account")
    func passwordBytes() async throws {
        try await TestServer().run { api in
            let seventyTwo = String(repeating: "a", count: 72)
            let long = try await api.post("/api/auth/signup", json: ["username": "dave", "displayName": "Dave", "password": .string(seventyTwo + "b")])
            #expect(long.status == .badRequest)
            #expect(long.text.contains("72 bytes"))
            let exact = try await api.post("/api/auth/signup", json: ["username": "erin", "displayName": "Erin", "password": .string(seventyTwo)])
            #expect(exact.status == .created)
            #expect(try await Self.signIn(api, "erin", seventyTwo + "c").status == .unauthorized, "bcrypt would have read only the first 72 bytes")
            #expect(try await Self.signIn(api, "erin", seventyTwo).status == .ok)
        }
    }

    @Test("Every credential a request carries must hold for one person: a bad cookie beside a good token, or a bad token beside a good cookie, signs nobody in")
    func credentialsMustAgree() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            func me(_ headers: HTTPFields) async throws -> HTTPResponse.Status {
                try await api.request(.get, "/api/me", headers: headers).status
            }
            #expect(try await me([.authorization: "Bearer \(alice.token)"]) == .ok)
            #expect(try await me([.cookie: "parlor_session=\(alice.token)"]) == .ok)
            #expect(try await me([.authorization: "Bearer \(alice.token)", .cookie: "parlor_session=\(alice.token)"]) == .ok)
            #expect(try await me([.authorization: "Bearer \(alice.token)", .cookie: "parlor_session=forged"]) == .unauthorized)
            #expect(try await me([.authorization: "Bearer \(alice.token)", .cookie: "theme=dark; parlor_session="]) == .unauthorized, "an empty cookie too")
            #expect(try await me([.authorization: "Bearer \(alice.token)", .cookie: "theme=dark"]) == .ok, "other cookies do not matter")
            #expect(try await me([.authorization: "Bearer \(alice.token)", .cookie: "parlor_session=\(bob.token)"]) == .unauthorized)
            #expect(try await me([.authorization: "Basic YWxpY2U6eA==", .cookie: "parlor_session=\(alice.token)"]) == .ok,
                    "a proxy's Basic credentials are not Parlor's: the cookie still signs in")
            #expect(try await me([.authorization: "bearer \(alice.token)"]) == .ok, "the scheme is case-insensitive")
            #expect(try await me([.authorization: "Bearer forged", .cookie: "parlor_session=\(alice.token)"]) == .unauthorized)
        }
    }

    @Test("Sign-up refuses the most common passwords, in any case, and says why")
    func commonPasswords() async throws {
        try await TestServer().run { api in
            for (index, password) in ["password1", "Password1", "QWERTYUIOP", "trustno1", "sunshine1"].enumerated() {
                let reply = try await api.post(
                    "/api/auth/signup", json: ["username": .string("user\(index)"), "displayName": "User", "password": .string(password)])
                #expect(reply.status == .badRequest, "\(password)")
                #expect(reply.text.contains("most common"), "\(password): \(reply.text)")
            }
            let fine = try await api.post("/api/auth/signup", json: ["username": "user9", "displayName": "User", "password": "purple-otter-47"])
            #expect(fine.status == .created)
        }
    }

    @Test("A cookie-signed request that changes state from another site, or as a form could send it, is refused; bearer requests and the app itself are not")
    func crossSiteWrites() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let path = "/api/conversations/\(direct.id)/messages"
            let cookie = "parlor_session=\(alice.token)"
            func post(_ headers: HTTPFields, contentType: String = "application/json") async throws -> Reply {
                var headers = headers
                headers[.contentType] = contentType
                let body = Data(#"{"id": "\#(UUID().uuidString)", "text": "hi"}"#.utf8)
                return try await api.request(.post, path, body: body, headers: headers)
            }
            let forged = try await post([.cookie: cookie, .origin: "http://evil.example"], contentType: "text/plain")
            #expect(forged.status == .forbidden)
            #expect(forged.errorCode == "crossSiteRequest")
            #expect(try await post([.cookie: cookie, .origin: "http://evil.example"]).status == .forbidden, "JSON from another origin")
            #expect(try await post([.cookie: cookie, HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]).status == .forbidden)
            #expect(try await post([.cookie: cookie], contentType: "text/plain").status == .forbidden, "a form's content type, with no Origin")
            #expect(try await post([.cookie: cookie, HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]).status == .created, "the web client")
            #expect(try await post([.authorization: "Bearer \(alice.token)", .origin: "http://evil.example"]).status == .created,
                    "a bearer token is not sent by browsers on their own")
            #expect(try await api.messages(in: direct.id, as: bob).count == 2, "only the two allowed posts were stored")
        }
    }

    @Test("An account has at most maxConnectionsPerUser WebSockets; the next is closed with 1008 and the others keep working")
    func connectionCap() async throws {
        try await TestServer { $0.maxConnectionsPerUser = 3 }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            var sockets: [TestSocket] = []
            for _ in 0..<3 { sockets.append(try await TestSocket.session(port: port, as: alice)) }
            // A raw client: the test's WebSocket client can miss a close sent right after the upgrade.
            let extra = try await RawWebSocket.open(port: port, token: alice.token)
            #expect(try await extra.closeCode() == 1008, "the fourth tab is refused with policyViolation")
            try await sockets[0].send(["type": "ping", "requestId": "still-here"])
            #expect(try await sockets[0].next("pong").requestId == "still-here")
            await sockets[2].disconnect()
            // The server frees the slot when it has seen the close: a new tab gets in soon after.
            var welcomed = false
            for _ in 0..<100 where !welcomed {
                welcomed = try await RawWebSocket.open(port: port, token: alice.token).firstFrame().opcode == 1
                if !welcomed { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(welcomed, "a slot freed by a closed tab is free again")
            for socket in sockets.prefix(2) { await socket.disconnect() }
        }
    }

    @Test("A client that ends its TCP connection without a close frame is dropped at once: its place under the connection cap is free again")
    func halfClosedConnectionIsDropped() async throws {
        try await TestServer { $0.maxConnectionsPerUser = 1 }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let gone = try await RawWebSocket.open(port: port, token: alice.token)
            #expect(try await gone.firstFrame().opcode == 1, "welcome")
            gone.shutdownWriting()
            // Without the half-close handled, the place would be held until pings time out (a minute).
            var welcomed = false
            for _ in 0..<30 where !welcomed {
                welcomed = try await RawWebSocket.open(port: port, token: alice.token).firstFrame().opcode == 1
                if !welcomed { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(welcomed, "the half-closed connection still holds the account's only place")
        }
    }

    @Test("A lockout ends: after it, the right password signs in (one attempt at a time until then)")
    func lockoutEnds() async throws {
        try await TestServer { $0.signInLockout = .seconds(1) }.run { api in
            _ = try await api.signUp("bob")
            for _ in 0..<5 { #expect(try await Self.signIn(api, "bob", "guess-guess").status == .unauthorized) }
            #expect(try await Self.signIn(api, "bob", "password-bob").status == .tooManyRequests)
            try await Task.sleep(for: .milliseconds(1_200))  // the first lockout lasts one second here
            #expect(try await Self.signIn(api, "bob", "password-bob").status == .ok)
        }
    }

    @Test("hello with since at Int64.min or Int64.max neither crashes the server nor loses the next message")
    func hostileSince() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            try await api.send("before", in: direct.id, as: bob)
            let low = try await TestSocket.session(port: port, as: alice, since: [direct.id: .min])
            let high = try await TestSocket.session(port: port, as: alice, since: [direct.id: .max])
            #expect(try await low.messages(1).first?.text == "before", "from below zero: everything")
            try await api.send("after", in: direct.id, as: bob)
            #expect(try await low.messages(1).first?.text == "after")
            #expect(try await high.messages(1).first?.text == "after", "from beyond the end: what comes next")
            for socket in [low, high] { await socket.disconnect() }
        }
    }

    @Test("A read mark sent far past the last message stops at it: the next message is still unread")
    func readAheadIsClamped() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            try await api.send("first", in: direct.id, as: bob)
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            try await socket.send("read", ["conversation": .string(direct.id), "sequence": .int(.max)])
            _ = try await socket.next("conversation") { $0.conversationInfo?.unreadCount == 0 }
            try await api.send("new", in: direct.id, as: bob)
            let list = try await api.get("/api/conversations", as: alice).decode([Wire.Conversation].self)
            #expect(list.first?.unreadCount == 1)
            await socket.disconnect()
        }
    }
}
