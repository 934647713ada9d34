import Logging
import ParlorKit
import ParlorStore
import ServiceLifecycle
import Synchronization

/// Rings when someone's first connection to this node opens or their last one closes
/// (`Hub.register`, `Hub.unregister`), or when every presence is to be told again: rings that
/// come while one waits make one.
final class PresenceSignal: Sendable {
    let rings: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let everyone = Mutex(true)

    init() {
        (rings, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func ring() { continuation.yield() }

    /// Asks for the next report to say everyone present, not what changed.
    func ringForEveryone() {
        everyone.withLock { $0 = true }
        continuation.yield()
    }

    /// Whether the next report says everyone; asking clears it.
    func takeEveryone() -> Bool { everyone.withLock { state in defer { state = false }; return state } }
}

/// Keeps the other nodes told who has a connection to this one (`ClusterBus.reportPresence`),
/// so that the node where a message is sent does not push it to someone reading on another node.
/// Each report says what changed since the last, after a short pause that gathers a burst (a
/// node's connections coming back after a restart) into one; a report that fails is tried again.
/// Everyone present is told again when this node's listener reconnects and every `refresh`: a
/// node whose listener was away meanwhile may have had its rows swept by another.
/// Run only on a cluster: alone on its store, the hub knows everyone.
struct PresenceReporter: Service {
    let hub: Hub
    let bus: any ClusterBus
    let logger: Logger

    static let gathering: Duration = .milliseconds(100)
    static let retry: Duration = .seconds(2)
    static let refresh: Duration = .seconds(60)

    func run() async throws {
        let signal = hub.presence
        let bus = bus
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await envelope in bus.events() where envelope.origin == bus.nodeID && envelope.event == .listenerRestarted {
                    signal.ringForEveryone()
                }
            }
            group.addTask {
                while (try? await Task.sleep(for: Self.refresh)) != nil { signal.ringForEveryone() }
            }
            await cancelWhenGracefulShutdown { await report() }
            group.cancelAll()
        }
    }

    private func report() async {
        let signal = hub.presence
        var reported: Set<UserID> = []
        for await _ in signal.rings {
            try? await Task.sleep(for: Self.gathering)
            let everyone = signal.takeEveryone()
            let present = Set(await hub.onlineUsers)
            let arrived = present.subtracting(reported), left = reported.subtracting(present)
            guard everyone || !arrived.isEmpty || !left.isEmpty else { continue }
            do {
                try await bus.reportPresence(everyone ? .everyone(Array(present)) : .changed(arrived: Array(arrived), left: Array(left)))
                reported = present
            } catch {
                logger.warning("Who is connected here could not be told to the other nodes", metadata: ["error": "\(error)"])
                if everyone { signal.ringForEveryone() }
                try? await Task.sleep(for: Self.retry)
                signal.ring()
            }
        }
    }
}
