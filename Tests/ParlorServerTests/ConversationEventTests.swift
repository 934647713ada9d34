import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Lines in the transcript about the conversation itself")
struct ConversationEventTests {
    /// The `event` lines of a conversation as `person` reads them, oldest first.
    static func lines(in conversation: ConversationID, as person: Person, api: API) async throws -> [String] {
        try await api.messages(in: conversation, as: person).filter { $0.kind == "event" }.compactMap(\.text)
    }

    @Test("Adding, naming, admins, removing and leaving each write one line, read by each as theirs (\"You added Carol\", \"Alice added you\"); none counts as unread")
    func linesForEveryone() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, carol, _) = try await api.threePeople().cast
            let group = try await api.conversation(of: alice, with: [bob], title: "Plans")
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            _ = try await api.post("/api/conversations/\(group.id)/members", as: alice, json: ["username": "carol"])
            let live = try await bobSocket.messages(1)
            #expect(live.map(\.kind) == ["event"] && live.map(\.text) == ["Alice added Carol"], "Bob sees it at once")
            #expect(try await Self.lines(in: group.id, as: alice, api: api) == ["You added Carol"])
            #expect(try await Self.lines(in: group.id, as: carol, api: api) == ["Alice added you"])

            _ = try await api.request(.patch, "/api/conversations/\(group.id)", as: bob, json: ["title": "Friday"])
            _ = try await api.request(.patch, "/api/conversations/\(group.id)", as: bob, json: ["title": "Friday"])
            _ = try await api.request(.put, "/api/conversations/\(group.id)/admins/\(bob.id)", as: alice)
            _ = try await api.request(.put, "/api/conversations/\(group.id)/admins/\(bob.id)", as: alice)
            _ = try await api.request(.delete, "/api/conversations/\(group.id)/members/\(carol.id)", as: alice)
            _ = try await api.request(.delete, "/api/conversations/\(group.id)/members/\(bob.id)", as: bob)
            _ = try await api.request(.patch, "/api/conversations/\(group.id)", as: alice, json: ["title": ""])
            #expect(try await Self.lines(in: group.id, as: alice, api: api) == [
                "You added Carol", "Bob named the conversation “Friday”", "You made Bob an admin", "You removed Carol",
                "Bob left the conversation", "You removed the conversation’s name",
            ], "one line per change: the same name or admin twice writes one")
            let summary = try await api.get("/api/conversations/\(group.id)", as: alice).decode(Wire.Conversation.self)
            #expect(summary.unreadCount == 0 && summary.preview == "You removed the conversation’s name", "read, never counted")
            await bobSocket.disconnect()
        }
    }

    @Test("A group's photo: any member sets it from their own image upload, every member sees and fetches it, a line says who; a 1:1, someone else's upload, a file or an outsider is refused")
    func groupPhoto() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, carol, _) = try await api.threePeople().cast
            let group = try await api.conversation(of: alice, with: [bob], title: "Plans")
            let direct = try await api.conversation(of: alice, with: [carol])
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            let photo = try await AttachmentTests.upload(AttachmentTests.png, as: bob, in: api)
            let path = "/api/conversations/\(group.id)"

            let set = try await api.request(.patch, path, as: bob, json: ["photo": .string(photo.hash)])
            let changed = try set.decode(Wire.Conversation.self)
            #expect(set.status == .ok && changed.photoURL == photo.url, "any member, not only an admin")
            let live = try await bobSocket.messages(1)
            #expect(live.map(\.text) == ["You changed the group photo"])
            #expect(try await api.get(path, as: alice).decode(Wire.Conversation.self).photoURL == photo.url)
            #expect(try await api.get(photo.url, as: alice).status == .ok, "every member fetches it")
            #expect(try await api.get(photo.url, as: carol).status == .notFound, "nobody else")
            #expect(try await Self.lines(in: group.id, as: alice, api: api) == ["Bob changed the group photo"])
            let again = try await api.request(.patch, path, as: bob, json: ["photo": .string(photo.hash)])
            #expect(again.status == .ok, "the same photo again changes nothing")

            let alices = try await AttachmentTests.upload(TestImages.png(shade: 4), as: alice, in: api)
            let notes = try await AttachmentTests.upload(Data("plain words".utf8), as: alice, in: api)
            let refusals: [(Person, String, String, String)] = [
                (alice, "/api/conversations/\(direct.id)", alices.hash, "notAGroup"),
                (alice, path, photo.hash, "avatarNotFound"), (alice, path, notes.hash, "improperFileType"),
                (carol, path, alices.hash, "notFound"),
            ]
            for (person, target, hash, code) in refusals {
                let reply = try await api.request(.patch, target, as: person, json: ["photo": .string(hash)])
                #expect(reply.errorCode == code, "\(code): \(reply.text)")
            }
            #expect(try await api.request(.patch, path, as: alice, json: [:]).status == .badRequest, "nothing to change")
            let both = try await api.request(.patch, path, as: alice, json: ["title": "Renamed", "photo": .string(photo.hash)])
            #expect(both.errorCode == "avatarNotFound")
            #expect(try await api.get(path, as: bob).decode(Wire.Conversation.self).title == "Plans", "a refused photo leaves the name as it was")

            _ = try await api.request(.patch, path, as: alice, json: ["photo": .null])
            #expect(try await api.get(path, as: bob).decode(Wire.Conversation.self).photoURL == nil)
            #expect(try await api.get(photo.url, as: alice).status == .notFound, "removed, it is Bob's upload again")
            #expect(try await Self.lines(in: group.id, as: bob, api: api) == ["You changed the group photo", "Alice removed the group photo"])
            await bobSocket.disconnect()
        }
    }

    @Test("A group everyone left keeps no photo: the upload is its owner's again")
    func lastToLeaveTakesThePhoto() async throws {
        try await TestServer().run(.live) { api, store in
            let (alice, bob, _, _) = try await api.threePeople().cast
            let group = try await api.conversation(of: alice, with: [bob], title: "Plans")
            let photo = try await AttachmentTests.upload(AttachmentTests.png, as: bob, in: api)
            _ = try await api.request(.patch, "/api/conversations/\(group.id)", as: bob, json: ["photo": .string(photo.hash)])
            for person in [alice, bob] {
                #expect(try await store.conversation(id: group.id)?.photo == photo.hash, "kept while someone is in it")
                let left = try await api.request(.delete, "/api/conversations/\(group.id)/members/\(person.id)", as: person)
                #expect(left.status == .noContent || left.status == .ok, "\(left.text)")
            }
            #expect(try await store.conversation(id: group.id)?.photo == nil)
            #expect(try await api.get(photo.url, as: alice).status == .notFound)
        }
    }

    @Test("A line cannot be replied to, reacted to, covered with a sticker or unsent, and search does not find it")
    func linesStay() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, _, _) = try await api.threePeople().cast
            let group = try await api.conversation(of: alice, with: [bob], title: "Plans")
            _ = try await api.post("/api/conversations/\(group.id)/members", as: alice, json: ["username": "carol"])
            let line = try #require(try await api.messages(in: group.id, as: alice).first { $0.kind == "event" })
            let socket = try await TestSocket.session(port: port, as: alice)

            let reply = try await api.post("/api/conversations/\(group.id)/messages", as: bob, json: [
                "id": .string(UUID().uuidString), "text": "Welcome!", "replyTo": .string(line.id.description),
            ])
            #expect(reply.status == .notFound && reply.errorCode == "replyTargetNotFound")
            let reaction = try await ReactionTests.react(socket, "❤️", to: line.id.description, in: group.id)
            #expect(reaction.error?.code == "notFound")
            let unsent = try await MessageChangeTests.unsend(socket, line)
            #expect(unsent.error?.code == "notUnsendable")
            #expect(try await SearchTests.search("added", as: bob, in: api).decode(Wire.SearchResults.self).results.isEmpty)
            #expect(try await api.messages(in: group.id, as: alice).contains { $0.id == line.id && $0.kind == "event" }, "the line stays")
            await socket.disconnect()
        }
    }
}
