import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import ParlorStoreSQLite
import Synchronization
import Testing

/// A bus the test speaks through, as the other nodes sharing the store would.
final class ScriptedBus: ClusterBus {
    let nodeID = "this-node"
    private let stream: AsyncStream<ClusterEnvelope>
    private let continuation: AsyncStream<ClusterEnvelope>.Continuation

    private let sent = Mutex<[ClusterEvent]>([])

    init() { (stream, continuation) = AsyncStream.makeStream() }

    func publish(_ event: ClusterEvent) async { sent.withLock { $0.append(event) } }

    /// What this node told the other nodes, in order.
    var published: [ClusterEvent] { sent.withLock { $0 } }
    func events() -> AsyncStream<ClusterEnvelope> { stream }

    /// Who this node last said has a connection to it (`reportPresence`), and every report.
    private let reported = Mutex<(present: Set<UserID>, reports: [PresenceReport])>(([], []))
    var present: Set<UserID> { reported.withLock { $0.present } }
    var reports: [PresenceReport] { reported.withLock { $0.reports } }

    func reportPresence(_ report: PresenceReport) async throws {
        reported.withLock { state in
            state.reports.append(report)
            switch report {
            case .changed(let arrived, let left):
                state.present.formUnion(arrived)
                state.present.subtract(left)
            case .everyone(let everyone):
                state.present = Set(everyone)
            }
        }
    }

    func presentElsewhere(_ users: [UserID]) async throws -> Set<UserID> { [] }

    /// Waits (up to 10 s) until this node has said that exactly `users` are connected to it.
    func waitUntilPresent(_ users: Set<UserID>) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while present != users, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return present == users
    }

    /// Another node announces `event`.
    func announce(_ event: ClusterEvent, from origin: String = "other-node") {
        continuation.yield(ClusterEnvelope(origin: origin, event: event))
    }
}

/// Alice and Bob's conversation on a server that hears "other nodes" through a scripted bus;
/// Bob is connected (his `hello` names no conversation). `commitElsewhere` stores messages from
/// Alice as another node sharing the store would, without telling this node.
struct OtherNodeScene: Sendable {
    let api: API
    let bus: ScriptedBus
    let store: SQLiteStore
    let alice: Person
    let bob: Person
    let conversation: ConversationID
    let bobSocket: TestSocket

    static func run(_ body: @Sendable (OtherNodeScene) async throws -> Void) async throws {
        let bus = ScriptedBus()
        var server = try TestServer()
        server.bus = bus
        try await server.run(.live) { api, store in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let socket = try await TestSocket.session(port: port, as: bob)
            let scene = OtherNodeScene(
                api: api, bus: bus, store: store, alice: alice, bob: bob, conversation: direct.id, bobSocket: socket)
            try await body(scene)
            await socket.disconnect()
        }
    }

    func commitElsewhere(_ texts: [String]) async throws -> [MessagePointer] {
        let sender = alice.id
        var pointers: [MessagePointer] = []
        for text in texts {
            let new = NewMessage(id: MessageID(), conversationID: conversation, sender: sender, content: .text(text))
            let stored = try await store.append(new) { _, _ in }.message
            pointers.append(MessagePointer(conversation: conversation, sequence: stored.sequence))
        }
        return pointers
    }

    /// Message frames that arrive within a short while (none expected).
    func lateMessages() async throws -> [Frame] {
        try await bobSocket.frames(within: .milliseconds(300)).filter { $0.type == "message" }
    }
}

@Suite("Messages another node commits reach this node's connections")
struct ClusterSyncTests {
    @Test("Every message named by another node's notifications is delivered once, in order, whatever the pointers' order and overlap")
    func pointersFanOutEveryMessageOnce() async throws {
        try await OtherNodeScene.run { scene in
            // The first notification this node hears of the conversation names three messages,
            // out of order: all three are delivered, oldest first.
            let first = try await scene.commitElsewhere(["one", "two", "three"])
            scene.bus.announce(.messagesCommitted([first[2], first[0], first[1]]))
            #expect(try await scene.bobSocket.messages(3).map(\.text) == ["one", "two", "three"])

            // Later notifications overlap what was delivered and arrive split: nothing twice.
            let second = try await scene.commitElsewhere(["four", "five", "six"])
            scene.bus.announce(.messagesCommitted([first[2], second[1]]))
            scene.bus.announce(.messagesCommitted([second[0], second[2]]))
            #expect(try await scene.bobSocket.messages(3).map(\.text) == ["four", "five", "six"])

            // This node's own announcements are not applied again.
            let own = try await scene.commitElsewhere(["seven"])
            scene.bus.announce(.messagesCommitted(own), from: scene.bus.nodeID)
            #expect(try await scene.lateMessages().isEmpty, "a notification from this node itself delivers nothing")
        }
    }

    @Test("The other nodes are told that Bob is connected here from his first connection until his last one closes (who is pushed to depends on it)")
    func presenceReported() async throws {
        try await OtherNodeScene.run { scene in
            #expect(try await scene.bus.waitUntilPresent([scene.bob.id]), "Bob's socket is open")
            let reports = scene.bus.reports.count
            let second = try await TestSocket.session(port: try #require(scene.api.port), as: scene.bob)
            await second.disconnect()
            scene.bobSocket.close()
            #expect(try await scene.bus.waitUntilPresent([]), "both sockets closed")
            #expect(scene.bus.reports.dropFirst(reports) == [.changed(arrived: [], left: [scene.bob.id])], "his second socket changed nothing")
        }
    }

    @Test("A message this node sends that overtakes another node's earlier one does not hide it, on a connection whose hello named no conversation")
    func overtakenNotificationIsNotLost() async throws {
        try await OtherNodeScene.run { scene in
            // The other node commits the first message; its notification is still on the way
            // when this node commits and fans out the second.
            let first = try await scene.commitElsewhere(["first"])
            try await scene.api.send("second", in: scene.conversation, as: scene.alice)
            #expect(try await scene.bobSocket.messages(2).map(\.text) == ["first", "second"])

            scene.bus.announce(.messagesCommitted(first))
            #expect(try await scene.lateMessages().isEmpty, "the late notification delivers nothing twice")
        }
    }

    @Test("A profile picture another node set shows here once that node says so; until then this node's cache answers")
    func profileChangedElsewhere() async throws {
        try await OtherNodeScene.run { scene in
            let bob = scene.bob
            func alicesPicture() async throws -> String? {
                try await scene.api.get("/api/conversations/\(scene.conversation)", as: bob).decode(Wire.Conversation.self)
                    .members.first { $0.id == scene.alice.id }?.avatarURL
            }
            #expect(try await alicesPicture() == nil)
            let hash = String(repeating: "ab", count: 32)
            try await scene.store.setAvatar(hash, user: scene.alice.id)
            #expect(try await alicesPicture() == nil, "this node answers from its cache until told")
            scene.bus.announce(.userChanged(scene.alice.id))
            var seen: String?
            for _ in 0..<100 {
                seen = try await alicesPicture()
                if seen != nil { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(seen == "/blobs/\(hash)")
        }
    }

    @Test("After its listener reconnects, a node catches up what it missed, in conversations it had never fanned out too")
    func listenerRestartCatchesUp() async throws {
        try await OtherNodeScene.run { scene in
            // Committed elsewhere while this node's listener was down: no notification came.
            _ = try await scene.commitElsewhere(["missed one", "missed two"])
            scene.bus.announce(.listenerRestarted, from: scene.bus.nodeID)  // as the listener reports it
            #expect(try await scene.bobSocket.messages(2).map(\.text) == ["missed one", "missed two"])
            #expect(try await scene.lateMessages().isEmpty)
        }
    }
}
