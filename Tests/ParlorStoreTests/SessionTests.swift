import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Sessions: each message replaces the head, checked at commit")
struct SessionTests {
    @Test("A session's next message must name its head; naming nil or an older message conflicts with the head", arguments: StoreBackend.all)
    func nextMessageMustReplaceHead(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let game = Session()
            let opening = try await store.sendApp("X in the centre", in: game, replacing: nil, from: alice, in: conversation)
            #expect(try await store.sessionHead(game.id, in: conversation.id) == opening)

            let restart = await #expect(throws: SessionConflict.self) {
                try await store.sendApp("a second opening", in: game, replacing: nil, from: bob, in: conversation)
            }
            #expect(restart?.head == opening)

            let reply = try await store.sendApp("O in a corner", in: game, replacing: opening, from: bob, in: conversation)
            #expect(reply.sequence == 2)
            #expect(try await store.sessionHead(game.id, in: conversation.id) == reply)

            let stale = await #expect(throws: SessionConflict.self) {
                try await store.sendApp("X from a stale board", in: game, replacing: opening, from: alice, in: conversation)
            }
            #expect(stale?.head == reply)

            let next = try await store.sendApp("X again", in: game, replacing: reply, from: alice, in: conversation)
            #expect(next.sequence == 3)
            #expect(try await store.allMessages(in: conversation).map(\.text) == ["X in the centre", "O in a corner", "X again"])
        }
    }

    @Test("Sessions are independent of each other and of other conversations", arguments: StoreBackend.all)
    func sessionsAreIndependent(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let other = try await store.makeConversation(alice, bob, title: "Other")
            let poll = Session()
            let game = Session()
            let pollStart = try await store.sendApp("poll", in: poll, replacing: nil, from: alice, in: conversation)
            let gameStart = try await store.sendApp("game", in: game, replacing: nil, from: bob, in: conversation)
            try await store.send("chatter", from: bob, in: conversation)
            // The same session id in another conversation starts fresh there.
            let elsewhere = try await store.sendApp("poll elsewhere", in: poll, replacing: nil, from: alice, in: other)

            #expect(try await store.sessionHead(poll.id, in: conversation.id) == pollStart)
            #expect(try await store.sessionHead(game.id, in: conversation.id) == gameStart)
            #expect(try await store.sessionHead(poll.id, in: other.id) == elsewhere)
            #expect(try await store.sessionHead(Session().id, in: conversation.id) == nil)
        }
    }

    @Test("A session's starter is whoever sent its first message, however many answered since; the same session id in another conversation has its own", arguments: StoreBackend.all)
    func sessionStarter(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let carol = try await store.makeUser("carol")
            let conversation = try await store.makeConversation(alice, bob, carol)
            let other = try await store.makeConversation(bob, carol, title: "Other")
            let rsvp = Session()
            let start = try await store.sendApp("Party?", in: rsvp, replacing: nil, from: alice, in: conversation)
            let going = try await store.sendApp("Bob is going", in: rsvp, replacing: start, from: bob, in: conversation)
            _ = try await store.sendApp("Carol can't go", in: rsvp, replacing: going, from: carol, in: conversation)
            // Bob reuses the id elsewhere, first: a session id names a session in one conversation only.
            _ = try await store.sendApp("Bob's own", in: rsvp, replacing: nil, from: bob, in: other)

            #expect(try await store.sessionStarter(rsvp.id, in: conversation.id) == alice.id)
            #expect(try await store.sessionStarter(rsvp.id, in: other.id) == bob.id)
            #expect(try await store.sessionStarter(Session().id, in: conversation.id) == nil)
        }
    }

    @Test("validate receives the message and exactly the head it replaces", arguments: StoreBackend.all)
    func validateSeesTheHead(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let game = Session()
            let seen = Locked<[(message: MessageID, head: StoredMessage?)]>([])
            let record: @Sendable (NewMessage, StoredMessage?) throws -> Void = { message, head in
                seen.update { $0.append((message.id, head)) }
            }
            let first = try await store.sendApp("first", in: game, replacing: nil, from: alice, in: conversation, validate: record)
            try await store.send("unrelated", from: bob, in: conversation)
            let second = try await store.sendApp("second", in: game, replacing: first, from: bob, in: conversation, validate: record)

            let calls = seen.value
            #expect(calls.map(\.message) == [first.id, second.id])
            #expect(calls.first?.head == nil)
            #expect(calls.last?.head == first)
        }
    }

    @Test("A message validate refuses is not committed and does not use a sequence number", arguments: StoreBackend.all)
    func refusedMessageCommitsNothing(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let game = Session()
            let opening = try await store.sendApp("opening", in: game, replacing: nil, from: alice, in: conversation)
            let cheat = appMessage("an illegal move", in: game, replacing: opening, from: bob, in: conversation)

            let error = await #expect(throws: Refused.self) {
                try await store.append(cheat, validate: { _, _ in throw Refused(reason: "that square is taken") })
            }
            #expect(error == Refused(reason: "that square is taken"))
            #expect(try await store.message(id: cheat.id, in: conversation.id) == nil)
            #expect(try await store.sessionHead(game.id, in: conversation.id) == opening)
            #expect(try await store.conversation(id: conversation.id)?.lastSequence == 1)
            #expect(try await store.summary(of: conversation, for: alice)?.lastMessage == opening)

            // A refused message can be corrected and sent again with the same id.
            let retried = try await store.append(cheat, validate: acceptAll)
            #expect(!retried.isDuplicate)
            #expect(retried.message.sequence == 2)
            #expect(try await store.sessionHead(game.id, in: conversation.id) == retried.message)
        }
    }

    @Test("A refused opening message leaves the session without a head", arguments: StoreBackend.all)
    func refusedOpeningLeavesNoHead(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let game = Session()
            await #expect(throws: Refused.self) {
                try await store.sendApp("bad", in: game, replacing: nil, from: alice, in: conversation, validate: { _, _ in throw Refused() })
            }
            #expect(try await store.sessionHead(game.id, in: conversation.id) == nil)
            let good = try await store.sendApp("good", in: game, replacing: nil, from: alice, in: conversation)
            #expect(good.sequence == 1)
        }
    }
}
