import Foundation
@_spi(Hosting) import ParlorKit
import Synchronization

/// The calls sent to an app that wait for its answer, whatever carries the frames (the server's
/// WebSocket, the simulator's process link): each waits at most `deadline`, the app's answers and
/// container reads are matched to them, and when the app goes away they all fail at once.
@_spi(Hosting) public final class PendingCalls: Sendable {
    let appName: String
    let deadline: Duration
    private let state = Mutex(State())

    private struct State {
        var waiting: [String: Waiting] = [:]
        var ended = false
        /// Hooks the app answered it has no code for: not called again on this link.
        var unimplemented: Set<AppWire.Hook> = []
    }

    private struct Waiting {
        let continuation: CheckedContinuation<AppWire.Result, any Error>
        let hook: AppWire.Hook
        let container: (any AppContainer)?
        let upload: AppWire.ImageUpload?
        var reads = 0
        var uploads = 0
    }

    @_spi(Hosting) public init(appName: String, deadline: Duration) {
        self.appName = appName
        self.deadline = deadline
    }

    /// Registers `call`, lets `send` put it on the wire, and waits for the answer. A hook the app
    /// said it has no code for is answered here, empty, as the app would (`Result.unimplemented`).
    /// - Throws: the app's refusal; `appUnavailable` past the deadline or once the app is gone.
    @_spi(Hosting) public func call(
        _ call: AppWire.Call, container: (any AppContainer)?, upload: AppWire.ImageUpload? = nil, send: @Sendable (AppWire.Call) -> Void
    ) async throws(MessagesError) -> AppWire.Result {
        if state.withLock({ !$0.ended && $0.unimplemented.contains(call.hook) }) {
            return AppWire.Result(id: call.id)
        }
        let expiry = Mutex<Task<Void, Never>?>(nil)
        defer { expiry.withLock { $0?.cancel() } }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let accepted = state.withLock { state in
                    guard !state.ended else { return false }
                    state.waiting[call.id] = Waiting(continuation: continuation, hook: call.hook, container: container, upload: upload)
                    return true
                }
                guard accepted else {
                    continuation.resume(throwing: MessagesError(.appUnavailable, "\(appName) disconnected; try again."))
                    return
                }
                // The deadline starts once the call is registered, so it always has one to fail.
                expiry.withLock {
                    $0 = Task {
                        guard (try? await Task.sleep(for: self.deadline)) != nil else { return }
                        self.fail(call.id, MessagesError(.appUnavailable, "\(self.appName) is not responding; try again."))
                    }
                }
                send(call)
            }
        } catch let error as MessagesError {
            throw error
        } catch {
            throw MessagesError(.appUnavailable, "\(appName) is not responding; try again.")
        }
    }

    /// Hands an answer to the call it names (an answer to no waiting call is dropped).
    @_spi(Hosting) public func answer(_ result: AppWire.Result) {
        guard let waiting = state.withLock({ state -> Waiting? in
            let waiting = state.waiting.removeValue(forKey: result.id)
            if let hook = waiting?.hook, result.unimplemented == true, hook.mayBeUnimplemented {
                state.unimplemented.insert(hook)
            }
            return waiting
        }) else { return }
        waiting.continuation.resume(returning: result)
    }

    /// The hooks the app said it has no code for, which this link no longer calls.
    @_spi(Hosting) public var unimplementedHooks: Set<AppWire.Hook> { state.withLock { $0.unimplemented } }

    @_spi(Hosting) public func refuse(_ refusal: AppWire.Refusal) {
        resolve(refusal.id) { $0.resume(throwing: refusal.error) }
    }

    /// Fails the call `id` now (an answer that names it but cannot be read).
    @_spi(Hosting) public func fail(_ id: String, _ error: MessagesError) {
        resolve(id) { $0.resume(throwing: error) }
    }

    /// The app is gone: every waiting call fails now, not at its deadline, and new ones at once.
    @_spi(Hosting) public func endAll(_ error: MessagesError) {
        let waiting = state.withLock { state in
            state.ended = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for call in waiting {
            call.continuation.resume(throwing: error)
        }
    }

    /// Handles one frame from the app, as it came: an answer or a refusal resolves its call now; a
    /// container read is answered through `reply` once the container has been read. A frame that
    /// cannot be read is answered `malformedFrame`, and the call it names (if its start says)
    /// fails now rather than at its deadline.
    /// - Returns: why the frame could not be read, for the host's log; nil when it was handled.
    @_spi(Hosting) @discardableResult
    public func receive(_ data: Data, reply: @escaping @Sendable (AppWire.ServerFrame) -> Void) -> MessagesError? {
        let frame: AppWire.AppFrame
        do {
            frame = try AppWire.decode(AppWire.AppFrame.self, from: data)
        } catch {
            // The app is told first, so that it hears of its bad answer before any call that the
            // failure lets the person make next.
            reply(.error(code: "malformedFrame", message: error.message, id: nil))
            if let id = Self.callID(in: data) {
                fail(id, MessagesError(.appUnavailable, "\(appName) answered something Parlor could not use; try again."))
            }
            return error
        }
        switch frame {
        case .result(let result): answer(result)
        case .refuse(let refusal): refuse(refusal)
        case .containerGet(let id, let call, let key): Task { reply(await self.read(key, for: call, answering: id)) }
        case .upload(let id, let call, let image): Task { reply(await self.upload(image, for: call, answering: id)) }
        }
        return nil
    }

    /// The call id an unreadable answer names, if its first bytes say (`"id":"…"`); only the
    /// start is looked at, so a large unreadable frame costs no second parse.
    private static func callID(in data: Data) -> String? {
        let start = String(decoding: data.prefix(1024), as: UTF8.self)
        guard let range = start.range(of: #""id"\s*:\s*"([^"\\]{1,100})""#, options: .regularExpression) else { return nil }
        let match = start[range]
        guard let open = match.dropLast().lastIndex(of: "\"") else { return nil }
        return String(match[match.index(after: open)..<match.index(before: match.endIndex)])
    }

    /// The answer to the app's `upload` `id` during `call`: the image's id, or an `error` frame
    /// with the upload's id (no such call that may upload, too many uploads, not base64, or the
    /// host's refusal: not an image, too large).
    @_spi(Hosting) public func upload(_ base64: String, for call: String, answering id: String) async -> AppWire.ServerFrame {
        let upload = state.withLock { state -> AppWire.ImageUpload? in
            guard var waiting = state.waiting[call], waiting.uploads < AppWire.maxUploadsPerCall else { return nil }
            waiting.uploads += 1
            state.waiting[call] = waiting
            return waiting.upload
        }
        guard let upload else {
            return .error(
                code: "invalidValue",
                message: "upload names no open call of this app's that may upload (handle and the other hooks of an open app), or uploads more than \(AppWire.maxUploadsPerCall) images.",
                id: id)
        }
        guard let image = Data(base64Encoded: base64) else {
            return .error(code: "invalidValue", message: "upload's image is the file's bytes in base64.", id: id)
        }
        do {
            return .uploaded(id: id, upload: try await upload(image))
        } catch {
            let refusal = error as? MessagesError ?? MessagesError(.unknown, "The image could not be uploaded; try again.")
            return .error(code: refusal.code.name, message: refusal.message, id: id)
        }
    }

    /// The answer to the app's `containerGet` `id` of `key` during `call`: the value, or an
    /// `error` frame with the read's id (no such call with a container, too many reads, or a
    /// refused or failed read: never passed off as an unset key).
    @_spi(Hosting) public func read(_ key: String, for call: String, answering id: String) async -> AppWire.ServerFrame {
        let allowed = state.withLock { state -> (container: (any AppContainer)?, found: Bool) in
            guard var waiting = state.waiting[call], waiting.reads < AppWire.maxContainerReadsPerCall else { return (nil, false) }
            waiting.reads += 1
            state.waiting[call] = waiting
            return (waiting.container, true)
        }
        guard allowed.found, let container = allowed.container else {
            return .error(code: "invalidValue", message: "containerGet names no open call of this app's that reads a container, or reads too often.", id: id)
        }
        do {
            let data = try await container.data(forKey: String(key.prefix(200)))
            return .containerValue(id: id, value: data.flatMap { try? JSONValue(json: $0) } ?? .null)
        } catch {
            let refusal = error as? MessagesError ?? MessagesError(.unknown, "The container could not be read; try again.")
            return .error(code: refusal.code.name, message: refusal.message, id: id)
        }
    }

    private func resolve(_ id: String, _ body: (CheckedContinuation<AppWire.Result, any Error>) -> Void) {
        guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        body(waiting.continuation)
    }
}
