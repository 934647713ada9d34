import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import ParlorKit
import ParlorStore
import Synchronization

/// Turns a message into pushes (RFC 8030) and sends them: each member with no connection (to this
/// node, nor to another node of a cluster: `ClusterBus.presentElsewhere`) and a device subscribed
/// is told who wrote where (and what, unless they turned that off),
/// not in a conversation they muted unless it mentions them. Each push is encrypted for its
/// browser (RFC 8291) and signed with the server's VAPID key (RFC 8292), with a `Topic` per
/// conversation so that a burst waiting at the push service collapses into one. Every push shows
/// a notification: browsers revoke (Safari) or complain about (Chrome) pushes that show nothing,
/// so there is no push that only closes one.
final class PushSender: Sendable {
    typealias Store = PushStore & ConversationStore & SecretStore

    /// One request to a push service.
    struct Push: Sendable {
        let endpoint: URL
        let subscription: PushSubscriptionRecord
        let payload: [UInt8]
        let topic: String
        let urgency: String
        let committedAt: ContinuousClock.Instant
    }

    /// The `Urgency` (RFC 8030 §5.3) of a push in a 1:1 conversation or one that mentions the
    /// person; others are "normal".
    static let urgent = "high"

    let store: any Store
    let renderer: Renderer
    let hub: Hub
    let bus: any ClusterBus
    let client: HTTPClient
    let keys: PushKeys
    let deadline: Duration
    let metrics: ServerMetrics
    let logger: Logger

    /// Push service hosts that answered 429, and until when they asked to be left alone.
    private let throttled = Mutex<[String: ContinuousClock.Instant]>([:])

    /// Tries per push; the waits between them.
    static let attempts = 3
    static let retryDelays: [Duration] = [.seconds(1), .seconds(4)]
    /// The longest `Retry-After` waited for before a push is given up.
    static let longestWait: Duration = .seconds(60)
    /// How long a push service keeps a message for a device that is off (RFC 8030 `TTL`).
    static let messageTTL = 24 * 3600

    init(
        store: any Store, renderer: Renderer, hub: Hub, bus: any ClusterBus, client: HTTPClient, keys: PushKeys, deadline: Duration, metrics: ServerMetrics,
        logger: Logger
    ) {
        self.store = store
        self.renderer = renderer
        self.hub = hub
        self.bus = bus
        self.client = client
        self.keys = keys
        self.deadline = deadline
        self.metrics = metrics
        self.logger = logger
    }

    /// The topic of a conversation's pushes: its id's 32 hex digits (RFC 8030 §5.4: at most 32
    /// characters of the base64url alphabet).
    static func topic(_ conversation: ConversationID) -> String {
        conversation.description.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The pushes `job` makes; none when nobody is to be told.
    func pushes(for job: PushDeliveries.Job) async -> [Push] {
        do {
            return try await pushes(for: job.message, committedAt: job.committedAt)
        } catch {
            logger.warning("Pushes could not be prepared", metadata: ["error": "\(error)"])
            return []
        }
    }

    private func pushes(for message: StoredMessage, committedAt: ContinuousClock.Instant) async throws -> [Push] {
        // The members as fan-out just read them (the viewer caches): no store read per message.
        guard !message.content.isEvent,
              let conversation = try await renderer.caches.conversation(message.conversationID, store: renderer.store)
        else { return [] }
        var offline: [UserID] = []
        for member in conversation.members where member != message.sender {
            if await !hub.isOnline(member) { offline.append(member) }
        }
        var subscriptions = try await store.pushSubscriptions(of: offline, now: Date())
        guard !subscriptions.isEmpty else { return [] }
        // Asked only about those with a device to push to. Not known (the database is away): pushed.
        var elsewhere: Set<UserID> = []
        do {
            elsewhere = try await bus.presentElsewhere(Array(Set(subscriptions.map(\.user))))
        } catch {
            logger.warning("Who is connected to the other nodes could not be read; pushing to all", metadata: ["error": "\(error)"])
        }
        subscriptions.removeAll { elsewhere.contains($0.user) }
        // What the notification says is the same for everyone it goes to: read once.
        let alerted = Set(message.content.alertedUsers)
        let muted = try await store.mutedMembers(of: conversation.id)
        let sender = (try? await renderer.caches.users([message.sender], store: renderer.store))?.first?.displayName ?? "Someone"
        let preview = String(await renderer.preview(of: message, senderName: sender, for: message.sender).prefix(200))
        var pushes: [Push] = []
        for (user, devices) in Dictionary(grouping: subscriptions, by: \.user) {
            let mentioned = alerted.contains(user)
            // Muted: nothing, unless it mentions them (as the page's own notifications do).
            guard !muted.contains(user) || mentioned else { continue }
            let title = conversation.isGroup ? "\(sender)\(mentioned ? " mentioned you" : "") in \(conversation.title ?? "a group")" : sender
            for device in devices {
                let body = device.showsText ? preview : "New message"
                let payload = PushPayload(
                    type: "message", conversation: conversation.id.description, title: title, body: body,
                    url: "/#/c/\(conversation.id)")
                if let push = try push(
                    payload, in: conversation.id, to: device, urgency: mentioned || !conversation.isGroup ? Self.urgent : "normal", committedAt: committedAt)
                {
                    pushes.append(push)
                }
            }
        }
        return pushes
    }

    private func push(
        _ payload: PushPayload, in conversation: ConversationID, to device: PushSubscriptionRecord, urgency: String,
        committedAt: ContinuousClock.Instant
    ) throws -> Push? {
        guard let endpoint = URL(string: device.endpoint) else { return nil }
        return Push(
            endpoint: endpoint, subscription: device, payload: Array(try JSONEncoder().encode(payload)), topic: Self.topic(conversation),
            urgency: urgency, committedAt: committedAt)
    }

    /// Sends one push: retried on a network failure or a 5xx; a 429 is waited out as its
    /// `Retry-After` asks (at most `longestWait`); a 404 or 410 removes the subscription.
    func send(_ push: Push) async {
        let host = push.endpoint.host ?? ""
        guard let recipient = try? WebPushEncryption.Recipient(
            publicKey: Base64URL.decode(push.subscription.publicKey) ?? [], authSecret: Base64URL.decode(push.subscription.authSecret) ?? [])
        else {
            await remove(push.subscription)
            return
        }
        // How it ended when every try failed: `throttled` when the last one was a 429.
        var outcome = "failed"
        for attempt in 0..<Self.attempts {
            if let until = throttled.withLock({ $0[host] }), until > .now {
                guard until - .now <= Self.longestWait else {
                    metrics.push("throttled")
                    return
                }
                try? await Task.sleep(until: until)
            }
            do {
                var request = HTTPClientRequest(url: push.endpoint.absoluteString)
                request.method = .POST
                request.headers.add(name: "TTL", value: String(Self.messageTTL))
                request.headers.add(name: "Urgency", value: push.urgency)
                request.headers.add(name: "Topic", value: push.topic)
                request.headers.add(name: "Content-Encoding", value: "aes128gcm")
                request.headers.add(name: "Content-Type", value: "application/octet-stream")
                request.headers.add(name: "Authorization", value: try await keys.authorization(for: push.endpoint))
                request.body = .bytes(ByteBuffer(bytes: try WebPushEncryption.encrypt(push.payload, for: recipient)))
                if attempt == 0 { metrics.pushDelay(.now - push.committedAt) }
                let response = try await client.execute(request, timeout: .init(deadline))
                _ = try? await response.body.collect(upTo: 16 * 1024)
                switch response.status.code {
                case 200..<300:
                    metrics.push("sent")
                    return
                case 404, 410:
                    await remove(push.subscription)
                    return
                case 429:
                    let seconds = response.headers.first(name: "Retry-After").flatMap(Int.init) ?? 60
                    let until = ContinuousClock.now + .seconds(min(max(seconds, 1), 3600))
                    throttled.withLock { $0[host] = until }
                    outcome = "throttled"
                    continue
                case 500..<600:
                    outcome = "failed"
                default:
                    // 400, 403 (a VAPID token the service refuses: see --push-contact), 413.
                    logger.warning("A push service refused a push", metadata: ["host": "\(host)", "status": "\(response.status.code)"])
                    metrics.push("failed")
                    return
                }
            } catch {
                outcome = "failed"
                logger.debug("A push did not go through", metadata: ["host": "\(host)", "error": "\(error)"])
            }
            if attempt < Self.retryDelays.count { try? await Task.sleep(for: Self.retryDelays[attempt]) }
        }
        metrics.push(outcome)
    }

    /// The push service said this subscription is gone (or its keys cannot be used): removed,
    /// by its id, so that a newer subscription of the same browser stays.
    private func remove(_ subscription: PushSubscriptionRecord) async {
        _ = try? await store.removePushSubscription(id: subscription.id, user: subscription.user)
        metrics.push("gone")
    }

}

/// What a push carries to the service worker (encrypted), which shows it as a notification.
struct PushPayload: Codable, Sendable {
    /// `message`.
    let type: String
    let conversation: String
    let title: String
    let body: String
    /// What the notification opens.
    let url: String
}

/// The server's VAPID key, read from the store at first use (made there by the first node), and
/// the tokens it signed, one per push service origin, used again until an hour before they expire.
final class PushKeys: Sendable {
    let store: any SecretStore
    let contact: String
    private let loaded = Mutex<VAPID?>(nil)
    private let signed = Mutex<[String: (header: String, renewAt: Date)]>([:])

    init(store: any SecretStore, contact: String) {
        self.store = store
        self.contact = contact
    }

    func vapid() async throws -> VAPID {
        if let vapid = loaded.withLock({ $0 }) { return vapid }
        let raw = try await store.secret(named: "vapid-p256", candidate: [UInt8](P256.Signing.PrivateKey().rawRepresentation))
        let vapid = VAPID(key: try P256.Signing.PrivateKey(rawRepresentation: raw), contact: contact)
        loaded.withLock { $0 = vapid }
        return vapid
    }

    /// The `Authorization` header for a push to `endpoint`.
    func authorization(for endpoint: URL) async throws -> String {
        let origin = "\(endpoint.scheme ?? "")://\(endpoint.host ?? ""):\(endpoint.port ?? 0)"
        let now = Date()
        if let cached = signed.withLock({ $0[origin] }), cached.renewAt > now { return cached.header }
        let header = try await vapid().authorization(for: endpoint, now: now)
        signed.withLock { signed in
            if signed.count > 100 { signed.removeAll() }
            signed[origin] = (header, now.addingTimeInterval(VAPID.lifetime - 3600))
        }
        return header
    }
}
