/// The calls into one app instance as a value: which one runs, and which wait their turn, first
/// come first served. It suspends nobody and resumes nobody: `AppInstance` tells it a call
/// arrived or ended and carries out the action each event returns, so one call's awaits never let
/// another call in (`InboxStateMachine` in the server is the same shape).
///
///     idle ─enter─▶ running([]) ─enter─▶ running([w]) ─exit─▶ running([]) ─exit─▶ idle
///                                          (resume w)
///
/// `Waiter` is what resumes a waiting call: a continuation in `AppInstance`, a plain value in tests.
struct CallQueue<Waiter> {
    enum State {
        /// No call runs.
        case idle
        /// A call runs; these wait for it, oldest first.
        case running(waiting: [Waiter])
    }

    /// What the call that arrived does.
    enum EnterAction: Sendable, Equatable {
        /// It runs now.
        case run
        /// It waits: the caller suspends and gives the queue what resumes it (`wait(_:)`).
        case wait
    }

    /// What the call that ended does.
    enum ExitAction {
        /// Nothing: no call waits.
        case idle
        /// Resume this waiter: its call runs now (the queue stays running, handed over).
        case resume(Waiter)
    }

    private(set) var state: State = .idle

    /// How many calls wait for the one running to end.
    var waiting: Int {
        switch state {
        case .idle: 0
        case .running(let waiting): waiting.count
        }
    }

    /// A call arrived.
    mutating func enter() -> EnterAction {
        switch state {
        case .idle:
            state = .running(waiting: [])
            return .run
        case .running:
            return .wait
        }
    }

    /// The call `enter` told to wait hands over what resumes it, behind those already waiting.
    mutating func wait(_ waiter: Waiter) {
        guard case .running(var waiting) = state else {
            preconditionFailure("A call waits while none runs")
        }
        waiting.append(waiter)
        state = .running(waiting: waiting)
    }

    /// The running call ended: the oldest waiting call runs next.
    mutating func exit() -> ExitAction {
        guard case .running(var waiting) = state else {
            preconditionFailure("A call ended while none runs")
        }
        guard !waiting.isEmpty else {
            state = .idle
            return .idle
        }
        let next = waiting.removeFirst()
        state = .running(waiting: waiting)
        return .resume(next)
    }
}

extension CallQueue: Sendable where Waiter: Sendable {}
extension CallQueue.State: Sendable where Waiter: Sendable {}
extension CallQueue.State: Equatable where Waiter: Equatable {}
extension CallQueue.ExitAction: Sendable where Waiter: Sendable {}
extension CallQueue.ExitAction: Equatable where Waiter: Equatable {}
