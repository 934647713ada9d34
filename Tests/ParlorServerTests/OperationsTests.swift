import Foundation
import HTTPTypes
import ParlorInput
import ParlorServer
import Testing

/// What an operator runs Parlor with: metrics, health, a reverse proxy in front, logs.
@Suite("Operating a server")
struct OperationsTests {
    static let token = "operator-token-0123456789"

    /// One sample of the Prometheus text: `name{labels} value`, labels in any order.
    static func value(_ name: String, _ labels: [String: String] = [:], in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name) && !line.hasPrefix("#") {
            let rest = line.dropFirst(name.count)
            var found: [String: String] = [:]
            var valueText = rest
            if rest.hasPrefix("{"), let close = rest.lastIndex(of: "}") {
                for pair in rest[rest.index(after: rest.startIndex)..<close].split(separator: "\",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { found[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                }
                valueText = rest[rest.index(after: close)...]
            } else if !rest.hasPrefix(" ") {
                continue  // a longer name that starts the same
            }
            if found == labels { return Double(valueText.trimmingCharacters(in: .whitespaces)) }
        }
        return nil
    }

    /// The server's metrics, read with the admin token.
    static func scrape(_ api: API) async throws -> String {
        let reply = try await api.request(.get, "/metrics", headers: [.authorization: "Bearer \(token)"])
        #expect(reply.status == .ok)
        return reply.text
    }

    @Test("/metrics after a known workload: messages, deliveries, commits, sign-in failures and lockouts, connections and HTTP requests moved by exactly that")
    func metricsCountTheWorkload() async throws {
        try await TestServer { $0.adminToken(Self.token) }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let socket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            for index in 0..<3 { try await api.send("hello \(index)", in: direct.id, as: alice) }
            for _ in 0..<3 { _ = try await socket.next("message") }
            for _ in 0..<6 {
                _ = try await api.post("/api/auth/signin", json: ["username": "alice", "password": "not-her-password"])
            }

            let scraped = try await api.request(.get, "/metrics", headers: [.authorization: "Bearer \(Self.token)"])
            #expect(scraped.status == .ok)
            #expect(scraped.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = scraped.text
            #expect(Self.value("parlor_messages_committed_total", ["kind": "text"], in: text) == 3, "\(text)")
            #expect(Self.value("parlor_deliveries_total", in: text) == 3, "bob's one connection got each message once")
            #expect(Self.value("parlor_commit_batch_size_sum", in: text) == 3, "every committed message went through a group commit")
            #expect((Self.value("parlor_commit_duration_seconds_count", in: text) ?? 0) >= 1)
            #expect(Self.value("parlor_sign_in_failures_total", in: text) == 5, "five wrong passwords were checked")
            #expect(Self.value("parlor_sign_in_lockouts_total", in: text) == 1, "the sixth was refused unchecked")
            #expect(Self.value("parlor_connections", in: text) == 1)
            #expect(Self.value("parlor_app_connections", in: text) == 0)
            #expect(Self.value("parlor_slow_consumer_disconnects_total", in: text) == 0)
            #expect(Self.value("parlor_http_requests_total", ["route": "/api/auth/signin", "method": "POST", "status": "401"], in: text) == 5)
            #expect(Self.value("parlor_http_requests_total", ["route": "/api/auth/signin", "method": "POST", "status": "429"], in: text) == 1)
            #expect(Self.value("parlor_http_requests_total", ["route": "/api/conversations/{id}/messages", "method": "POST", "status": "201"], in: text) == 3)
            #expect(!text.contains("not-her-password") && !text.contains(alice.token), "no secret in the metrics")
            await socket.disconnect()
        }
    }

    @Test("/metrics is the operator's: 404 without an admin token configured, 401 without or with a user's token")
    func metricsAreTheOperators() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            #expect(try await api.get("/metrics", as: alice).status == .notFound)
        }
        try await TestServer { $0.adminToken(Self.token) }.run { api in
            let alice = try await api.signUp("alice")
            #expect(try await api.get("/metrics").status == .unauthorized)
            #expect(try await api.get("/metrics", as: alice).errorCode == "adminOnly")
        }
    }

    @Test("/healthz and /readyz answer 200 on a running server with its store")
    func health() async throws {
        try await TestServer().run { api in
            #expect(try await api.get("/healthz").status == .ok)
            let ready = try await api.get("/readyz")
            #expect(ready.status == .ok)
            #expect(ready.text == "ready\n")
        }
    }

    @Test("Behind HTTPS: the public origin's pages may post and open the WebSocket, others may not; the cookie is Secure")
    func behindProxy() async throws {
        try await TestServer { $0.publicURL = URL(string: "https://Chat.Example.org") }.run(.live) { api in
            let port = try #require(api.port)
            let signUp = try await api.post(
                "/api/auth/signup", json: ["username": "alice", "displayName": "Alice", "password": "password-alice"])
            #expect(signUp.headers[.setCookie]?.contains("; Secure") == true, "\(signUp.headers)")
            let alice = try signUp.decode(Wire.Session.self)
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: Person(user: alice.user, token: alice.token), with: [bob])
            func post(origin: String) async throws -> HTTPResponse.Status {
                try await api.request(
                    .post, "/api/conversations/\(direct.id)/messages", json: ["id": .string(UUID().uuidString), "text": "hi"],
                    headers: [.cookie: "parlor_session=\(alice.token)", .origin: origin]
                ).status
            }
            #expect(try await post(origin: "https://chat.example.org") == .created, "the public origin is the pages' own")
            #expect(try await post(origin: "https://evil.example") == .forbidden)
            let upgrade = { (origin: String) in
                try await RawWebSocket.open(port: port, headers: ["Cookie": "parlor_session=\(alice.token)", "Origin": origin]).status
            }
            #expect(try await upgrade("https://chat.example.org") == 101)
            #expect(try await upgrade("https://chat.example.org.evil.example") == 400)
        }
    }

    @Test("A trusted proxy may be a network: X-Forwarded-For is believed from inside it only", arguments: [
        ("127.0.0.0/8", true), ("10.0.0.0/8", false), ("::1/128", false),
    ])
    func trustedNetworks(network: String, believed: Bool) async throws {
        try await TestServer {
            $0.trustedProxies = [AddressRange(stringLiteral: network)]
            $0.passwordAttemptsPerMinute = 2
        }.run(.live) { api in
            func signIn(from address: String) async throws -> HTTPResponse.Status {
                try await api.request(
                    .post, "/api/auth/signin", json: ["username": "nobody", "password": "guess-guess"], headers: [HTTPField.Name("X-Forwarded-For")!: address]
                ).status
            }
            _ = try await signIn(from: "203.0.113.1")
            _ = try await signIn(from: "192.0.2.66, 203.0.113.1")
            // Believed, a chain counts as its rightmost untrusted entry, and the client's own
            // leading entry changes nothing: that was 203.0.113.1 twice. Not believed, it was the
            // proxy's own address twice.
            #expect(try await signIn(from: "198.51.100.9, 203.0.113.1") == .tooManyRequests)
            let other = try await signIn(from: "198.51.100.7")
            #expect((other != .tooManyRequests) == believed, "another client behind the proxy: \(other)")
            if believed {
                // An entry that is not an address is not a key of its own: it counts as the proxy.
                let statuses = [try await signIn(from: "198.51.100.8:4444"), try await signIn(from: "198.51.100.9:5555"),
                                try await signIn(from: "not an address")]
                #expect(statuses.last == .tooManyRequests, "\(statuses)")
            }
        }
    }

    @Test("The public origin is written as browsers send Origin: lowercase, no default port, IPv6 in brackets")
    func publicOrigins() {
        var configuration = ServerConfiguration()
        for (url, origin) in [
            ("https://Chat.Example.org", "https://chat.example.org"), ("https://chat.example.org:443/", "https://chat.example.org"),
            ("http://chat.example.org:80", "http://chat.example.org"), ("https://chat.example.org:8443", "https://chat.example.org:8443"),
            ("http://[::1]:8080", "http://[::1]:8080"),
        ] {
            configuration.publicURL = URL(string: url)
            #expect(configuration.publicOrigin == origin, "\(url)")
        }
    }

    @Test("Address ranges: IPv4 and IPv6 networks, single addresses, IPv4 written as IPv6; nonsense refused")
    func addressRanges() throws {
        let ten = try parsed("10.0.0.0/8")
        #expect(ten.contains("10.200.3.4") && !ten.contains("11.0.0.1") && ten.contains("::ffff:10.0.0.9"))
        let v6 = try parsed("fd00::/8")
        #expect(v6.contains("fd12::1") && !v6.contains("fe80::1") && !v6.contains("10.0.0.1"))
        let one = try parsed("192.168.1.7")
        #expect(one.contains("192.168.1.7") && !one.contains("192.168.1.8"))
        let twelve = try parsed("10.0.0.0/12")
        #expect(twelve.contains("10.15.255.255") && !twelve.contains("10.16.0.0"))
        #expect(try parsed("10.1.2.3/8").description == "10.0.0.0/8")
        for bad in ["", "10.0.0.0/33", "::/129", "example.org", "10.0.0/8", "10.0.0.0/-1", "10.0.0.0/8/8"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    /// Parses `text` as a person's configuration would be (a literal would take the non-failable path).
    private func parsed(_ text: String) throws -> AddressRange {
        try #require(AddressRange(text))
    }
}
