import Foundation
import ParlorKit
import ParlorStore
import Testing

/// A bus the test speaks through, as the other nodes sharing the store would.
final class ScriptedBus: ClusterBus {
    let nodeID = "this-node"
    private let stream: AsyncStream<ClusterEnvelope>
    private let continuation: AsyncStream<ClusterEnvelope>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream() }

    func publish(_ event: ClusterEvent) async {}
    func events() -> AsyncStream<ClusterEnvelope> { stream }

    /// Another node announces `event`.
    func announce(_ event: ClusterEvent, from origin: String = "other-node") {
        continuation.yield(ClusterEnvelope(origin: origin, event: event))
    }
}

@Suite("Messages another node commits reach this node's connections")
struct ClusterSyncTests {
    @Test("Every message named by another node's notifications is delivered once, in order, whatever the pointers' order and overlap")
    func pointersFanOutEveryMessageOnce() async throws {
        let bus = ScriptedBus()
        var server = try TestServer()
        server.bus = bus
        try await server.run(.live) { api, store in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let conversation = try #require(ConversationID(direct.id))
            let sender = try #require(UserID(alice.id))
            let socket = try await TestSocket.session(port: port, as: bob)

            /// Messages committed by the other node, which this node has not seen.
            func commitElsewhere(_ texts: [String]) async throws -> [MessagePointer] {
                var pointers: [MessagePointer] = []
                for text in texts {
                    let new = NewMessage(id: MessageID(), conversationID: conversation, sender: sender, content: .text(text))
                    let stored = try await store.append(new) { _, _ in }.message
                    pointers.append(MessagePointer(conversation: conversation, sequence: stored.sequence))
                }
                return pointers
            }

            // The first notification this node hears of the conversation names three messages,
            // out of order: all three are delivered, oldest first.
            let first = try await commitElsewhere(["one", "two", "three"])
            bus.announce(.messagesCommitted([first[2], first[0], first[1]]))
            #expect(try await socket.messages(3).map(\.text) == ["one", "two", "three"])

            // Later notifications overlap what was delivered and arrive split: nothing twice.
            let second = try await commitElsewhere(["four", "five", "six"])
            bus.announce(.messagesCommitted([first[2], second[1]]))
            bus.announce(.messagesCommitted([second[0], second[2]]))
            #expect(try await socket.messages(3).map(\.text) == ["four", "five", "six"])

            // This node's own announcements are not applied again.
            let own = try await commitElsewhere(["seven"])
            bus.announce(.messagesCommitted(own), from: bus.nodeID)
            let late = try await socket.frames(within: .milliseconds(300)).filter { $0.type == "message" }
            #expect(late.isEmpty, "a notification from this node itself delivers nothing")
            await socket.disconnect()
        }
    }

    @Test("A message this node sends that overtakes another node's earlier one does not hide it, on a connection whose hello named no conversation")
    func overtakenNotificationIsNotLost() async throws {
        let bus = ScriptedBus()
        var server = try TestServer()
        server.bus = bus
        try await server.run(.live) { api, store in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let conversation = try #require(ConversationID(direct.id))
            let socket = try await TestSocket.session(port: port, as: bob)

            // The other node commits the first message; its notification is still on the way
            // when this node commits and fans out the second.
            let first = NewMessage(id: MessageID(), conversationID: conversation, sender: try #require(UserID(alice.id)), content: .text("first"))
            let committed = try await store.append(first) { _, _ in }.message
            try await api.send("second", in: direct.id, as: alice)
            #expect(try await socket.messages(2).map(\.text) == ["first", "second"])

            bus.announce(.messagesCommitted([MessagePointer(conversation: conversation, sequence: committed.sequence)]))
            let late = try await socket.frames(within: .milliseconds(300)).filter { $0.type == "message" }
            #expect(late.isEmpty, "the late notification delivers nothing twice")
            await socket.disconnect()
        }
    }
}
