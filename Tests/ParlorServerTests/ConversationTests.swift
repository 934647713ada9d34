import Foundation
import HTTPTypes
import ParlorInput
import ParlorServer
import Testing

@Suite("Conversations and members")
struct ConversationTests {
    @Test("A 1:1 conversation is reused whoever starts it; three people or a title make a group")
    func createOneToOneAndGroups() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])
            #expect(!direct.isGroup)
            #expect(direct.title == nil)
            #expect(Set(direct.members.map(\.username)) == ["alice", "bob"])
            #expect(direct.lastSequence == 0)
            #expect(try await api.conversation(of: alice, with: [bob]).id == direct.id)
            #expect(try await api.conversation(of: bob, with: [alice]).id == direct.id)

            let group = try await api.conversation(of: alice, with: [bob, carol])
            #expect(group.isGroup)
            #expect(group.members.count == 3)
            let second = try await api.conversation(of: alice, with: [bob, carol])
            #expect(second.id != group.id, "groups are never reused")
            let titled = try await api.conversation(of: alice, with: [bob], title: "  Book club ")
            #expect(titled.isGroup)
            #expect(titled.title == "Book club")

            let list = try await api.get("/api/conversations", as: bob).decode([Wire.Conversation].self)
            #expect(Set(list.map(\.id)) == [direct.id, group.id, second.id, titled.id])
            let carols = try await api.get("/api/conversations", as: carol).decode([Wire.Conversation].self)
            #expect(Set(carols.map(\.id)) == [group.id, second.id])
        }
    }

    @Test("Creating refuses unknown people (404 unknownUser), nobody, or only yourself (400)")
    func createRefusals() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let unknown = try await api.post("/api/conversations", as: alice, json: ["members": ["nobody"]])
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "unknownUser")
            let empty = try await api.post("/api/conversations", as: alice, json: ["members": []])
            #expect(empty.status == .badRequest)
            let alone = try await api.post("/api/conversations", as: alice, json: ["members": ["alice"]])
            #expect(alone.status == .badRequest)
            #expect(alone.errorCode == "invalidValue")
            let longTitle = try await api.post(
                "/api/conversations", as: alice, json: ["members": ["alice"], "title": "\(String(repeating: "x", count: 101))"])
            #expect(longTitle.status == .badRequest)
            #expect(try await api.post("/api/conversations", json: ["members": ["alice"]]).status == .unauthorized)
        }
    }

    @Test("Renaming sets, trims and clears the title; over 100 characters is refused")
    func rename() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let group = try await api.conversation(of: alice, with: [bob], title: "Old")
            let path = "/api/conversations/\(group.id)"
            let renamed = try await api.request(.patch, path, as: bob, json: ["title": " New name "])
            #expect(renamed.status == .ok)
            #expect(try renamed.decode(Wire.Conversation.self).title == "New name")
            #expect(try await api.get(path, as: alice).decode(Wire.Conversation.self).title == "New name")
            let cleared = try await api.request(.patch, path, as: alice, json: ["title": ""])
            #expect(try cleared.decode(Wire.Conversation.self).title == nil)
            let long = try await api.request(.patch, path, as: alice, json: ["title": "\(String(repeating: "x", count: 101))"])
            #expect(long.status == .badRequest)
        }
    }

    @Test("People are added to groups only; the new member sees the conversation")
    func addMembers() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob], title: "Plans")
            #expect(try await api.get("/api/conversations/\(group.id)", as: carol).status == .notFound)
            let added = try await api.post("/api/conversations/\(group.id)/members", as: bob, json: ["username": "carol"])
            #expect(added.status == .ok)
            #expect(try added.decode(Wire.Conversation.self).members.map(\.username).contains("carol"))
            #expect(try await api.get("/api/conversations/\(group.id)", as: carol).status == .ok)
            try await api.send("hello carol", in: group.id, as: carol)

            let direct = try await api.conversation(of: alice, with: [bob])
            let refused = try await api.post("/api/conversations/\(direct.id)/members", as: alice, json: ["username": "carol"])
            #expect(refused.status == .conflict)
            #expect(refused.errorCode == "notAGroup")
            let unknown = try await api.post("/api/conversations/\(group.id)/members", as: alice, json: ["username": "nobody"])
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "unknownUser")
        }
    }

    @Test("Removing: an admin removes anyone from a group, only yourself from a 1:1 (409 notAGroup); the removed person loses access")
    func removeMembers() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol])
            let removed = try await api.request(.delete, "/api/conversations/\(group.id)/members/\(carol.id)", as: alice)
            #expect(removed.status == .noContent)
            #expect(try await api.get("/api/conversations/\(group.id)", as: carol).status == .notFound)
            #expect(try await api.get("/api/conversations/\(group.id)", as: alice).decode(Wire.Conversation.self).members.count == 2)
            let again = try await api.request(.delete, "/api/conversations/\(group.id)/members/\(carol.id)", as: alice)
            #expect(again.status == .notFound, "carol is no longer a member")

            let direct = try await api.conversation(of: alice, with: [bob])
            let other = try await api.request(.delete, "/api/conversations/\(direct.id)/members/\(bob.id)", as: alice)
            #expect(other.status == .conflict)
            #expect(other.errorCode == "notAGroup")
            let leave = try await api.request(.delete, "/api/conversations/\(direct.id)/members/\(alice.id)", as: alice)
            #expect(leave.status == .noContent)
            #expect(try await api.get("/api/conversations/\(direct.id)", as: alice).status == .notFound)
        }
    }

    @Test("Someone outside a conversation gets the same 404 notFound as for one that does not exist, on every endpoint")
    func outsidersSeeNothing() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let mallory = try await api.signUp("mallory")
            let group = try await api.conversation(of: alice, with: [bob], title: "Secret")
            let message = try await api.send("secret", in: group.id, as: alice)
            for id in [group.id, UUID().uuidString, "not-a-uuid"] {
                let base = "/api/conversations/\(id)"
                let replies: [(String, Reply)] = [
                    ("GET", try await api.get(base, as: mallory)),
                    ("PATCH", try await api.request(.patch, base, as: mallory, json: ["title": "Mine"])),
                    ("POST members", try await api.post("\(base)/members", as: mallory, json: ["username": "mallory"])),
                    ("DELETE member", try await api.request(.delete, "\(base)/members/\(alice.id)", as: mallory)),
                    ("GET messages", try await api.get("\(base)/messages", as: mallory)),
                    ("POST messages", try await api.post("\(base)/messages", as: mallory, json: ["id": "\(UUID().uuidString)", "text": "hi"])),
                    ("POST retry of alice's id", try await api.post("\(base)/messages", as: mallory, json: ["id": "\(message.id)", "text": "hi"])),
                    ("GET staged", try await api.get("\(base)/staged", as: mallory)),
                    ("GET reads", try await api.get("\(base)/reads", as: mallory)),
                    ("PUT admin", try await api.request(.put, "\(base)/admins/\(mallory.id)", as: mallory)),
                    ("DELETE admin", try await api.request(.delete, "\(base)/admins/\(alice.id)", as: mallory)),
                    ("PUT muted", try await api.request(.put, "\(base)/muted", as: mallory)),
                ]
                for (what, reply) in replies {
                    #expect(reply.status == .notFound, "\(what) \(id): \(reply.text)")
                    #expect(reply.errorCode == "notFound", "\(what) \(id): \(reply.text)")
                }
            }
            let conversation = try await api.get("/api/conversations/\(group.id)", as: alice).decode(Wire.Conversation.self)
            #expect(conversation.title == "Secret")
            #expect(conversation.members.count == 2)
            #expect(try await api.messages(in: group.id, as: alice).map(\.text) == ["secret"])
        }
    }

    @Test("User search matches usernames and display names, case-insensitively")
    func userSearch() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            _ = try await api.signUp("bob")
            _ = try await api.signUp("bobby")
            let found = try await api.get("/api/users?query=BOB", as: alice).decode([Wire.User].self)
            #expect(Set(found.map(\.username)) == ["bob", "bobby"])
            let everyone = try await api.get("/api/users", as: alice).decode([Wire.User].self)
            #expect(everyone.count == 3)
            #expect(try await api.get("/api/users").status == .unauthorized)
        }
    }

    @Test("The conversation list shows unread counts (others' messages) and a preview of the newest message")
    func unreadAndPreview() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            try await api.send("one", in: direct.id, as: alice)
            try await api.send("two", in: direct.id, as: alice)
            try await api.send("three", in: direct.id, as: bob)
            let bobs = try #require(try await api.get("/api/conversations", as: bob).decode([Wire.Conversation].self).first)
            #expect(bobs.unreadCount == 2)
            #expect(bobs.lastSequence == 3)
            #expect(bobs.preview == "You: three", "his own message, under \"You\"")
            let alices = try #require(try await api.get("/api/conversations", as: alice).decode([Wire.Conversation].self).first)
            #expect(alices.unreadCount == 1)
            #expect(alices.preview == "Bob: three")
        }
    }
}
