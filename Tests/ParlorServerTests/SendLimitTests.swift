import Foundation
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// How much one person can push at others: messages per minute after a burst (HTTP and the
/// WebSocket alike), and mentions that break through a mute.
@Suite("Limits on sending: messages per person, mention alerts")
struct SendLimitTests {
    /// A burst of 30, then one a minute: nothing refills while a test runs, however slow the machine.
    static func limited(_ configuration: inout ServerConfiguration) {
        configuration.messagesPerMinute = 1
        configuration.messageBurst = 30
        configuration.adminToken(OperationsTests.token)
    }

    @Test("150 texts in a burst over the WebSocket: 30 are sent, the rest refused with sendingTooFast and when to try again; others send on")
    func burstOverTheSocket() async throws {
        try await TestServer(configure: Self.limited).run(.live) { api in
            let port = try #require(api.port)
            let mallory = try await api.signUp("mallory")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: mallory, with: [carol], title: "Flood")
            let socket = try await TestSocket.session(port: port, as: mallory)
            for index in 0..<150 {
                try await socket.send("sendText", [
                    "conversation": .string(group.id.description), "id": .string(UUID().uuidString), "text": .string("spam \(index)"),
                    "requestId": .string("r\(index)"),
                ])
            }
            var acked = 0
            var refusals: [Wire.ErrorBody] = []
            for index in 0..<150 {
                let reply = try await socket.reply(to: "r\(index)")
                if reply.type == "ack" { acked += 1 } else if let error = reply.error { refusals.append(error) }
            }
            #expect(acked == 30, "acked \(acked)")
            #expect(refusals.count == 150 - acked)
            #expect(refusals.allSatisfy { $0.code == "sendingTooFast" })
            let first = try #require(refusals.first)
            #expect(first.message.contains("30 at once, then 1 a minute"))
            #expect((1...60).contains(first.retryAfter ?? 0), "a refusal says when to try again: \(String(describing: first.retryAfter))")
            let seen = try await api.messages(in: group.id, as: carol)
            #expect(seen.count == acked, "only what was acked reached carol")

            // Over HTTP the same allowance: refused with 429 and Retry-After.
            let http = try await api.post(
                "/api/conversations/\(group.id)/messages", as: mallory, json: ["id": .string(UUID().uuidString), "text": "one more"])
            #expect(http.status == .tooManyRequests)
            #expect(http.errorCode == "sendingTooFast")
            #expect(http.headers[.retryAfter] != nil)
            // Carol's allowance is her own.
            try await api.send("stop it", in: group.id, as: carol)
            let scraped = try await OperationsTests.scrape(api)
            let refusedCount = OperationsTests.value("parlor_limit_refusals_total", ["limit": "messages"], in: scraped) ?? 0
            #expect(refusedCount == Double(refusals.count + 1), "/metrics counts each refusal")
            await socket.disconnect()
        }
    }

    @Test("Retries of a message already sent are answered, past the limit too, and use up neither messages nor mention alerts")
    func retriesAreFree() async throws {
        try await TestServer {
            Self.limited(&$0)
            $0.mentionAlertsPerMinute = 2
        }.run { api in
            let mallory = try await api.signUp("mallory")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: mallory, with: [carol], title: "Flaky network")
            let id = UUID().uuidString
            let first: JSON = ["id": .string(id), "text": "are you there?"]
            @Sendable func post(_ body: JSON) async throws -> (status: Int, code: String?) {
                let reply = try await api.post("/api/conversations/\(group.id)/messages", as: mallory, json: body)
                return (Int(reply.status.code), reply.errorCode)
            }
            // A client on a bad network sends the same message 40 times.
            for _ in 0..<40 { #expect(try await post(first).status < 300) }
            // Its allowance is whole but for that one message: 29 more go through, the 30th is refused.
            for index in 0..<29 { #expect(try await post(["id": .string(UUID().uuidString), "text": .string("next \(index)")]).status < 300) }
            #expect(try await post(["id": .string(UUID().uuidString), "text": "one too many"]).code == "sendingTooFast")
            // Past the limit, a retry of what was sent is still answered.
            #expect(try await post(first).status < 300, "a retry is never refused as too fast")
            #expect(try await api.messages(in: group.id, as: carol).count == 30)
        }
        // Ten retries of a mention use one alert of an allowance of two.
        try await TestServer { $0.mentionAlertsPerMinute = 2 }.run { api in
            let mallory = try await api.signUp("mallory")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: mallory, with: [carol], title: "Flaky network")
            let id = UUID().uuidString
            for _ in 0..<10 { try await api.send("\(MentionTokens.token(for: carol.id)) hello", in: group.id, as: mallory, id: id) }
            let second = try await api.send("\(MentionTokens.token(for: carol.id)) hello again", in: group.id, as: mallory)
            #expect(second.quietMentions == nil, "ten retries used one alert of two: the second message alerts too")
            #expect(try await MentionTests.summary(group.id, as: carol, in: api).unreadMentions == 2)
        }
    }

    @Test("A token bucket: a burst at once, then the average rate; each refusal says how long until the next one fits")
    func bucketRefills() async throws {
        let buckets = TokenBuckets(perMinute: 120, burst: 3)
        let start = ContinuousClock.now
        for _ in 0..<3 { #expect(await buckets.take("alice", at: start) == nil) }
        #expect(await buckets.take("alice", at: start) == 1, "at 2 a second, the next fits within a second")
        #expect(await buckets.take("bob", at: start) == nil, "each key has its own bucket")
        #expect(await buckets.take("alice", at: start + .milliseconds(499)) == 1)
        #expect(await buckets.take("alice", at: start + .milliseconds(500)) == nil, "half a second refills one")
        #expect(await buckets.take("alice", at: start + .milliseconds(600)) != nil)
        // A long pause refills the burst, never more.
        let later = start + .seconds(3600)
        for _ in 0..<3 { #expect(await buckets.take("alice", at: later) == nil) }
        #expect(await buckets.take("alice", at: later) != nil)
        let slow = TokenBuckets(perMinute: 1, burst: 1)
        #expect(await slow.take("x", at: start) == nil)
        #expect(await slow.take("x", at: start) == 60, "one a minute: a minute to wait")
        let off = TokenBuckets(perMinute: 0, burst: 1)
        for _ in 0..<100 { #expect(await off.take("x") == nil, "0 is no limit") }
    }

    @Test("150 mentions of carol, who muted the group: 5 alert her (unread mentions, through the mute), the rest arrive as quiet mentions")
    func mentionFloodStaysQuiet() async throws {
        try await TestServer { $0.mentionAlertsPerMinute = 5 }.run { api in
            let mallory = try await api.signUp("mallory")
            let carol = try await api.signUp("carol")
            let bob = try await api.signUp("bob")
            let group = try await api.conversation(of: mallory, with: [carol, bob], title: "Flood")
            #expect(try await api.request(.put, "/api/conversations/\(group.id)/muted", as: carol).status.code < 300)
            var sent: [Wire.Message] = []
            for index in 0..<150 {
                sent.append(try await api.send("\(MentionTokens.token(for: carol.id)) look \(index)", in: group.id, as: mallory))
            }
            let carols = try await MentionTests.summary(group.id, as: carol, in: api)
            #expect(carols.unreadCount == 150, "every message is delivered")
            #expect(carols.unreadMentions == 5, "only the allowance of mentions alerts: \(carols.unreadMentions)")
            #expect(sent.prefix(5).allSatisfy { $0.quietMentions == nil })
            #expect(sent.dropFirst(5).allSatisfy { $0.quietMentions == [carol.id] }, "the rest say carol is mentioned quietly")
            #expect(sent.last?.text?.contains(MentionTokens.token(for: carol.id)) == true, "the text is unchanged")

            // Another sender's mention, or mallory's of someone else, has its own allowance.
            try await api.send("\(MentionTokens.token(for: carol.id)) sorry about that", in: group.id, as: bob)
            try await api.send("\(MentionTokens.token(for: bob.id)) and you", in: group.id, as: mallory)
            #expect(try await MentionTests.summary(group.id, as: carol, in: api).unreadMentions == 6)
            #expect(try await MentionTests.summary(group.id, as: bob, in: api).unreadMentions == 1)
        }
    }

    @Test("An edit that adds a mention past the allowance does not alert either")
    func editsCannotGetAround() async throws {
        try await TestServer { $0.mentionAlertsPerMinute = 1 }.run(.live) { api in
            let port = try #require(api.port)
            let mallory = try await api.signUp("mallory")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: mallory, with: [carol])
            try await api.send("\(MentionTokens.token(for: carol.id)) hi", in: direct.id, as: mallory)
            let plain = try await api.send("nothing to see", in: direct.id, as: mallory)
            let socket = try await TestSocket.session(port: port, as: mallory)
            try await socket.send("edit", [
                "conversation": .string(direct.id.description), "message": .string(plain.id.description),
                "text": .string("\(MentionTokens.token(for: carol.id)) gotcha"), "requestId": "edit",
            ])
            let changed = try await socket.next("messageChanged")
            #expect(changed.message?.quietMentions == [carol.id])
            #expect(try await MentionTests.summary(direct.id, as: carol, in: api).unreadMentions == 1)
            await socket.disconnect()
        }
    }
}
