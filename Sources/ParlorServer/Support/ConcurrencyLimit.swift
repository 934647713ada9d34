import Foundation
import Synchronization

/// At most `perKey` things at once for one key (a person's image fetches) and `total` for all keys
/// together (the server's). One over a limit waits for a place, first come first served, at most
/// `patience`; a place is given back at once when a thing ends. At most `waitingPerKey` more wait
/// per key and `waitingTotal` more in all (as many as may run, unless told), so memory is
/// bounded; more are refused at once.
final class ConcurrencyLimit: Sendable {
    let perKey: Int
    let total: Int
    /// How long one waits for a place before it is refused.
    let patience: Duration
    let waitingPerKey: Int
    let waitingTotal: Int

    enum Entry: Sendable { case entered, keyFull, totalFull }

    private struct Waiter {
        let id: UUID
        let key: String
        let continuation: CheckedContinuation<Entry, Never>
    }

    private struct State {
        var counts: [String: Int] = [:]
        var running = 0
        var waiters: [Waiter] = []
        /// How many of `waiters` wait for each key.
        var waiting: [String: Int] = [:]

        mutating func remove(at index: Int) -> Waiter {
            let waiter = waiters.remove(at: index)
            if let count = waiting[waiter.key] { waiting[waiter.key] = count > 1 ? count - 1 : nil }
            return waiter
        }
    }

    private let state = Mutex(State())

    init(perKey: Int, total: Int, patience: Duration = .seconds(5), waitingPerKey: Int? = nil, waitingTotal: Int? = nil) {
        self.perKey = max(1, perKey)
        self.total = max(1, total)
        self.patience = patience
        self.waitingPerKey = max(0, waitingPerKey ?? perKey)
        self.waitingTotal = max(0, waitingTotal ?? total)
    }

    /// Takes a place for `key`, waiting for one at most `patience`; call `leave` after `.entered`.
    /// - Returns: `.entered`, or which limit was still full when the wait ended.
    func enter(_ key: String) async -> Entry {
        let id = UUID()
        return await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Entry? in
                // No waiter could take a free place (`leave` hands each one on), so none is passed here.
                if Self.take(key, in: &state, perKey: perKey, total: total) { return .entered }
                guard state.waiters.count < waitingTotal else { return .totalFull }
                guard state.waiting[key, default: 0] < waitingPerKey else { return .keyFull }
                state.waiters.append(Waiter(id: id, key: key, continuation: continuation))
                state.waiting[key, default: 0] += 1
                return nil
            }
            if let now { return continuation.resume(returning: now) }
            Task {
                try? await Task.sleep(for: patience)
                let expired = state.withLock { state -> (Waiter, Entry)? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    let waiter = state.remove(at: index)
                    return (waiter, state.running >= total ? .totalFull : .keyFull)
                }
                if let (waiter, entry) = expired { waiter.continuation.resume(returning: entry) }
            }
        }
    }

    /// Gives `key`'s place back, and hands it to the first waiter that can now enter.
    func leave(_ key: String) {
        let next = state.withLock { state -> Waiter? in
            if let count = state.counts[key] {
                state.counts[key] = count > 1 ? count - 1 : nil
                state.running -= 1
            }
            guard let index = state.waiters.firstIndex(where: { (state.counts[$0.key] ?? 0) < perKey }),
                  Self.take(state.waiters[index].key, in: &state, perKey: perKey, total: total)
            else { return nil }
            return state.remove(at: index)
        }
        next?.continuation.resume(returning: .entered)
    }

    private static func take(_ key: String, in state: inout State, perKey: Int, total: Int) -> Bool {
        guard state.running < total, state.counts[key, default: 0] < perKey else { return false }
        state.counts[key, default: 0] += 1
        state.running += 1
        return true
    }
}
