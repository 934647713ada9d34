import Foundation
import NIOCore
import NIOWebSocket
import ParlorStore
import Synchronization

/// The outbound side of one WebSocket connection: a bounded queue, written in order by the
/// connection's event loop, all that waited with one flush. Messages are delivered exactly once
/// per conversation in sequence order: duplicates are dropped and gaps are filled from the store.
///
/// What it does is decided by its `ConnectionStateMachine`, which it keeps in a mutex: each event
/// (an item queued, a drain, the socket writable again, a store job's frames and end, a close)
/// returns an action, carried out here on the channel's event loop. It holds no task: frames
/// ready to go are written as they come; a task runs only for a store job (a replay, a gap to
/// fill, a message drawn per viewer, read from its `DeliverySource`), and its frames and its end
/// come back as events. A connection that falls `limit` items behind is cut off (its client
/// reconnects and replays what it missed), so a slow client never holds up the others.
final class ClientConnection: Sendable {
    let id = UUID()
    let user: UserID
    /// The SHA-256 hash of the token the connection was opened with: it is closed when that
    /// sign-in ends (`Sessions`).
    let tokenHash: String

    private let channel: any Channel
    private let source: any DeliverySource
    private let machine: Mutex<ConnectionStateMachine>

    /// - Parameters:
    ///   - limit: the most items that may wait; past it the connection is cut off.
    ///   - source: what replays and gap fills read.
    init(user: UserID, tokenHash: String, channel: any Channel, limit: Int, source: any DeliverySource) {
        self.user = user
        self.tokenHash = tokenHash
        self.channel = channel
        self.source = source
        machine = Mutex(ConnectionStateMachine(limit: limit))
    }

    /// Queues `item`; false when the connection is closed, or too far behind (it is then cut off).
    @discardableResult
    func enqueue(_ item: Outgoing) -> Bool {
        switch machine.withLock({ $0.enqueue(item) }) {
        case .queued:
            return true
        case .drain:
            channel.eventLoop.execute { self.drain() }
            return true
        case .refused:
            return false
        case .close(let frame):
            onEventLoop { self.run(.writeAndClose([], frame)) }
            return false
        }
    }

    /// Returns once the connection's event loop has run what was queued for it before the call:
    /// a frame queued then has been written, or waits, for the socket to take more or behind a
    /// store job (a replay, a gap fill, a message drawn for each viewer); a slow client holds
    /// nobody up here.
    func written() async {
        try? await channel.eventLoop.submit {}.get()
    }

    /// Whether the connection is closing or closed: what its client still sends is not handled.
    var isClosed: Bool { machine.withLock { $0.isClosed } }

    /// Whether the client fell too far behind (or a store job failed): it was cut off.
    var hasFallenBehind: Bool { machine.withLock { $0.hasFallenBehind } }

    /// How many items wait to be written.
    var waiting: Int { machine.withLock { $0.waiting } }

    /// Starts the closing handshake (the server is shutting down, the sign-in ended); nothing
    /// more is written after the close frame.
    func close(_ code: WebSocketErrorCode, reason: String) {
        let action = machine.withLock { $0.close(.init(code: UInt16(webSocketErrorCode: code), reason: reason)) }
        if case .none = action { return }
        onEventLoop { self.run(action) }
    }

    /// The channel closed: nothing more is written.
    func closed() {
        machine.withLock { $0.channelClosed() }
    }

    /// On the event loop, when the socket takes writes again.
    func writable() {
        channel.eventLoop.assertInEventLoop()
        run(machine.withLock { $0.writable() })
    }

    /// On the event loop: writes what waits.
    private func drain() {
        let writable = channel.isWritable
        run(machine.withLock { $0.drain(writable: writable) })
    }

    /// On the event loop: carries out `action`. After writes it drains again, since more may have
    /// come meanwhile, until the machine says there is nothing more; all with one flush.
    private func run(_ action: ConnectionStateMachine.Action) {
        channel.eventLoop.assertInEventLoop()
        var action = action
        var written = 0
        while case .write(let frames) = action {
            write(frames)
            written += frames.count
            let writable = channel.isWritable
            action = machine.withLock { $0.drain(writable: writable) }
        }
        switch action {
        case .none, .write:
            if written > 0 { channel.flush() }
        case .writeAndStart(let frames, let job):
            write(frames)
            channel.flush()
            start(job)
        case .writeAndClose(let frames, let close):
            write(frames)
            let code = WebSocketErrorCode(codeNumber: Int(close.code))
            channel.writeAndFlush(SocketOutbound.close(code, reason: close.reason), promise: nil)
        }
    }

    private func write(_ frames: some Sequence<String>) {
        for frame in frames { channel.write(SocketOutbound.text(frame), promise: nil) }
    }

    private func onEventLoop(_ body: @escaping @Sendable () -> Void) {
        if channel.eventLoop.inEventLoop { body() } else { channel.eventLoop.execute(body) }
    }

    /// Runs a store job in a task; its frames and its end come back as events.
    private func start(_ job: ConnectionStateMachine.StoreJob) {
        Task {
            let result: ConnectionStateMachine.StoreJobResult
            do {
                result = .delivered(try await CatchUp.run(job, for: user, from: source) { try await self.writeFromStore($0) })
            } catch {
                // The connection closed, or the store failed: either way what this connection was
                // sent is no longer known to be whole, so it ends, and its client replays on
                // reconnecting.
                result = .failed
            }
            channel.eventLoop.execute {
                let writable = self.channel.isWritable
                self.run(self.machine.withLock { $0.storeJobDone(result, writable: writable) })
            }
        }
    }

    /// A store job's frames, written on the event loop unless the connection is closing.
    /// Returns once the socket took them.
    /// - Throws: `ChannelError.outputClosed` once the connection writes no more; the socket's
    ///   error when it failed the write.
    private func writeFromStore(_ frames: [String]) async throws {
        let eventLoop = channel.eventLoop
        try await eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
            guard case .write(let accepted) = self.machine.withLock({ $0.storeJobWrites(frames) }) else {
                return eventLoop.makeFailedFuture(ChannelError.outputClosed)
            }
            guard let last = accepted.last else { return eventLoop.makeSucceededVoidFuture() }
            self.write(accepted.dropLast())
            let promise = eventLoop.makePromise(of: Void.self)
            self.channel.writeAndFlush(SocketOutbound.text(last), promise: promise)
            return promise.futureResult
        }.get()
    }
}
