import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Concurrent appends and group commit")
struct ConcurrencyTests {
    @Test("200 concurrent appends across 3 conversations all commit, gapless per conversation", arguments: StoreBackend.all)
    func concurrentAppendsAllCommit(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversations = [
                try await store.makeConversation(alice, bob, title: "one"),
                try await store.makeConversation(alice, bob, title: "two"),
                try await store.makeConversation(alice, bob, title: "three"),
            ]
            let sent = try await withThrowingTaskGroup(of: (NewMessage, StoredMessage, Bool).self) { group in
                for index in 0..<200 {
                    let message = NewMessage(
                        id: MessageID(), conversationID: conversations[index % 3].id, sender: index.isMultiple(of: 2) ? alice.id : bob.id,
                        content: .text("message \(index)"))
                    group.addTask {
                        let result = try await store.append(message, validate: acceptAll)
                        return (message, result.message, result.isDuplicate)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sent.count == 200)
            #expect(sent.allSatisfy { !$0.2 })
            #expect(sent.allSatisfy { new, stored, _ in stored.id == new.id && stored.content == new.content })

            for conversation in conversations {
                let stored = try await store.allMessages(in: conversation)
                let expected = sent.filter { $0.0.conversationID == conversation.id }
                #expect(stored.map(\.sequence) == Array(1...Int64(expected.count)))
                #expect(Set(stored.map(\.id)) == Set(expected.map(\.0.id)))
                #expect(Set(stored) == Set(expected.map(\.1)))
                #expect(try await store.conversation(id: conversation.id)?.lastSequence == Int64(expected.count))
            }
        }
    }

    @Test("A send retried while the original is still committing is stored once; every try gets the same message", arguments: StoreBackend.all)
    func concurrentRetriesOfOneMessage(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let message = NewMessage(id: MessageID(), conversationID: conversation.id, sender: alice.id, content: .text("are you there?"))
            let results = try await withThrowingTaskGroup(of: (message: StoredMessage, isDuplicate: Bool).self) { group in
                for _ in 0..<10 { group.addTask { try await store.append(message, validate: acceptAll) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { !$0.isDuplicate }.count == 1)
            #expect(Set(results.map(\.message)).count == 1)
            #expect(try await store.allMessages(in: conversation) == [results[0].message])
        }
    }

    @Test("Concurrent replies to one session head: exactly one wins, the others conflict with the winner", arguments: StoreBackend.all)
    func racingRepliesToOneHead(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let poll = Session()
            let opening = try await store.sendApp("poll", in: poll, replacing: nil, from: alice, in: conversation)

            let outcomes = await withTaskGroup(of: Result<StoredMessage, any Error>.self) { group in
                for index in 0..<20 {
                    let vote = appMessage("vote \(index)", in: poll, replacing: opening, from: index.isMultiple(of: 2) ? alice : bob, in: conversation)
                    group.addTask {
                        do { return .success(try await store.append(vote, validate: acceptAll).message) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.compactMap { try? $0.get() }
            let conflicts = outcomes.compactMap { outcome -> SessionConflict? in
                guard case .failure(let error) = outcome else { return nil }
                return error as? SessionConflict
            }
            let winner = try #require(winners.first)
            #expect(winners.count == 1)
            #expect(conflicts.count == 19)
            #expect(conflicts.allSatisfy { $0.head == winner })
            #expect(winner.sequence == 2)
            #expect(try await store.sessionHead(poll.id, in: conversation.id) == winner)
            #expect(try await store.allMessages(in: conversation) == [opening, winner])
        }
    }

    /// What one append of the batch is made to meet.
    enum Fate: Sendable, CustomStringConvertible {
        case accepted, refused, staleHead, unknownConversation
        var description: String { "\(self)" }
    }

    /// One append of the batch and how it ended.
    struct BatchOutcome: Sendable {
        let fate: Fate
        let id: MessageID
        let result: Result<StoredMessage, any Error>
    }

    @Test("Refusals inside one group commit do not affect the other appends of the batch", arguments: StoreBackend.all)
    func refusalInBatchSparesOthers(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let game = Session()
            let opening = try await store.sendApp("opening", in: game, replacing: nil, from: alice, in: conversation)

            // A slow validation holds the commit in progress so that the batch below queues up and
            // is committed together in the next transaction.
            let slowTask = try await store.holdingACommit("slow", from: alice, in: conversation, for: 0.5)

            let fates: [Fate] = (0..<40).map { Self.fate(of: $0) }
            let outcomes = await Self.appendConcurrently(
                fates, store: store, session: game, from: bob, in: conversation)
            _ = try await slowTask.value

            for outcome in outcomes { Self.check(outcome, head: opening) }
            let accepted = Set(outcomes.filter { $0.fate == .accepted }.map(\.id))
            let stored = try await store.allMessages(in: conversation)
            #expect(stored.map(\.sequence) == Array(1...Int64(2 + accepted.count)))
            #expect(Set(stored.dropFirst(2).map(\.id)) == accepted)
            #expect(try await store.sessionHead(game.id, in: conversation.id) == opening)
        }
    }

    static func fate(of index: Int) -> Fate {
        switch index % 8 {
        case 1: .refused
        case 4: .staleHead
        case 6: .unknownConversation
        default: .accepted
        }
    }

    /// Appends one message per fate, all at once, each made to meet its fate.
    static func appendConcurrently(
        _ fates: [Fate], store: any ParlorStore, session: Session, from sender: User, in conversation: ConversationRecord
    ) async -> [BatchOutcome] {
        await withTaskGroup(of: BatchOutcome.self) { group in
            for (index, fate) in fates.enumerated() {
                let message: NewMessage
                switch fate {
                case .staleHead:
                    message = appMessage("stale \(index)", in: session, replacing: nil, from: sender, in: conversation)
                case .unknownConversation:
                    message = NewMessage(id: MessageID(), conversationID: ConversationID(), sender: sender.id, content: .text("lost \(index)"))
                case .accepted, .refused:
                    message = NewMessage(id: MessageID(), conversationID: conversation.id, sender: sender.id, content: .text("batch \(index)"))
                }
                let validate = fate == .refused ? refuseAll : acceptAll
                group.addTask {
                    do {
                        return BatchOutcome(fate: fate, id: message.id, result: .success(try await store.append(message, validate: validate).message))
                    } catch {
                        return BatchOutcome(fate: fate, id: message.id, result: .failure(error))
                    }
                }
            }
            var outcomes: [BatchOutcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// Checks that an append ended as its fate says.
    static func check(_ outcome: BatchOutcome, head: StoredMessage) {
        switch (outcome.fate, outcome.result) {
        case (.accepted, .success): break
        case (.refused, .failure(let error)): #expect(error is Refused)
        case (.staleHead, .failure(let error)): #expect((error as? SessionConflict)?.head == head)
        case (.unknownConversation, .failure(let error)): #expect((error as? StoreError)?.code == .notFound)
        default: Issue.record("A message meant to be \(outcome.fate) ended as \(outcome.result)")
        }
    }
}
