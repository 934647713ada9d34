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
/// - `notices` (held by `messaging` and `conversations`): `conversation` frames to members'
///   connections;
/// - `messaging`: sending, fan-out, reading and expiry, with `MessageRules`;
/// - `apps`: running app instances and the compose field (uses `messaging` to send);
/// - `conversations`: creating conversations and changing their titles and members (uses `apps`
///   for participants);
/// - `remoteApps`: apps outside the server, their connections and calls (closes their surfaces
///   through `apps` when one is removed);
/// - `uploads`: blobs within each person's quota.
///
/// Each is given the roles of the store it uses (`Messaging.Store`, …), never the whole store,
/// which none of them holds. Messaging hands new app messages to the apps through
/// `fanOut.deliveries`, a queue run by `AppDeliveryService`, so nothing below `apps` calls up into it.
final class ParlorServices: Sendable {
    let configuration: ServerConfiguration
    let logger: Logger
    let directory: AppDirectory
    /// This node's connections and the other nodes, where committed changes go.
    let fanOut: FanOut
    let membership: Membership
    let drawers: Drawers
    let renderer: Renderer
    let messaging: Messaging
    let reactions: Reactions
    let changes: MessageChanges
    let search: MessageSearch
    let typing: TypingRelay
    let apps: AppHost
    let conversations: Conversations
    let remoteApps: RemoteApps
    let uploads: Uploads
    let metrics: ServerMetrics
    let accounts: Accounts
    let sessions: Sessions
    let pushSubscriptions: PushSubscriptions
    let pushSender: PushSender

    init(
        store: any ParlorStore, directory: AppDirectory, configuration: ServerConfiguration, httpClient: HTTPClient,
        bus: any ClusterBus, metrics: ServerMetrics, logger: Logger
    ) {
        self.directory = directory
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        let caches = ViewerCaches()
        let fanOut = FanOut(
            hub: Hub(metrics: metrics), bus: bus, tracker: FanOutTracker(), deliveries: AppDeliveries(), pushes: PushDeliveries(metrics: metrics))
        self.fanOut = fanOut
        accounts = Accounts(store: store, configuration: configuration, metrics: metrics)
        sessions = Sessions(accounts: accounts, store: store, hub: fanOut.hub, bus: bus, logger: logger)
        uploads = Uploads(store: store, configuration: configuration)
        membership = Membership(store: store, caches: caches)
        drawers = Drawers(store: store, caches: caches, directory: directory)
        renderer = Renderer(
            store: store, caches: caches, directory: directory, drawers: drawers, imageLinks: ImageLinkSigner(store: store, logger: logger))
        let notices = ConversationNotices(store: store, caches: caches, renderer: renderer, fanOut: fanOut, logger: logger)
        messaging = Messaging(
            store: store, membership: membership, renderer: renderer, notices: notices, fanOut: fanOut,
            policy: Messaging.Policy(
                configuration: configuration, directory: directory, linkPreviews: LinkPreviews(configuration: configuration, logger: logger),
                metrics: metrics))
        changes = MessageChanges(store: store, messaging: messaging, renderer: renderer, fanOut: fanOut, limits: .init(configuration))
        search = MessageSearch(store: store, renderer: renderer, searchesPerMinute: configuration.searchesPerMinute)
        reactions = Reactions(
            store: store, membership: membership, fanOut: fanOut, perMinute: configuration.reactionsPerMinute,
            maxKinds: configuration.maxReactionKinds)
        typing = TypingRelay(membership: membership, fanOut: fanOut, interval: configuration.typingInterval)
        apps = AppHost(
            store: store, membership: membership, renderer: renderer, messaging: messaging, fanOut: fanOut,
            hosting: AppHost.Hosting(
                directory: directory, drawers: drawers, uploads: uploads, httpClient: ServerFetchClient(client: httpClient),
                allowsPrivateHosts: configuration.allowsPrivateHosts, logger: logger))
        let pushKeys = PushKeys(store: store, contact: configuration.pushSubject)
        if configuration.publicURL != nil, configuration.pushSubject == ServerConfiguration.localPushSubject {
            logger.warning("Pushes give push services no contact: set --push-contact mailto:you@example.org (Apple's refuses them without one)")
        }
        pushSubscriptions = PushSubscriptions(store: store, keys: pushKeys, configuration: configuration)
        pushSender = PushSender(
            store: store, renderer: renderer, hub: fanOut.hub, bus: fanOut.bus, client: httpClient, keys: pushKeys, deadline: configuration.pushDeadline,
            metrics: metrics, logger: logger)
        conversations = Conversations(
            store: store, membership: membership, messaging: messaging, notices: notices, apps: apps, limits: .init(configuration))
        let apps = apps
        remoteApps = RemoteApps(
            store: store, directory: directory, deadline: configuration.appCallDeadline, wasmLimits: configuration.wasmLimits,
            metrics: metrics, logger: logger, onUpgraded: { app in await apps.appUpgraded(app) }
        ) { app, reason in
            await apps.appRemoved(app, reason: reason)
        }
    }
}
