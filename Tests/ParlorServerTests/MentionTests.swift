import Foundation
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

@Suite("Mentions")
struct MentionTests {
    static func summary(_ conversation: ConversationID, as person: Person, in api: API) async throws -> Wire.Conversation {
        try await api.get("/api/conversations/\(conversation)", as: person).decode(Wire.Conversation.self)
    }

    @Test("A mention is a member's id in the text: counted unread for that member only until they read, shown by name in previews, quotes and search")
    func mentionsAreReferences() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol], title: "Plans")
            let hi = try await api.send("Hi \(MentionTokens.token(for: bob.id)), dinner at eight?", in: group.id, as: alice)
            #expect(hi.text == "Hi <@\(bob.id)>, dinner at eight?", "the text keeps the reference, not a name")

            let bobs = try await Self.summary(group.id, as: bob, in: api)
            #expect(bobs.unreadCount == 1 && bobs.unreadMentions == 1)
            let carols = try await Self.summary(group.id, as: carol, in: api)
            #expect(carols.unreadMentions == 0, "carol is not mentioned")
            #expect(carols.preview == "Alice: Hi @Bob, dinner at eight?", "the list shows the name")

            let reply = try await api.post("/api/conversations/\(group.id)/messages", as: carol, json: [
                "id": .string(UUID().uuidString), "text": "Count me in", "replyTo": .string(hi.id.description),
            ]).decode(Wire.Message.self)
            #expect(reply.replyTo?.preview == "Hi @Bob, dinner at eight?")
            let found = try await SearchTests.search("dinner", as: carol, in: api).decode(Wire.SearchResults.self)
            #expect(found.results.map { SearchTests.marked($0.excerpt) } == ["Hi @Bob, [dinner] at eight?"])
            #expect(try await SearchTests.search("bob", as: carol, in: api).decode(Wire.SearchResults.self).results.isEmpty,
                    "a mention is not a word of the message")

            let socket = try await TestSocket.session(port: port, as: bob)
            try await socket.send("read", ["conversation": .string(group.id.description), "sequence": .int(reply.sequence)])
            _ = try await socket.framesQueued()
            #expect(try await Self.summary(group.id, as: bob, in: api).unreadMentions == 0, "read, the mention no longer counts")
            await socket.disconnect()
        }
    }

    @Test("Mentioning someone outside the conversation, or too many people, is refused; an unsent mention stops counting")
    func refusalsAndUnsend() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let dave = try await api.signUp("dave")
            let direct = try await api.conversation(of: alice, with: [bob])
            let outsider = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                "id": .string(UUID().uuidString), "text": .string("Ask \(MentionTokens.token(for: dave.id))"),
            ])
            #expect(outsider.status == .badRequest && outsider.errorCode == "mentionNotMember")
            let look = try await api.send("\(MentionTokens.token(for: bob.id)) look", in: direct.id, as: alice)
            let plain = try await api.send("no one here", in: direct.id, as: alice)
            #expect(try await Self.summary(direct.id, as: bob, in: api).unreadMentions == 1)
            let socket = try await TestSocket.session(port: port, as: alice)
            try await socket.send("unsend", ["conversation": .string(direct.id.description), "message": .string(look.id.description)])
            try await socket.send("edit", [
                "conversation": .string(direct.id.description), "message": .string(plain.id.description),
                "text": .string("\(MentionTokens.token(for: bob.id)) here after all"),
            ])
            try await socket.send("edit", [
                "conversation": .string(direct.id.description), "message": .string(plain.id.description),
                "text": .string("and \(MentionTokens.token(for: dave.id))"), "requestId": "edit",
            ])
            #expect(try await socket.reply(to: "edit").error?.code == "mentionNotMember", "an edit cannot mention an outsider either")
            let bobs = try await Self.summary(direct.id, as: bob, in: api)
            #expect(bobs.unreadMentions == 1, "the unsent mention is gone; the one an edit added counts")
            #expect(bobs.preview == "Alice: @Bob here after all")
            await socket.disconnect()
        }
    }

    @Test("At most maxMentions people in one message; one person mentioned twice counts once")
    func limit() throws {
        let everyone = (0...Messaging.maxMentions).map { _ in UserID() }
        let tooMany = everyone.map(MentionTokens.token(for:)).joined(separator: " ")
        let error = #expect(throws: APIError.self) { try Messaging.checkMentions(in: tooMany, members: everyone) }
        #expect(error?.code == "tooManyMentions")
        let twenty = Array(everyone.dropLast())
        let repeated = twenty.map(MentionTokens.token(for:)).joined(separator: " ")
        #expect(throws: Never.self) { try Messaging.checkMentions(in: repeated + repeated, members: twenty) }
        #expect(MentionTokens.users(in: "<@\(everyone[0])> <@not-an-id-at-all-but-thirty-six-chars> <@\(everyone[0])").count == 1,
                "a malformed or unclosed token is only text")
    }
}
