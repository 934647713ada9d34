import Foundation
import ParlorKit
import ParlorStore
import ServiceLifecycle

/// What to push, queued by messaging on the node where it happened (so a cluster pushes each
/// message once) and sent by `PushService`: a bounded queue, the oldest dropped (and counted)
/// when push services fall so far behind.
final class PushDeliveries: Sendable {
    /// A message was committed: its members with no connection may be told.
    struct Job: Sendable {
        let message: StoredMessage
        let committedAt: ContinuousClock.Instant
    }

    /// The most jobs waiting.
    static let capacity = 1_000

    let stream: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    private let metrics: ServerMetrics

    init(metrics: ServerMetrics) {
        self.metrics = metrics
        (stream, continuation) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .bufferingNewest(Self.capacity))
    }

    func enqueue(_ job: Job) {
        if case .dropped = continuation.yield(job) { metrics.push("dropped") }
    }

    func finish() { continuation.finish() }
}

/// Sends the queued pushes, several at once (at most `perService` to one push service), until the
/// server stops.
struct PushService: Service {
    let deliveries: PushDeliveries
    let sender: PushSender
    /// Requests in flight to one push service, and in all.
    static let perService = 16
    static let total = 64
    /// Pushes waiting for a place, for one push service and in all. Most devices share one push
    /// service (every Chrome's is Google's): a message to a group of hundreds waits its turn
    /// there, it is not dropped (only 32 of a group's 100 pushes went when as many waited as ran).
    /// A waiting push holds its payload and a suspended task, a few KiB, so a backlog stays within
    /// tens of MiB; one task ends every wait that runs out (`ConcurrencyLimit`).
    static let waitingPerService = 5_000
    static let waitingTotal = 10_000
    /// Urgent pushes (a 1:1 conversation, a mention) have places of their own besides: they never
    /// wait behind a large group's burst to the same push service, which anyone in that group
    /// could otherwise cause on purpose.
    static let urgentPerService = 8
    static let urgentTotal = 32

    func run() async throws {
        let places = ConcurrencyLimit(
            perKey: Self.perService, total: Self.total, patience: .seconds(300), waitingPerKey: Self.waitingPerService, waitingTotal: Self.waitingTotal)
        let urgentPlaces = ConcurrencyLimit(
            perKey: Self.urgentPerService, total: Self.urgentTotal, patience: .seconds(300),
            waitingPerKey: Self.waitingPerService, waitingTotal: Self.waitingTotal)
        await withDiscardingTaskGroup { group in
            await withGracefulShutdownHandler {
                for await job in deliveries.stream {
                    for push in await sender.pushes(for: job) {
                        // Each waits for its place in its own task: a push service that is slow
                        // or asks to wait holds back its own pushes, not the others'. Past the
                        // waiters a limit keeps, one is dropped (and counted) at once.
                        let places = push.urgency == PushSender.urgent ? urgentPlaces : places
                        group.addTask {
                            let host = push.endpoint.host ?? ""
                            // Refused past the waiting bound, after waiting in vain, or the server
                            // stopping (the task cancelled): not sent.
                            guard await places.enter(host) == .entered else {
                                sender.metrics.push("dropped")
                                return
                            }
                            defer { places.leave(host) }
                            guard !Task.isCancelled else {
                                sender.metrics.push("dropped")
                                return
                            }
                            await sender.send(push)
                        }
                    }
                }
            } onGracefulShutdown: {
                deliveries.finish()
            }
            group.cancelAll()
        }
    }
}
