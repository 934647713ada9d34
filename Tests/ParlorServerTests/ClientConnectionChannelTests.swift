import Foundation
import NIOCore
import NIOEmbedded
import NIOWebSocket
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// A real `ClientConnection` writing to a channel in memory (NIOEmbedded's thread-safe
/// `NIOAsyncTestingChannel`: store jobs write from tasks) with its replays read from a
/// `FakeDeliverySource`. Every wait is for something written (at most ten seconds), or for the
/// event loop to have run what was queued for it (`written()`).
@Suite("A connection's writes on its channel")
struct ClientConnectionChannelTests {
    let a = ConversationID()
    private var names: [ConversationID: String] { [a: "a"] }

    private func makeConnection(on channel: NIOAsyncTestingChannel, source: FakeDeliverySource, limit: Int = 16) -> ClientConnection {
        ClientConnection(user: DeliveryFixture.user, tokenHash: "token", channel: channel, limit: limit, source: source)
    }

    /// Waits for the next frames written, one by one, and expects them to be `expected`
    /// (labels: `DeliveryFixture.label`).
    private func expectWritten(
        _ expected: [String], on channel: NIOAsyncTestingChannel, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var labels: [String] = []
        for _ in expected {
            guard let written = try await nextWritten(on: channel) else { break }
            labels.append(DeliveryFixture.label(written, names: names))
        }
        #expect(labels == expected, comment, sourceLocation: sourceLocation)
    }

    /// The next thing written, waited for at most `timeout`; nil when nothing came (the channel is
    /// closed then, which ends the wait: a test that waits in vain fails instead of hanging).
    private func nextWritten(on channel: NIOAsyncTestingChannel, timeout: Duration = .seconds(10)) async throws -> SocketOutbound? {
        try await withThrowingTaskGroup(of: SocketOutbound?.self) { group in
            group.addTask { try await channel.waitForOutboundWrite(as: SocketOutbound.self) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let written = try await group.next() ?? nil else {
                channel.close(promise: nil)
                return nil
            }
            return written
        }
    }

    /// Expects nothing written that was not read yet (call it once the event loop ran what was
    /// queued for it: `ClientConnection.written()`).
    private func expectNothingMore(on channel: NIOAsyncTestingChannel, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let unread = try await channel.readOutbound(as: SocketOutbound.self)
        #expect(unread.map { DeliveryFixture.label($0, names: names) } == nil, comment, sourceLocation: sourceLocation)
    }

    /// Runs `body` with a channel, then closes the channel, which must be left with nothing
    /// written that the test did not read.
    private func withChannel(_ body: (NIOAsyncTestingChannel) async throws -> Void) async throws {
        let channel = NIOAsyncTestingChannel()
        let result: Result<Void, any Error>
        do {
            try await body(channel)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        // Closed whatever happened: its event loop must not end with a promise open.
        let leftOver = try await channel.finish(acceptAlreadyClosed: true)
        try result.get()
        #expect(leftOver.isClean, "everything written was read")
    }

    @Test("Frames go out in order: before hello, the replay, ready and session frames, then live ones, each message once, a gap filled")
    func framesInOrder() async throws {
        try await withChannel { channel in
            // The replay reads a conversation at 4; 5 to 7 are committed after it.
            let source = FakeDeliverySource([(a, 4)], messages: (1...7).map { DeliveryFixture.wire($0, in: a) }, sessionFrames: [.pong(requestId: "session")])
            let connection = makeConnection(on: channel, source: source)
            #expect(connection.enqueue(.frame(DeliveryFixture.marker("welcome"))))
            #expect(connection.enqueue(DeliveryFixture.live(4, in: a)), "committed before hello, and replayed too")
            #expect(connection.enqueue(.start(since: [a.description.lowercased(): 1])))
            try await expectWritten(["pong welcome", "a2", "a3", "a4", "ready", "pong session"], on: channel)

            #expect(connection.enqueue(DeliveryFixture.live(5, in: a)))
            #expect(connection.enqueue(DeliveryFixture.live(4, in: a)), "a duplicate is queued, then dropped")
            #expect(connection.enqueue(DeliveryFixture.live(7, in: a)), "6 is missing")
            #expect(connection.enqueue(.frame(DeliveryFixture.marker("after"))))
            try await expectWritten(["a5", "a6", "a7", "pong after"], on: channel)
            await connection.written()
            try await expectNothingMore(on: channel)
            #expect(connection.waiting == 0)
        }
    }

    @Test("While the socket takes no more, nothing is written and items wait; writable again, all of it goes out in order")
    func backPressure() async throws {
        try await withChannel { channel in
            let source = FakeDeliverySource([(a, 0)])
            let connection = makeConnection(on: channel, source: source)
            connection.enqueue(.start(since: [a.description: 0]))
            connection.enqueue(.frame(DeliveryFixture.marker("streaming")))
            try await expectWritten(["ready", "pong streaming"], on: channel, "the replay is over")

            channel.isWritable = false
            #expect(connection.enqueue(DeliveryFixture.live(1, in: a)))
            #expect(connection.enqueue(DeliveryFixture.live(2, in: a)))
            await connection.written()
            try await expectNothingMore(on: channel, "nothing written while the socket takes no more")
            #expect(connection.enqueue(DeliveryFixture.live(3, in: a)))
            await connection.written()
            try await expectNothingMore(on: channel)
            #expect(connection.waiting == 3)

            channel.isWritable = true
            try await channel.testingEventLoop.executeInContext { connection.writable() }
            try await expectWritten(["a1", "a2", "a3"], on: channel)
            #expect(connection.waiting == 0)
        }
    }

    @Test("A connection too far behind gets 1013 and nothing after it")
    func tooFarBehind() async throws {
        try await withChannel { channel in
            let connection = makeConnection(on: channel, source: FakeDeliverySource([]), limit: 2)
            channel.isWritable = false
            #expect(connection.enqueue(.frame(DeliveryFixture.marker("1"))))
            await connection.written()
            #expect(connection.enqueue(.frame(DeliveryFixture.marker("2"))))
            #expect(!connection.enqueue(.frame(DeliveryFixture.marker("3"))), "past the limit")
            try await expectWritten(["close 1013"], on: channel)
            #expect(connection.hasFallenBehind)
            channel.isWritable = true
            try await channel.testingEventLoop.executeInContext { connection.writable() }
            await connection.written()
            try await expectNothingMore(on: channel, "what waited is dropped")
        }
    }

    @Test("A replay the store cannot read closes the connection with 1011")
    func storeFailure() async throws {
        try await withChannel { channel in
            let connection = makeConnection(on: channel, source: FakeDeliverySource([], failsReading: true))
            connection.enqueue(.start(since: [:]))
            try await expectWritten(["close 1011"], on: channel)
            #expect(connection.isClosed)
            #expect(connection.hasFallenBehind)
        }
    }

    @Test("A close during a replay: the close frame is the last thing written, and the replay's next page is refused")
    func closeDuringReplay() async throws {
        try await withChannel { channel in
            let source = FakeDeliverySource([(a, 6)], messages: (1...6).map { DeliveryFixture.wire($0, in: a) }, pageSize: 2, holdsAfterFirstPage: true)
            var pageWrites = source.pageWrites.makeAsyncIterator()
            let connection = makeConnection(on: channel, source: source)
            connection.enqueue(.start(since: [a.description: 0]))
            let firstPage = await pageWrites.next()
            #expect(firstPage == true)
            try await expectWritten(["a1", "a2"], on: channel)

            connection.close(.goingAway, reason: "The server is shutting down; reconnecting shortly.")
            try await expectWritten(["close 1001"], on: channel)
            #expect(!connection.enqueue(DeliveryFixture.live(7, in: a)), "nothing is queued after the close")
            source.gate.open()
            let secondPage = await pageWrites.next()
            #expect(secondPage == false, "the replay's next page is refused")
            await connection.written()
            try await expectNothingMore(on: channel, "nothing after the close frame")
            #expect(connection.isClosed)
            #expect(!connection.hasFallenBehind)
        }
    }
}
