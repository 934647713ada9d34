import AsyncHTTPClient
import Foundation
import Logging
import ParlorKit
import ParlorStore

/// The server's services, built once in dependency order; routes, the gateway and cluster sync
/// call their APIs. Each service owns one concern:
///
/// - `accounts`, `sessions`: sign-up and sign-in; where a sign-in ends (its sockets closed);
/// - `membership`: who is in which conversation (every request's first check);
/// - `drawers`: what each user installed;
/// - `renderer`: what a viewer sees on the wire (reads only);
/// - `notices`: `conversation` frames to members' connections;
/// - `messaging`: sending, fan-out, reading and expiry, with `MessageRules`;
/// - `apps`: running app instances and the compose field (uses `messaging` to send);
/// - `conversations`: creating conversations and changing their titles and members (uses `apps`
///   for participants);
/// - `remoteApps`: apps outside the server, their connections and calls (closes their surfaces
///   through `apps` when one is removed).
///
/// Messaging hands new app messages to the apps through `deliveries`, a queue run by
/// `AppDeliveryService`, so nothing below `apps` calls up into it.
final class ParlorServices: Sendable {
    let configuration: ServerConfiguration
    let logger: Logger
    let store: any ParlorStore
    let directory: AppDirectory
    let bus: any ClusterBus
    let hub: Hub
    let fanOutTracker: FanOutTracker
    let deliveries: AppDeliveries
    let membership: Membership
    let drawers: Drawers
    let renderer: Renderer
    let notices: ConversationNotices
    let messaging: Messaging
    let reactions: Reactions
    let changes: MessageChanges
    let search: MessageSearch
    let typing: TypingRelay
    let apps: AppHost
    let conversations: Conversations
    let remoteApps: RemoteApps
    let metrics: ServerMetrics
    let accounts: Accounts
    let sessions: Sessions

    init(
        store: any ParlorStore, directory: AppDirectory, configuration: ServerConfiguration, httpClient: HTTPClient,
        bus: any ClusterBus, metrics: ServerMetrics, logger: Logger
    ) {
        self.store = store
        self.directory = directory
        self.configuration = configuration
        self.bus = bus
        self.logger = logger
        self.metrics = metrics
        let caches = ViewerCaches()
        hub = Hub(metrics: metrics)
        accounts = Accounts(store: store, configuration: configuration, metrics: metrics)
        sessions = Sessions(accounts: accounts, store: store, hub: hub, bus: bus, logger: logger)
        fanOutTracker = FanOutTracker()
        deliveries = AppDeliveries()
        membership = Membership(store: store, caches: caches)
        drawers = Drawers(store: store, caches: caches, directory: directory)
        renderer = Renderer(
            store: store, caches: caches, directory: directory, drawers: drawers, imageLinks: ImageLinkSigner(store: store, logger: logger))
        notices = ConversationNotices(store: store, caches: caches, renderer: renderer, hub: hub, bus: bus, logger: logger)
        messaging = Messaging(
            store: store, membership: membership, renderer: renderer, notices: notices, hub: hub, caches: caches,
            fanOutTracker: fanOutTracker, deliveries: deliveries, directory: directory, configuration: configuration,
            metrics: metrics, bus: bus, linkPreviews: LinkPreviews(configuration: configuration, logger: logger))
        changes = MessageChanges(
            store: store, messaging: messaging, renderer: renderer, caches: caches, hub: hub, bus: bus, configuration: configuration)
        search = MessageSearch(store: store, renderer: renderer, configuration: configuration)
        reactions = Reactions(store: store, membership: membership, caches: caches, hub: hub, bus: bus, configuration: configuration)
        typing = TypingRelay(
            membership: membership, caches: caches, store: store, hub: hub, bus: bus, interval: configuration.typingInterval)
        apps = AppHost(
            store: store, membership: membership, drawers: drawers, renderer: renderer, messaging: messaging, hub: hub, bus: bus,
            instances: InstanceRegistry(), caches: caches, directory: directory, httpClient: ServerFetchClient(client: httpClient),
            allowsPrivateHosts: configuration.allowsPrivateHosts, logger: logger)
        conversations = Conversations(
            store: store, membership: membership, renderer: renderer, notices: notices, apps: apps, caches: caches,
            configuration: configuration)
        let apps = apps
        remoteApps = RemoteApps(
            store: store, directory: directory, deadline: configuration.appCallDeadline, metrics: metrics, logger: logger
        ) { app, reason in
            await apps.appRemoved(app, reason: reason)
        }
    }
}
