import CoreMetrics
import Metrics
import Foundation
import Prometheus
import Synchronization

/// What an operator watches, served as Prometheus text at `GET /metrics` (docs/OPERATING.md).
///
/// The instruments are swift-metrics' (`Counter`, `Timer`, `Recorder`), made by a
/// `PrometheusMetricsFactory` on a registry of this server's own, so several servers in one
/// process (the tests) count apart and nothing depends on a process-wide bootstrap. Labels take
/// only bounded values: route patterns (never raw paths), status codes, message kinds, app ids of
/// registered apps.
///
/// ```swift
/// let metrics = ServerMetrics()
/// metrics.messageCommitted(kind: "text")
/// print(metrics.render())  // parlor_messages_committed_total{kind="text"} 1 …
/// ```
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry

    let deliveries: CoreMetrics.Counter
    let slowConsumerDisconnects: CoreMetrics.Counter
    let signInFailures: CoreMetrics.Counter
    let signInLockouts: CoreMetrics.Counter
    let commitBatchSize: CoreMetrics.Recorder
    let commitDuration: CoreMetrics.Timer
    let connections: CoreMetrics.Gauge
    let appConnections: CoreMetrics.Gauge
    let queuedItems: CoreMetrics.Gauge
    let longestQueue: CoreMetrics.Gauge
    private let messagesCommitted: Labelled<CoreMetrics.Counter>
    private let appCalls: Labelled<CoreMetrics.Counter>
    private let appCallDurations: Labelled<CoreMetrics.Timer>
    private let requests: Labelled<CoreMetrics.Counter>
    private let requestDurations: Labelled<CoreMetrics.Timer>
    private let refusals: Labelled<CoreMetrics.Counter>
    private let pushes: Labelled<CoreMetrics.Counter>
    private let pushDelays: CoreMetrics.Timer

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var setup = PrometheusMetricsFactory(registry: registry)
        setup.valueHistogramBuckets["parlor_commit_batch_size"] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
        let fast: [Duration] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        setup.durationHistogramBuckets["parlor_commit_duration_seconds"] = fast
        setup.durationHistogramBuckets["parlor_http_request_duration_seconds"] = fast
        setup.durationHistogramBuckets["parlor_app_call_duration_seconds"] = fast + [.milliseconds(2500), .seconds(5)]
        let factory = setup
        deliveries = CoreMetrics.Counter(label: "parlor_deliveries_total", factory: factory)
        slowConsumerDisconnects = CoreMetrics.Counter(label: "parlor_slow_consumer_disconnects_total", factory: factory)
        signInFailures = CoreMetrics.Counter(label: "parlor_sign_in_failures_total", factory: factory)
        signInLockouts = CoreMetrics.Counter(label: "parlor_sign_in_lockouts_total", factory: factory)
        commitBatchSize = CoreMetrics.Recorder(label: "parlor_commit_batch_size", factory: factory)
        commitDuration = CoreMetrics.Timer(label: "parlor_commit_duration_seconds", factory: factory)
        connections = CoreMetrics.Gauge(label: "parlor_connections", factory: factory)
        appConnections = CoreMetrics.Gauge(label: "parlor_app_connections", factory: factory)
        queuedItems = CoreMetrics.Gauge(label: "parlor_delivery_queue_items", factory: factory)
        longestQueue = CoreMetrics.Gauge(label: "parlor_delivery_queue_longest", factory: factory)
        refusals = Labelled { CoreMetrics.Counter(label: "parlor_limit_refusals_total", dimensions: [("limit", $0[0])], factory: factory) }
        messagesCommitted = Labelled { CoreMetrics.Counter(label: "parlor_messages_committed_total", dimensions: [("kind", $0[0])], factory: factory) }
        appCalls = Labelled { CoreMetrics.Counter(label: "parlor_app_calls_total", dimensions: [("app", $0[0]), ("outcome", $0[1])], factory: factory) }
        appCallDurations = Labelled { CoreMetrics.Timer(label: "parlor_app_call_duration_seconds", dimensions: [("app", $0[0])], factory: factory) }
        requests = Labelled {
            CoreMetrics.Counter(label: "parlor_http_requests_total", dimensions: [("route", $0[0]), ("method", $0[1]), ("status", $0[2])], factory: factory)
        }
        requestDurations = Labelled { CoreMetrics.Timer(label: "parlor_http_request_duration_seconds", dimensions: [("route", $0[0])], factory: factory) }
        pushes = Labelled { CoreMetrics.Counter(label: "parlor_pushes_total", dimensions: [("result", $0[0])], factory: factory) }
        pushDelays = CoreMetrics.Timer(label: "parlor_push_delay_seconds", factory: factory)
    }

    /// One push to a browser's push service, and how it ended: `sent`, `gone` (its subscription
    /// removed), `throttled` (429), `failed` (after its retries), `dropped` (the queue was full).
    func push(_ result: String) {
        pushes[result].increment()
    }

    /// From a message's commit to its push request leaving the server.
    func pushDelay(_ duration: Duration) {
        pushDelays.record(duration: duration)
    }

    /// One message written to the store (not a retry of one already there).
    /// A request refused by one of the limits on what one person may push at others or at the
    /// server (`messages`, `mentionAlerts`, `imageProxy`, …).
    func refused(by limit: String) {
        refusals[limit].increment()
    }

    func messageCommitted(kind: String) {
        messagesCommitted[kind].increment()
    }

    /// One group commit: how many messages it wrote and how long it took.
    func commit(batch: Int, took duration: Duration) {
        commitBatchSize.record(batch)
        commitDuration.record(duration: duration)
    }

    /// One call to an app outside the server, and how it ended (`ok`, or the error's code).
    func appCall(app: String, outcome: String, took duration: Duration) {
        appCalls[app, outcome].increment()
        appCallDurations[app].record(duration: duration)
    }

    /// One HTTP request, by its route's pattern (`/api/conversations/{id}/messages`).
    func request(route: String, method: String, status: Int, took duration: Duration) {
        requests[route, method, String(status)].increment()
        requestDurations[route].record(duration: duration)
    }

    /// The Prometheus text of every metric.
    public func render() -> String { registry.emitToString() }
}

/// One metric with labels: an instrument per set of label values, each made once. Making one
/// takes the registry's lock and checks every name, which a committed message or an HTTP request
/// must not pay each time. The values are bounded (kinds, route patterns, statuses, registered
/// apps), so the cache is too.
private final class Labelled<Instrument: Sendable>: Sendable {
    private let made = Mutex<[[String]: Instrument]>([:])
    private let make: @Sendable ([String]) -> Instrument

    init(_ make: @escaping @Sendable ([String]) -> Instrument) {
        self.make = make
    }

    subscript(_ values: String...) -> Instrument {
        made.withLock { made in
            if let known = made[values] { return known }
            let instrument = make(values)
            made[values] = instrument
            return instrument
        }
    }
}
