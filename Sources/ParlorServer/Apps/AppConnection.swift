import Foundation
import Logging
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Synchronization

/// One connected copy of an app outside the server: the frames waiting to be written to it, and
/// the calls waiting for its answer (`PendingCalls`). Everything an app can make the server hold
/// is bounded: calls by their deadline, frames by the flood limit, queued bytes by
/// `maxQueuedBytes` (an app that stops reading is disconnected), container reads per call.
final class AppConnection: Sendable {
    let app: AppID
    let name: String
    let secretHash: String
    let frames: AsyncStream<Outgoing>
    private let outbound: AsyncStream<Outgoing>.Continuation
    private let calls: PendingCalls
    private let state = Mutex(State())

    /// What the writer sends next.
    enum Outgoing: Sendable {
        case frame(String)
        case close(String)
    }

    /// Bytes of frames waiting for an app that does not read; past this it is disconnected.
    static let maxQueuedBytes = 8 * 1024 * 1024

    private struct State {
        var queuedBytes = 0
        /// Frames received in the last second, for the flood limit.
        var frames = FrameAllowance(limit: AppWire.maxFramesPerSecond)
    }

    init(app: AppID, name: String, secretHash: String, deadline: Duration) {
        self.app = app
        self.name = name
        self.secretHash = secretHash
        calls = PendingCalls(appName: name, deadline: deadline)
        (frames, outbound) = AsyncStream.makeStream(of: Outgoing.self)
    }

    /// Sends `call` and waits for its answer, at most `deadline`.
    func call(_ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload?) async throws(MessagesError) -> AppWire.Result {
        try await calls.call(call, container: container, upload: upload) { self.send(.call($0)) }
    }

    /// Counts one frame from the app against the flood limit.
    /// - Returns: false when the connection must close.
    func admit() -> Bool {
        let now = ContinuousClock.now
        return state.withLock { $0.frames.admit(at: now) }
    }

    /// Handles one text frame from the app.
    func receive(_ text: String, logger: Logger) {
        if let unreadable = calls.receive(Data(text.utf8), reply: { self.send($0) }) {
            logger.warning("An app sent a frame the server could not read", metadata: ["app": "\(app)", "error": "\(unreadable.message)"])
        }
    }

    /// The connection ended: every waiting call fails now, not at its deadline.
    func disconnected() {
        calls.endAll(MessagesError(.appUnavailable, "\(name) disconnected; try again."))
        outbound.finish()
    }

    /// Closes the connection with `reason` (a removed app, a replaced credential).
    func end(reason: String) {
        outbound.yield(.close(reason))
    }

    func send(_ frame: AppWire.ServerFrame) {
        enqueue(.frame(String(decoding: AppWire.encode(frame), as: UTF8.self)))
    }

    /// The writer wrote `text`: it no longer counts as queued.
    func wrote(_ text: String) {
        state.withLock { $0.queuedBytes -= text.utf8.count }
    }

    /// Queues a frame, or closes the connection when the app has left too much unread.
    private func enqueue(_ outgoing: Outgoing) {
        guard case .frame(let text) = outgoing else { return }
        let overflow = state.withLock { state in
            state.queuedBytes += text.utf8.count
            return state.queuedBytes > Self.maxQueuedBytes
        }
        if overflow {
            end(reason: "More than \(ByteCount.limit(Self.maxQueuedBytes)) waited for this app to read them; reconnect and read your frames.")
        } else {
            outbound.yield(outgoing)
        }
    }
}
