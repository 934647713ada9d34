import Foundation
import HTTPTypes
import ParlorInput
import ParlorServer
import Testing

@Suite("Accounts and sign-in")
struct AuthTests {
    @Test("Sign up returns the user and a token, and sets an HttpOnly SameSite=Strict session cookie")
    func signUpSetsCookie() async throws {
        try await TestServer().run { api in
            let reply = try await api.post("/api/auth/signup", json: ["username": "alice", "displayName": "Alice", "password": "correct horse"])
            #expect(reply.status == .created)
            let session = try reply.decode(Wire.Session.self)
            #expect(session.user.username == "alice")
            #expect(session.user.displayName == "Alice")
            let cookie = try #require(reply.headers[.setCookie])
            #expect(cookie.hasPrefix("parlor_session=\(session.token);"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(cookie.contains("Path=/"))
            #expect(!cookie.contains("Secure"), "Secure is only set behind HTTPS (secureCookies)")
        }
    }

    @Test("The session cookie and the bearer token both sign requests in; nothing signs in nobody")
    func cookieAndBearer() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let byBearer = try await api.get("/api/me", as: alice)
            #expect(try byBearer.decode(Wire.Me.self).user == alice.user)
            let byCookie = try await api.request(.get, "/api/me", headers: [.cookie: "parlor_session=\(alice.token)"])
            #expect(try byCookie.decode(Wire.Me.self).user == alice.user)
            let anonymous = try await api.get("/api/me")
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.errorCode == "unauthorized")
            let forged = try await api.request(.get, "/api/me", headers: [.authorization: "Bearer not-a-token"])
            #expect(forged.status == .unauthorized)
        }
    }

    @Test("Sign in with the right password works; a wrong password or unknown user is 401 wrongCredentials")
    func signIn() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let good = try await api.post("/api/auth/signin", json: ["username": "ALICE", "password": "password-alice"])
            #expect(good.status == .ok, "usernames are case-insensitive")
            let session = try good.decode(Wire.Session.self)
            #expect(session.user == alice.user)
            #expect(session.token != alice.token, "each sign-in gets its own token")
            #expect(good.headers[.setCookie]?.contains("HttpOnly") == true)

            let wrong = try await api.post("/api/auth/signin", json: ["username": "alice", "password": "password-bob"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorCode == "wrongCredentials")
            let nobody = try await api.post("/api/auth/signin", json: ["username": "nobody", "password": "password-nobody"])
            #expect(nobody.status == .unauthorized)
            #expect(nobody.errorCode == "wrongCredentials")
        }
    }

    @Test("The sign-in page's notice is the operator's sentence, for anyone; without one there is none")
    func signInNotice() async throws {
        try await TestServer { $0.signInNotice = "Ask Sam for an account." }.run { api in
            let notice = try await api.get("/api/auth/notice").decode(Wire.AuthNotice.self).notice
            #expect(notice == "Ask Sam for an account.")
        }
        try await TestServer().run { api in
            let reply = try await api.get("/api/auth/notice")
            #expect(reply.status == .ok)
            #expect(try reply.decode(Wire.AuthNotice.self).notice == nil)
        }
    }

    @Test("After five failed sign-ins the account is locked: 429 tooManyAttempts with retryAfter, even for the right password")
    func throttle() async throws {
        try await TestServer().run { api in
            _ = try await api.signUp("alice")
            _ = try await api.signUp("bob")
            for _ in 0..<5 {
                let wrong = try await api.post("/api/auth/signin", json: ["username": "alice", "password": "guess-guess"])
                #expect(wrong.status == .unauthorized)
            }
            let locked = try await api.post("/api/auth/signin", json: ["username": "alice", "password": "password-alice"])
            #expect(locked.status == .tooManyRequests)
            let error = try locked.decode(Wire.ErrorReply.self).error
            #expect(error.code == "tooManyAttempts")
            let retryAfter = try #require(error.details?["retryAfter"].flatMap(Int.init))
            #expect((1...900).contains(retryAfter))
            let other = try await api.post("/api/auth/signin", json: ["username": "bob", "password": "password-bob"])
            #expect(other.status == .ok, "the lock is per account")
        }
    }

    @Test("Sign out revokes the token and clears the cookie")
    func signOut() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let reply = try await api.post("/api/auth/signout", as: alice)
            #expect(reply.status == .noContent)
            let cookie = try #require(reply.headers[.setCookie])
            #expect(cookie.hasPrefix("parlor_session=;"))
            #expect(cookie.contains("Max-Age=0"))
            #expect(try await api.get("/api/me", as: alice).status == .unauthorized)
            #expect(try await api.post("/api/auth/signout").status == .noContent, "signing out when signed out is harmless")
        }
    }

    @Test("Sign-up refuses bad usernames, names and passwords (400 invalidValue) and taken usernames (409 usernameTaken)")
    func signUpRules() async throws {
        try await TestServer().run { api in
            let cases: [(JSON, String)] = [
                (["username": "al", "displayName": "Al", "password": "long enough"], "a 2-letter username"),
                (["username": "al ice", "displayName": "Al", "password": "long enough"], "a space in the username"),
                (["username": "alice", "displayName": " ", "password": "long enough"], "a blank display name"),
                (["username": "alice", "displayName": "Alice", "password": "short"], "a short password"),
            ]
            for (body, what) in cases {
                let reply = try await api.post("/api/auth/signup", json: body)
                #expect(reply.status == .badRequest, "\(what)")
                #expect(reply.errorCode == "invalidValue", "\(what)")
            }
            _ = try await api.signUp("alice")
            let taken = try await api.post("/api/auth/signup", json: ["username": "Alice", "displayName": "Other", "password": "long enough"])
            #expect(taken.status == .conflict)
            #expect(taken.errorCode == "usernameTaken")
            let malformed = try await api.request(.post, "/api/auth/signup", body: Data("{not json".utf8))
            #expect(malformed.status == .badRequest)
            #expect(malformed.errorCode == "malformedBody")
        }
    }

    @Test("Every response carries the security headers: a strict CSP, nosniff, no referrer")
    func securityHeaders() async throws {
        try await TestServer().run { api in
            let referrerPolicy = try #require(HTTPField.Name("Referrer-Policy"))
            for path in ["/", "/healthz", "/api/me", "/no/such/route"] {
                let reply = try await api.get(path)
                let csp = try #require(reply.headers[.contentSecurityPolicy], "\(path)")
                #expect(csp.contains("default-src 'self'"), "\(path)")
                #expect(csp.contains("script-src 'self'"), "\(path)")
                #expect(!csp.contains("unsafe-inline"), "\(path)")
                #expect(csp.contains("frame-ancestors 'none'"), "\(path)")
                #expect(csp.contains("img-src 'self' data: blob:;"), "\(path): remote images come through the proxy only")
                #expect(csp.contains("frame-src https: http://127.0.0.1:*") && !csp.contains("frame-src http:"), "\(path): no plain-http frames from the internet")
                #expect(reply.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                #expect(reply.headers[referrerPolicy] == "no-referrer", "\(path)")
            }
            let home = try await api.get("/")
            #expect(home.status == .ok)
            #expect(home.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(try await api.get("/healthz").text == "ok")
        }
    }
}
