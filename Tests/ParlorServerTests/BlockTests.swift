import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Blocking a person")
struct BlockTests {
    /// Starting a conversation with `usernames`, as `person`.
    static func start(_ api: API, with usernames: [String], title: String? = nil, as person: Person) async throws -> Reply {
        var body: [String: JSON] = ["members": .array(usernames.map { .string($0) })]
        if let title { body["title"] = .string(title) }
        return try await api.request(.post, "/api/conversations", as: person, json: .object(body))
    }

    @Test("Blocked, Bob can neither start a conversation with Alice nor add her, and gets the very answer a name nobody has gets; search does not find her; Alice is told why she cannot reach him")
    func blockedCannotReach() async throws {
        try await TestServer().run(.live) { api in
            let (alice, bob, carol, _) = try await api.threePeople().cast
            let blocked = try await api.request(.put, "/api/me/blocked/\(bob.id)", as: alice)
            #expect(blocked.status == .ok)
            #expect(try blocked.decode([Wire.User].self).map(\.id) == [bob.id], "Alice's list names Bob")
            #expect(try await api.get("/api/me/blocked", as: bob).decode([Wire.User].self).isEmpty, "Bob's list is his own")

            // Bob's attempts, each compared with the same attempt at a name nobody has.
            let group = try await api.conversation(of: bob, with: [carol], title: "Bob and Carol")
            let attempts: [(String, @Sendable (String) async throws -> Reply)] = [
                ("a 1:1 (they had one before the block)", { try await Self.start(api, with: [$0], as: bob) }),
                ("a group", { try await Self.start(api, with: [carol.username, $0], as: bob) }),
                ("adding her", { try await api.post("/api/conversations/\(group.id)/members", as: bob, json: ["username": .string($0)]) }),
            ]
            for (what, attempt) in attempts {
                let toAlice = try await attempt("alice")
                let toNobody = try await attempt("zelda")
                #expect(toAlice.status == toNobody.status && toAlice.status == .notFound, "\(what)")
                #expect(toAlice.text == toNobody.text.replacingOccurrences(of: "zelda", with: "alice"), "\(what): \(toAlice.text)")
            }
            let members = try await api.get("/api/conversations/\(group.id)", as: carol).decode(Wire.Conversation.self).members
            #expect(!members.map(\.id).contains(alice.id), "Alice was not added")
            #expect(try await api.get("/api/users?query=ali", as: bob).decode([Wire.User].self).isEmpty, "Bob's search does not find her")
            #expect(try await api.get("/api/users?query=ali", as: carol).decode([Wire.User].self).map(\.id) == [alice.id])
            // Carol, whom nobody blocked, may still add both to a group.
            #expect(try await Self.start(api, with: ["alice", "bob"], title: "All", as: carol).status == .created)

            let own = try await Self.start(api, with: ["bob"], title: "Again", as: alice)
            #expect(own.status == .conflict && own.errorCode == "personBlocked")
            #expect(own.text.contains("unblock them in Settings"), "\(own.text)")

            let unblocked = try await api.request(.delete, "/api/me/blocked/\(bob.id)", as: alice).decode([Wire.User].self)
            #expect(unblocked.isEmpty)
            #expect(try await Self.start(api, with: ["alice"], title: "Sorry", as: bob).status == .created, "unblocked: Bob reaches her again")
        }
    }

    @Test("Typing and read receipts cross a block in neither direction; the others in the group see both as before")
    func presenceSeparated() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, carol, _) = try await api.threePeople().cast
            let group = try await api.conversation(of: alice, with: [bob, carol], title: "Plans")
            try await api.send("one", in: group.id, as: carol)
            _ = try await api.request(.put, "/api/me/blocked/\(bob.id)", as: alice)
            let sockets = (
                alice: try await TestSocket.session(port: port, as: alice), bob: try await TestSocket.session(port: port, as: bob),
                carol: try await TestSocket.session(port: port, as: carol)
            )
            for (typist, seenBy, notSeenBy) in [(sockets.bob, sockets.carol, sockets.alice), (sockets.alice, sockets.carol, sockets.bob)] {
                try await typist.send("typing", ["conversation": .string(group.id.description), "typing": true])
                #expect(try await seenBy.next("typing").typingNotice?.isTyping == true)
                #expect(try await notSeenBy.frames(within: .milliseconds(300)).compactMap(\.typingNotice).isEmpty)
            }
            try await ReadReceiptTests.read(sockets.bob, group.id, upTo: 1)
            _ = try await sockets.carol.next("readReceipt")
            #expect(try await sockets.alice.frames(within: .milliseconds(300)).filter { $0.type == "readReceipt" }.isEmpty)
            try await ReadReceiptTests.read(sockets.alice, group.id, upTo: 1)
            #expect(try await sockets.bob.frames(within: .milliseconds(300)).filter { $0.type == "readReceipt" }.isEmpty)
            let readsForAlice = try await api.get("/api/conversations/\(group.id)/reads", as: alice).decode([Wire.ReadReceipt].self)
            let readsForCarol = try await api.get("/api/conversations/\(group.id)/reads", as: carol).decode([Wire.ReadReceipt].self)
            #expect(!readsForAlice.contains { $0.userID == bob.id })
            #expect(Set(readsForCarol.map(\.userID)).isSuperset(of: [alice.id, bob.id]))
            for socket in [sockets.alice, sockets.bob, sockets.carol] { await socket.disconnect() }
        }
    }

    @Test("Blocking yourself, nobody, a malformed id or without signing in is refused")
    func badInput() async throws {
        try await TestServer().run(.live) { api in
            let alice = try await api.signUp("alice")
            let yourself = try await api.request(.put, "/api/me/blocked/\(alice.id)", as: alice)
            #expect(yourself.status == .badRequest && yourself.text.contains("yourself"))
            #expect(try await api.request(.put, "/api/me/blocked/\(UUID())", as: alice).status == .notFound)
            #expect(try await api.request(.put, "/api/me/blocked/not-an-id", as: alice).status == .notFound)
            #expect(try await api.request(.put, "/api/me/blocked/\(UUID())").status == .unauthorized)
            #expect(try await api.get("/api/me/blocked").status == .unauthorized)
            #expect(try await api.get("/api/me/blocked", as: alice).decode([Wire.User].self).isEmpty)
        }
    }
}
