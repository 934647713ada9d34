import Hummingbird
import ParlorStore

/// What an operator's tools call: `/healthz` (the process answers), `/readyz` (it can serve:
/// the store answers and is migrated, and on PostgreSQL this node hears the others) and
/// `/metrics` (Prometheus text; on the public listener only with the admin token, or on its own
/// loopback port with `--metrics-port`).
struct OperatorRoutes {
    let services: ParlorServices
    /// The store's answer to whether it can serve.
    let readiness: any OperationsStore
    let gate: AdminGate

    func add(to router: Router<ParlorRequestContext>) {
        router.get("/healthz") { _, _ in "ok" }
        router.get("/readyz") { _, _ in
            let reason = await readiness.unreadiness()
            return Response(
                status: reason == nil ? .ok : .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: .init(string: (reason ?? "ready") + "\n")))
        }
        router.get("/metrics") { request, context in
            try await gate.check(request, context)
            return await Self.metrics(of: services)
        }
    }

    /// The metrics as Prometheus text, with the gauges read now.
    static func metrics(of services: ParlorServices) async -> Response {
        let queues = await services.fanOut.hub.queues
        services.metrics.connections.record(queues.connections)
        services.metrics.queuedItems.record(queues.items)
        services.metrics.longestQueue.record(queues.longest)
        services.metrics.appConnections.record(await services.remoteApps.totalConnections)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: .init(string: services.metrics.render())))
    }
}
