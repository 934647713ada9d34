import Foundation
import Synchronization

/// At most `perKey` things at once for one key (a person's image fetches) and `total` for all keys
/// together (the server's). One over a limit waits for a place, first come first served, at most
/// `patience`; a place is given back at once when a thing ends. At most `waitingPerKey` more wait
/// per key and `waitingTotal` more in all (as many as may run, unless told), so memory is
/// bounded; more are refused at once. A waiter whose task is cancelled stops waiting at once.
final class ConcurrencyLimit: Sendable {
    let perKey: Int
    let total: Int
    /// How long one waits for a place before it is refused.
    let patience: Duration
    let waitingPerKey: Int
    let waitingTotal: Int

    enum Entry: Sendable {
        case entered, keyFull, totalFull
        /// The waiting task was cancelled (the server is stopping, the request went away).
        case cancelled
    }

    private struct Waiter {
        let id: UUID
        let key: String
        /// When it stops waiting. Every waiter waits as long, so the oldest ends first.
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Entry, Never>
    }

    private struct State {
        var counts: [String: Int] = [:]
        var running = 0
        /// Oldest first.
        var waiters: [Waiter] = []
        /// How many of `waiters` wait for each key.
        var waiting: [String: Int] = [:]
        /// Whether a task is ending the waits that pass their deadline (one for all waiters).
        var expiring = false

        mutating func remove(at index: Int) -> Waiter {
            let waiter = waiters.remove(at: index)
            if let count = waiting[waiter.key] { waiting[waiter.key] = count > 1 ? count - 1 : nil }
            return waiter
        }

        /// Why a waiter that could not enter in time was refused.
        func refusal(total: Int) -> Entry { running >= total ? .totalFull : .keyFull }
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
    /// - Returns: `.entered`, which limit was still full when the wait ended, or `.cancelled`.
    func enter(_ key: String) async -> Entry {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (now, startExpiring) = state.withLock { state -> (Entry?, Bool) in
                    // No waiter could take a free place (`leave` hands each one on), so none is passed here.
                    if Self.take(key, in: &state, perKey: perKey, total: total) { return (.entered, false) }
                    // Cancelled before this: its handler found no waiter to take away (it runs
                    // under the same lock, after the task is marked).
                    if Task.isCancelled { return (.cancelled, false) }
                    guard state.waiters.count < waitingTotal else { return (.totalFull, false) }
                    guard state.waiting[key, default: 0] < waitingPerKey else { return (.keyFull, false) }
                    state.waiters.append(Waiter(id: id, key: key, deadline: .now + patience, continuation: continuation))
                    state.waiting[key, default: 0] += 1
                    let startExpiring = !state.expiring
                    state.expiring = true
                    return (nil, startExpiring)
                }
                if let now { return continuation.resume(returning: now) }
                if startExpiring { Task { await self.expireWaits() } }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                state.waiters.firstIndex(where: { $0.id == id }).map { state.remove(at: $0) }
            }
            waiter?.continuation.resume(returning: .cancelled)
        }
    }

    /// Ends each wait as its deadline passes, the oldest first, until nobody waits.
    private func expireWaits() async {
        while true {
            let (expired, next) = state.withLock { state -> ([(Waiter, Entry)], ContinuousClock.Instant?) in
                let now = ContinuousClock.now
                var expired: [(Waiter, Entry)] = []
                while let first = state.waiters.first, first.deadline <= now {
                    expired.append((state.remove(at: 0), state.refusal(total: total)))
                }
                guard let first = state.waiters.first else {
                    state.expiring = false
                    return (expired, nil)
                }
                return (expired, first.deadline)
            }
            for (waiter, entry) in expired { waiter.continuation.resume(returning: entry) }
            guard let next else { return }
            try? await Task.sleep(until: next)
        }
    }

    /// How many wait for a place.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

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
