import Foundation
import ParlorKit
import ParlorStore
import ServiceLifecycle

/// App messages to hand to the recipients' open instances (`didReceive`), queued by messaging
/// and run by `AppDeliveryService` after the sender's call has returned: never nested inside
/// another instance's call, so instances cannot deadlock each other, and owned by the server, so
/// shutting down cancels what is running.
final class AppDeliveries: Sendable {
    struct Delivery: Sendable {
        let message: Message
        let app: AppID
        let conversation: ConversationID
        let recipients: [UserID]
    }

    let stream: AsyncStream<Delivery>
    private let continuation: AsyncStream<Delivery>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Delivery.self)
    }

    func enqueue(_ delivery: Delivery) { continuation.yield(delivery) }

    /// No more deliveries are taken.
    func finish() { continuation.finish() }
}

/// Runs the queued deliveries, each in a child task of this service, until the server stops.
struct AppDeliveryService: Service {
    let deliveries: AppDeliveries
    let host: AppHost

    func run() async throws {
        await withDiscardingTaskGroup { group in
            await withGracefulShutdownHandler {
                for await delivery in deliveries.stream {
                    group.addTask { await host.deliver(delivery) }
                }
            } onGracefulShutdown: {
                deliveries.finish()
            }
            group.cancelAll()
        }
    }
}
