import Logging
import ParlorKit
import ParlorStore
import ServiceLifecycle

/// Rings when someone's first connection to this node opens or their last one closes
/// (`Hub.register`, `Hub.unregister`): rings that come while one waits make one.
final class PresenceSignal: Sendable {
    let rings: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (rings, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func ring() { continuation.yield() }
}

/// Keeps the other nodes told who has a connection to this one (`ClusterBus.reportPresence`),
/// so that the node where a message is sent does not push it to someone reading on another node.
/// Each report says what changed since the last, after a short pause that gathers a burst (a
/// node's connections coming back after a restart) into one; a report that fails is tried again.
/// Run only on a cluster: alone on its store, the hub knows everyone.
struct PresenceReporter: Service {
    let hub: Hub
    let bus: any ClusterBus
    let logger: Logger

    static let gathering: Duration = .milliseconds(100)
    static let retry: Duration = .seconds(2)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var reported: Set<UserID> = []
            for await _ in hub.presence.rings {
                try? await Task.sleep(for: Self.gathering)
                let present = Set(await hub.onlineUsers)
                let arrived = present.subtracting(reported), left = reported.subtracting(present)
                guard !arrived.isEmpty || !left.isEmpty else { continue }
                do {
                    try await bus.reportPresence(arrived: Array(arrived), left: Array(left))
                    reported = present
                } catch {
                    logger.warning("Who is connected here could not be told to the other nodes", metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: Self.retry)
                    hub.presence.ring()
                }
            }
        }
    }
}
