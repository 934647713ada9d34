import Foundation
import ParlorKit
import ParlorStore
@testable import ParlorStorePostgres
import PostgresNIO
import Testing

/// Several `parlor serve` nodes on one PostgreSQL database: each test opens two `PostgresStore`s
/// ("nodes" A and B) on a fresh database.
@Suite("PostgreSQL: nodes sharing one database")
struct PostgresClusterTests {
    let backend = StoreBackend.postgres

    @Test("Two nodes appending concurrently to one conversation produce one gapless sequence")
    func concurrentNodesShareOneSequence() async throws {
        try await backend.withDatabase { database in
            let a = try await database.openNode()
            let b = try await database.openNode()
            let alice = try await a.makeUser("alice")
            let bob = try await b.makeUser("bob")
            let conversation = try await a.makeConversation(alice, bob)

            let sent = try await withThrowingTaskGroup(of: (node: String, message: StoredMessage).self) { group in
                for index in 0..<200 {
                    let (node, sender) = index.isMultiple(of: 2) ? (a, alice) : (b, bob)
                    group.addTask { (node.nodeID, try await node.send("message \(index)", from: sender, in: conversation)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let stored = try await a.allMessages(in: conversation)
            #expect(stored.map(\.sequence) == Array(1...200))
            #expect(Set(stored) == Set(sent.map(\.message)))
            #expect(Set(sent.map(\.message.sequence)).count == 200)
            #expect(Set(sent.map(\.node)) == [a.nodeID, b.nodeID])
            #expect(try await b.conversation(id: conversation.id)?.lastSequence == 200)
        }
    }

    @Test("Replies to one session head from two nodes at once: one wins, the others conflict with it", arguments: 0..<3)
    func racingRepliesAcrossNodes(round: Int) async throws {
        try await backend.withDatabase { database in
            let a = try await database.openNode()
            let b = try await database.openNode()
            let alice = try await a.makeUser("alice")
            let bob = try await a.makeUser("bob")
            let conversation = try await a.makeConversation(alice, bob)
            let poll = Session()
            let opening = try await a.sendApp("poll \(round)", in: poll, replacing: nil, from: alice, in: conversation)
            let seen = Locked<[MessageID?]>([])

            let outcomes = await withTaskGroup(of: Result<StoredMessage, any Error>.self) { group in
                for index in 0..<20 {
                    let (node, sender) = index.isMultiple(of: 2) ? (a, alice) : (b, bob)
                    let vote = appMessage("vote \(index)", in: poll, replacing: opening, from: sender, in: conversation)
                    group.addTask {
                        do {
                            return .success(try await node.append(vote, validate: { _, head in seen.update { $0.append(head?.id) } }).message)
                        } catch {
                            return .failure(error)
                        }
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
            #expect(seen.value == [opening.id], "validate ran once, with exactly the head the winner replaced")
            #expect(try await b.allMessages(in: conversation) == [opening, winner])
        }
    }

    @Test("Who is connected to which node: another node's people count while it runs, a node's own do not, and a node that stops counts for no one")
    func presenceAcrossNodes() async throws {
        try await backend.withDatabase { database in
            let a = try await database.openNode()
            // Node B is run here, to be stopped as a node is.
            let b = try PostgresStore(url: try #require(database.postgresURL), logger: .quiet)
            let running = Task { try? await b.run() }
            await b.waitUntilListening()
            let (alice, bob, carol) = (UserID(), UserID(), UserID())

            try await b.reportPresence(.changed(arrived: [alice, bob], left: []))
            #expect(try await a.presentElsewhere([alice, bob, carol]) == [alice, bob])
            #expect(try await b.presentElsewhere([alice, bob, carol]) == [], "a node's own people are not elsewhere")

            // Bob moves from B to A.
            try await a.reportPresence(.changed(arrived: [bob], left: []))
            try await b.reportPresence(.changed(arrived: [], left: [bob]))
            #expect(try await a.presentElsewhere([alice, bob]) == [alice])
            #expect(try await b.presentElsewhere([alice, bob]) == [bob])

            // B tells everyone present again (after its listener reconnected): what it said before goes.
            try await b.reportPresence(.everyone([carol]))
            #expect(try await a.presentElsewhere([alice, bob, carol]) == [carol])
            try await b.reportPresence(.everyone([alice, carol]))
            #expect(try await a.presentElsewhere([alice, bob, carol]) == [alice, carol])

            // B stops: Alice and Carol are connected nowhere, although B never said they left.
            running.cancel()
            await running.value
            let deadline = ContinuousClock.now + .seconds(10)
            while try await !a.presentElsewhere([alice]).isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await a.presentElsewhere([alice]).isEmpty, "B has stopped")
        }
    }

    @Test("Appends are durable on commit even where the database's default says otherwise")
    func commitsAreSynchronous() async throws {
        try await backend.withDatabase { database in
            let url = try #require(database.postgresURL)
            let name = try #require(URLComponents(string: url)?.path.dropFirst())
            try await PostgresTestServer.shared().execute("ALTER DATABASE \(name) SET synchronous_commit = off")
            let node = try #require(try await database.open() as? PostgresStore)
            #expect(try await node.currentSetting("synchronous_commit") == "on")
        }
    }

    @Test("Running the migrations on two nodes at once applies each migration once")
    func concurrentMigrations() async throws {
        try await backend.withDatabase { database in
            let nodes = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
                for _ in 0..<3 { group.addTask { try #require(try await database.open() as? PostgresStore) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(nodes.count == 3)
            let alice = try await nodes[0].makeUser("alice")
            #expect(try await nodes[2].user(id: alice.id) == alice)
            let url = try #require(database.postgresURL)
            let applied = try await PostgresTestServer.withClient(url: url) { client in
                try await client.query("SELECT name FROM schema_migrations ORDER BY name").collect().map { try $0.decode(String.self) }
            }
            // Every migration the schema has, each applied once (the schema's list is the one list).
            let expected = PostgresSchema.migrations.map(\.name)
            #expect(Set(expected).count == expected.count, "migration names are unique")
            // One transaction applies them all: they share applied_at, so they are listed by name.
            #expect(applied == expected.sorted(), "each migration once")
        }
    }
}
