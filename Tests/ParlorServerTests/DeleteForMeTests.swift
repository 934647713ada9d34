import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Deleting a conversation for yourself")
struct DeleteForMeTests {
    @Test("Deleted, it leaves Alice's list on all her tabs and its history is hidden from her everywhere; Bob keeps all of it and is told nothing; his next message brings it back holding only that")
    func deletedForOne() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, carol, direct) = try await api.threePeople().cast
            let group = try await api.conversation(of: alice, with: [carol], title: "Cafés")
            try await api.send("the cafe on the corner, the one with the red door", in: group.id, as: carol)
            let question = try await api.send("lunch at the cafe?", in: direct.id, as: bob)
            try await api.send("sure", in: direct.id, as: alice)
            let aliceOtherTab = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            let path = "/api/conversations/\(direct.id)"

            let deleted = try await api.request(.delete, path, as: alice).decode(Wire.Conversation.self)
            #expect(deleted.isDeleted && deleted.unreadCount == 0)
            #expect(deleted.preview == nil && deleted.lastActivityAt == nil, "not even its last line shows")
            #expect(try await aliceOtherTab.next("conversation").conversationInfo?.isDeleted == true, "her other tab drops it")
            #expect(try await bobSocket.framesQueued().isEmpty, "Bob is told nothing")
            let list = try await api.get("/api/conversations", as: alice).decode([Wire.Conversation].self)
            #expect(!list.contains { $0.id == direct.id }, "out of her list")
            #expect(try await api.messages(in: direct.id, as: alice).isEmpty, "its history is hidden from her")
            #expect(try await SearchTests.search("lunch", as: alice, in: api).decode(Wire.SearchResults.self).results.isEmpty)
            // Search leaves the deleted history out before counting: the one match elsewhere (older,
            // and longer, so ranked after the deleted one) is found.
            let one = try await SearchTests.search("cafe", as: alice, in: api, limit: 1).decode(Wire.SearchResults.self)
            #expect(one.results.map(\.conversation) == [group.id])
            #expect(try await api.get("\(path)/messages/\(question.id)/replies", as: alice).status == .notFound)
            let reaction = try await ReactionTests.react(aliceOtherTab, "❤️", to: question.id.description, in: direct.id)
            #expect(reaction.error?.code == "notFound", "no reacting to what she deleted")
            #expect(try await api.messages(in: direct.id, as: bob).count == 2, "Bob keeps all of it")
            #expect(try await SearchTests.search("lunch", as: bob, in: api).decode(Wire.SearchResults.self).results.count == 1)
            #expect(try await api.request(.delete, path, as: carol).status == .notFound, "an outsider")
            #expect(try await api.request(.delete, path).status == .unauthorized)

            // Bob writes: it is back in her list with one unread message, and only that one.
            try await api.send("are you there?", in: direct.id, as: bob)
            let back = try #require(try await api.get("/api/conversations", as: alice).decode([Wire.Conversation].self).first { $0.id == direct.id })
            #expect(!back.isDeleted && back.unreadCount == 1)
            #expect(try await api.messages(in: direct.id, as: alice).map(\.text) == ["are you there?"])
            // A tab that reconnects from the start is replayed only what came after.
            let fresh = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            #expect(try await fresh.messages(1).map(\.text) == ["are you there?"])
            #expect(try await fresh.framesQueued().compactMap(\.message).isEmpty, "nothing before it")
            for socket in [aliceOtherTab, bobSocket, fresh] { await socket.disconnect() }
        }
    }
}
