import Hummingbird

/// Counts each HTTP request by its route's pattern, method and status, with its duration, into
/// the server's own `ServerMetrics` (Hummingbird's `MetricsMiddleware` writes to the process-wide
/// metrics system, which several servers in one process would share), and logs it at debug. A
/// request no route matched (the web client's files, a wrong address) counts under `unmatched`,
/// never its path. It runs after `SessionAuthenticator`, so the line names the signed-in user.
struct RequestMetrics: RouterMiddleware {
    typealias Context = ParlorRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: start)
            return response
        } catch {
            record(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let route = context.endpointPath ?? "unmatched"
        let duration = ContinuousClock.now - start
        metrics.request(route: route, method: request.method.rawValue, status: status, took: duration)
        context.logger.debug("Answered", metadata: ["route": "\(route)", "status": "\(status)", "duration": "\(duration)"])
    }
}
