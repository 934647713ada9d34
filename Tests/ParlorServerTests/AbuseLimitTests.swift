import Foundation
import HTTPTypes
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// Private uploads, group admins, and the limits on how fast and how far one account can reach
/// others (issue: "Security").
@Suite("Private uploads, group admins and abuse limits")
struct AbuseLimitTests {
    static let png = TestImages.png(width: 4, height: 2, shade: 7)

    static func upload(_ api: API, _ bytes: Data, as person: Person) async throws -> Reply {
        try await api.request(.post, "/api/blobs", as: person, body: bytes)
    }

    @Test("An upload is served only to who made it: other accounts get the same 404 as for nothing, anonymous visitors 401")
    func privateUploads() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let mallory = try await api.signUp("mallory")
            let blob = try await Self.upload(api, Self.png, as: alice).decode(Wire.Blob.self)
            #expect(try await api.get(blob.url, as: alice).body == Self.png)
            let anonymous = try await api.get(blob.url)
            let stranger = try await api.get(blob.url, as: mallory)
            let nothing = try await api.get("/blobs/\(String(repeating: "0", count: 64))", as: mallory)
            #expect(anonymous.status == .unauthorized)
            #expect(stranger.status == .notFound, "knowing the hash is not enough")
            let (strangerError, nothingError) = (try stranger.decode(Wire.ErrorReply.self).error, try nothing.decode(Wire.ErrorReply.self).error)
            #expect(strangerError.code == nothingError.code && strangerError.message == nothingError.message,
                    "an upload that exists looks exactly like one that does not")
        }
    }

    @Test("Each account's uploads share a quota: past it, 413 uploadQuotaExceeded; the same bytes again cost nothing")
    func uploadQuota() async throws {
        try await TestServer { $0.uploadQuotaBytes = 200 }.run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            #expect(try await Self.upload(api, Self.png, as: alice).status == .created)  // 73 bytes
            #expect(try await Self.upload(api, TestImages.png(width: 4, height: 2, shade: 1), as: alice).status == .created)  // 146
            #expect(try await Self.upload(api, Self.png, as: alice).status == .created, "already hers")
            let over = try await Self.upload(api, TestImages.png(width: 4, height: 2, shade: 2), as: alice)
            #expect(over.status == .contentTooLarge)
            #expect(over.errorCode == "uploadQuotaExceeded")
            #expect(try await Self.upload(api, TestImages.png(width: 4, height: 2, shade: 2), as: bob).status == .created, "bob has his own quota")
        }
    }

    @Test("Only a group's admins remove others; anyone leaves; admins name admins; the last admin cannot step down; when they leave, the longest-standing member takes over")
    func groupAdmins() async throws {
        try await TestServer().run { api in
            let (alice, bob, carol, dave) = (try await api.signUp("alice"), try await api.signUp("bob"), try await api.signUp("carol"), try await api.signUp("dave"))
            let group = try await api.conversation(of: alice, with: [bob, carol, dave])
            #expect(group.admins == [alice.id], "the creator is the admin")
            let path = "/api/conversations/\(group.id)"

            let coup = try await api.request(.delete, "\(path)/members/\(alice.id)", as: bob)
            #expect(coup.status == .forbidden)
            #expect(coup.errorCode == "notAdmin")
            #expect(try await api.request(.put, "\(path)/admins/\(bob.id)", as: bob).errorCode == "notAdmin", "nobody makes themselves admin")
            #expect(try await api.request(.delete, "\(path)/members/\(dave.id)", as: alice).status == .noContent)
            #expect(try await api.request(.delete, "\(path)/members/\(carol.id)", as: carol).status == .noContent, "anyone may leave")

            let named = try await api.request(.put, "\(path)/admins/\(bob.id)", as: alice).decode(Wire.Conversation.self)
            #expect(named.admins == [alice.id, bob.id])
            #expect(try await api.request(.delete, "\(path)/admins/\(alice.id)", as: alice).status == .ok, "alice steps down")
            let last = try await api.request(.delete, "\(path)/admins/\(bob.id)", as: bob)
            #expect(last.status == .conflict)
            #expect(last.errorCode == "lastAdmin")

            #expect(try await api.request(.delete, "\(path)/members/\(bob.id)", as: bob).status == .noContent)
            let after = try await api.get(path, as: alice).decode(Wire.Conversation.self)
            #expect(after.admins == [alice.id], "the admin left: the longest-standing member took over")

            let direct = try await api.conversation(of: alice, with: [bob])
            #expect(direct.admins.isEmpty)
            #expect(try await api.request(.put, "/api/conversations/\(direct.id)/admins/\(bob.id)", as: alice).errorCode == "notAGroup")
        }
    }

    @Test("A group holds at most maxGroupMembers: creating a bigger one is 400, adding to a full one 409 groupFull")
    func groupSize() async throws {
        try await TestServer { $0.maxGroupMembers = 3 }.run { api in
            var people: [Person] = []
            for name in ["alice", "bob", "carol", "dave"] { people.append(try await api.signUp(name)) }
            let tooBig = try await api.post("/api/conversations", as: people[0], json: ["members": ["bob", "carol", "dave"]])
            #expect(tooBig.status == .badRequest)
            let group = try await api.conversation(of: people[0], with: [people[1], people[2]])
            let full = try await api.post("/api/conversations/\(group.id)/members", as: people[0], json: ["username": "dave"])
            #expect(full.status == .conflict)
            #expect(full.errorCode == "groupFull")
            #expect(try await api.post("/api/conversations/\(group.id)/members", as: people[0], json: ["username": "bob"]).status == .ok,
                    "adding a member again changes nothing and is not refused")
        }
    }

    @Test("One person cannot pull another into more than additionsPerMinute conversations a minute, nor keep others from adding them")
    func additionFlood() async throws {
        try await TestServer { $0.additionsPerMinute = 3 }.run { api in
            let mallory = try await api.signUp("mallory")
            let victim = try await api.signUp("victim")
            let friend = try await api.signUp("friend")
            for index in 0..<3 {
                let reply = try await api.post("/api/conversations", as: mallory, json: ["title": "spam \(index)", "members": ["victim"]])
                #expect(reply.status == .created)
            }
            let fourth = try await api.post("/api/conversations", as: mallory, json: ["title": "spam 3", "members": ["victim", "friend"]])
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.errorCode == "tooManyAdditions")
            #expect(fourth.headers[.retryAfter] != nil)
            #expect(try await api.get("/api/conversations", as: friend).decode([Wire.Conversation].self).isEmpty,
                    "a refused group adds nobody")
            let group = try await api.conversation(of: mallory, with: [friend], title: "fine")
            #expect(try await api.post("/api/conversations/\(group.id)/members", as: mallory, json: ["username": "victim"]).errorCode
                    == "tooManyAdditions", "adding to an existing group counts too")
            #expect(try await api.get("/api/conversations", as: victim).decode([Wire.Conversation].self).count == 3)
            // The flood does not lock the victim away from everyone else.
            let real = try await api.post("/api/conversations", as: friend, json: ["title": "real friends", "members": ["victim"]])
            #expect(real.status == .created, "friend can still add victim")
        }
    }

    @Test("One address (an IPv6 /64) creates at most signUpsPerHour accounts; taken names do not count; another address is not affected")
    func signUpFlood() async throws {
        try await TestServer {
            $0.signUpsPerHour = 2
            $0.trustedProxies = ["127.0.0.1"]
        }.run(.live) { api in
            func signUp(_ name: String, from address: String) async throws -> Reply {
                try await api.request(
                    .post, "/api/auth/signup", json: ["username": .string(name), "displayName": .string(name), "password": "long-enough-1"],
                    headers: [HTTPField.Name("X-Forwarded-For")!: address])
            }
            #expect(try await signUp("bot1", from: "203.0.113.9").status == .created)
            #expect(try await signUp("bot1", from: "203.0.113.9").errorCode == "usernameTaken", "a taken name does not count")
            #expect(try await signUp("bot2", from: "203.0.113.9").status == .created)
            let third = try await signUp("bot3", from: "203.0.113.9")
            #expect(third.status == .tooManyRequests)
            #expect(third.errorCode == "tooManySignUps")
            #expect(try await signUp("human", from: "198.51.100.4").status == .created)
            #expect(try await signUp("v6bot1", from: "2001:db8:1:2::1").status == .created)
            #expect(try await signUp("v6bot2", from: "2001:db8:1:2::2").status == .created)
            #expect(try await signUp("v6bot3", from: "2001:db8:1:2:ffff::3").errorCode == "tooManySignUps", "one IPv6 /64 is one address")
        }
    }

    @Test("Sign-ins and sign-ups from one address share one per-minute allowance, each costing a hash; another address is not affected")
    func passwordAttemptsShareOneAllowance() async throws {
        try await TestServer {
            $0.passwordAttemptsPerMinute = 3
            $0.trustedProxies = ["127.0.0.1"]
        }.run(.live) { api in
            func post(_ path: String, _ body: JSON, from address: String) async throws -> Reply {
                try await api.request(.post, path, json: body, headers: [HTTPField.Name("X-Forwarded-For")!: address])
            }
            let spray = "203.0.113.50"
            #expect(try await post("/api/auth/signup", ["username": "sprayer", "displayName": "S", "password": "long-enough-1"], from: spray)
                .status == .created)
            #expect(try await post("/api/auth/signin", ["username": "alice", "password": "wrong-password"], from: spray).status == .unauthorized)
            #expect(try await post("/api/auth/signin", ["username": "sprayer", "password": "long-enough-1"], from: spray).status == .ok)
            // The fourth, whichever route and however right, is refused before any hash.
            let refusedSignIn = try await post("/api/auth/signin", ["username": "sprayer", "password": "long-enough-1"], from: spray)
            #expect(refusedSignIn.status == .tooManyRequests)
            #expect(refusedSignIn.errorCode == "tooManyAttempts")
            #expect(refusedSignIn.headers[.retryAfter] != nil)
            let refusedSignUp = try await post(
                "/api/auth/signup", ["username": "sprayer2", "displayName": "S", "password": "long-enough-1"], from: spray)
            #expect(refusedSignUp.errorCode == "tooManyAttempts")
            #expect(try await post("/api/auth/signin", ["username": "sprayer2", "password": "long-enough-1"], from: "198.51.100.7")
                .status == .unauthorized, "the refused sign-up made no account")
            #expect(try await post("/api/auth/signin", ["username": "sprayer", "password": "long-enough-1"], from: "198.51.100.7")
                .status == .ok, "the owner elsewhere signs in")
        }
    }
}
