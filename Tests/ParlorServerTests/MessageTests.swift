import Foundation
import HTTPTypes
import ParlorInput
import ParlorServer
import Testing

@Suite("Sending and reading messages over HTTP")
struct MessageTests {
    @Test("Concurrent sends get gapless sequence numbers 1...n, and history returns them in order")
    func gaplessSequences() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let sent = try await withThrowingTaskGroup(of: Wire.Message.self) { group in
                for index in 0..<30 {
                    group.addTask { try await api.send("message \(index)", in: direct.id, as: index.isMultiple(of: 2) ? alice : bob) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sent.map(\.sequence).sorted() == Array(1...30))
            let history = try await api.messages(in: direct.id, as: bob)
            #expect(history.map(\.sequence) == Array(1...30))
            #expect(Set(history.map(\.id)) == Set(sent.map(\.id)))
            let first = try #require(history.first)
            #expect(first.kind == "text")
            #expect(first.conversation == direct.id)
            #expect(["Alice", "Bob"].contains(first.senderName))
            #expect(abs(first.sentAt.timeIntervalSinceNow) < 300, "sentAt (read as ISO 8601) is the time of sending: \(first.sentAt)")
        }
    }

    @Test("History pages with after= and limit=, and without after returns the newest")
    func paging() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            for index in 1...12 { try await api.send("m\(index)", in: direct.id, as: alice) }
            #expect(try await api.messages(in: direct.id, as: bob, after: 4, limit: 3).map(\.sequence) == [5, 6, 7])
            #expect(try await api.messages(in: direct.id, as: bob, after: 12).isEmpty)
            #expect(try await api.messages(in: direct.id, as: bob, limit: 2).map(\.sequence) == [11, 12])
            for query in ["limit=abc", "limit=-5", "limit=0", "limit=501", "after=1.5", "after=-1", "after=x&limit=2"] {
                let reply = try await api.get("/api/conversations/\(direct.id)/messages?\(query)", as: bob)
                #expect(reply.status == .badRequest, "\(query)")
                #expect(reply.errorCode == "invalidValue", "\(query)")
            }
        }
    }

    @Test("A retried send with the same id is idempotent: one message, the same sequence, the original text")
    func retryIsIdempotent() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let id = UUID().uuidString
            let first = try await api.send("only once", in: direct.id, as: alice, id: id)
            let retry = try await api.send("only once", in: direct.id, as: alice, id: id)
            let changed = try await api.send("changed on retry", in: direct.id, as: alice, id: id)
            #expect(retry.sequence == first.sequence)
            #expect(changed.sequence == first.sequence)
            #expect(changed.text == "only once", "a retry returns what was committed")
            let history = try await api.messages(in: direct.id, as: bob)
            #expect(history.map(\.id.description) == [id])
        }
    }

    @Test("An id already used by someone else in the conversation is refused with 409 idInUse")
    func idOfAnotherSender() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let original = try await api.send("alice's", in: direct.id, as: alice)
            let stolen = try await api.post("/api/conversations/\(direct.id)/messages", as: bob, json: ["id": "\(original.id)", "text": "bob's"])
            #expect(stolen.status == .conflict)
            #expect(stolen.errorCode == "idInUse")
            let history = try await api.messages(in: direct.id, as: alice)
            #expect(history.map(\.text) == ["alice's"])
            #expect(history.map(\.sender) == [alice.id])
        }
    }

    @Test("Text over 10,000 characters is 413 textExceedsMaxSize; 10,000 is fine; blank text is 400")
    func textLimits() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let path = "/api/conversations/\(direct.id)/messages"
            let tooLong = try await api.post(path, as: alice, json: ["id": "\(UUID().uuidString)", "text": "\(String(repeating: "é", count: 10_001))"])
            #expect(tooLong.status == .contentTooLarge)
            #expect(tooLong.errorCode == "textExceedsMaxSize")
            try await api.send(String(repeating: "é", count: 10_000), in: direct.id, as: alice)
            let blank = try await api.post(path, as: alice, json: ["id": "\(UUID().uuidString)", "text": "  \n "])
            #expect(blank.status == .badRequest)
            #expect(blank.errorCode == "invalidValue")
            #expect(try await api.messages(in: direct.id, as: alice).count == 1)
        }
    }

    @Test("A message is text or a sticker, with a UUID id: anything else is refused")
    func malformedSends() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let path = "/api/conversations/\(direct.id)/messages"
            let both = try await api.post(path, as: alice, json: ["id": "\(UUID().uuidString)", "text": "hi", "sticker": "x/y"])
            #expect(both.status == .badRequest)
            #expect(both.errorCode == "invalidValue")
            let neither = try await api.post(path, as: alice, json: ["id": "\(UUID().uuidString)"])
            #expect(neither.status == .badRequest)
            let badID = try await api.post(path, as: alice, json: ["id": "message-1", "text": "hi"])
            #expect(badID.status == .badRequest)
            #expect(badID.errorCode == "malformedBody")
            let huge = try await api.request(.post, path, as: alice, body: Data(repeating: 0x20, count: 200 * 1024))
            #expect(huge.status == .contentTooLarge)
            #expect(huge.errorCode == "bodyTooLarge")
        }
    }

    @Test("Stickers of the server's packs are sent with their image URL; an unknown sticker is 404 fileNotFound")
    func stickers() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let directory = try await api.get("/api/apps", as: alice).decode(Wire.Directory.self)
            let sticker = try #require(directory.packs.first?.stickers.first)
            let sent = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: ["id": "\(UUID().uuidString)", "sticker": "\(sticker.id)"])
            #expect(sent.status == .created)
            let message = try sent.decode(Wire.Message.self)
            #expect(message.kind == "sticker")
            #expect(message.sticker == sticker)
            let image = try await api.get(sticker.url)
            #expect(image.status == .ok)
            #expect(image.headers[.contentType]?.hasPrefix("image/") == true)

            let unknown = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: ["id": "\(UUID().uuidString)", "sticker": "nope/none.png"])
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "fileNotFound")
            let list = try await api.get("/api/conversations", as: bob).decode([Wire.Conversation].self)
            #expect(list.first?.preview == "Alice sent a sticker")
        }
    }

    @Test("Nothing staged reads as a staged reply without 'staged'")
    func emptyStaged() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let reply = try await api.get("/api/conversations/\(direct.id)/staged", as: alice)
            #expect(reply.status == .ok)
            #expect(try reply.decode(Wire.StagedReply.self).staged == nil)
        }
    }
}
