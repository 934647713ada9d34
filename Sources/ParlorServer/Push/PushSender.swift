import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import ParlorKit
import ParlorStore
import Synchronization

/// Turns what happened into pushes (RFC 8030) and sends them: for a message, each member with no
/// connection to this server and a device subscribed is told who wrote where (and what, unless
/// they turned that off), not in a conversation they muted unless it mentions them; when they
/// read it, the notification goes from their devices. Each push is encrypted for its browser
/// (RFC 8291) and signed with the server's VAPID key (RFC 8292), with a `Topic` per conversation
/// so that a burst collapses into one notification at the push service.
final class PushSender: Sendable {
    typealias Store = PushStore & ConversationStore & SecretStore

    /// One request to a push service.
    struct Push: Sendable {
        let endpoint: URL
        let subscription: PushSubscriptionRecord
        let payload: [UInt8]
        let topic: String
        let urgency: String
        let ttl: Int
        let committedAt: ContinuousClock.Instant?
    }

    let store: any Store
    let renderer: Renderer
    let hub: Hub
    let client: HTTPClient
    let keys: PushKeys
    let deadline: Duration
    let metrics: ServerMetrics
    let logger: Logger

    /// (user, conversation) pairs a message was pushed for and not read since: a read closes
    /// their notification. Bounded: past `maxRemembered`, the oldest are forgotten.
    private let shown = Mutex<[String]>([])
    static let maxRemembered = 10_000
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
        store: any Store, renderer: Renderer, hub: Hub, client: HTTPClient, keys: PushKeys, deadline: Duration, metrics: ServerMetrics,
        logger: Logger
    ) {
        self.store = store
        self.renderer = renderer
        self.hub = hub
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
            switch job {
            case .message(let message, let committedAt): return try await pushes(for: message, committedAt: committedAt)
            case .read(let user, let conversation): return try await closing(conversation, for: user)
            }
        } catch {
            logger.warning("Pushes could not be prepared", metadata: ["error": "\(error)"])
            return []
        }
    }

    private func pushes(for message: StoredMessage, committedAt: ContinuousClock.Instant) async throws -> [Push] {
        guard !message.content.isEvent, let conversation = try await store.conversation(id: message.conversationID) else { return [] }
        var offline: [UserID] = []
        for member in conversation.members where member != message.sender {
            if await !hub.isOnline(member) { offline.append(member) }
        }
        let subscriptions = try await store.pushSubscriptions(of: offline, now: Date())
        guard !subscriptions.isEmpty else { return [] }
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
                if let push = try push(payload, to: device, urgency: mentioned || !conversation.isGroup ? "high" : "normal", ttl: Self.messageTTL, committedAt: committedAt) {
                    pushes.append(push)
                }
            }
            remember(user, conversation.id)
        }
        return pushes
    }

    private func closing(_ conversation: ConversationID, for user: UserID) async throws -> [Push] {
        guard forget(user, conversation) else { return [] }
        let payload = PushPayload(type: "read", conversation: conversation.description, title: nil, body: nil, url: nil)
        return try await store.pushSubscriptions(of: [user], now: Date()).compactMap {
            try push(payload, to: $0, urgency: "normal", ttl: 3600, committedAt: nil)
        }
    }

    private func push(
        _ payload: PushPayload, to device: PushSubscriptionRecord, urgency: String, ttl: Int, committedAt: ContinuousClock.Instant?
    ) throws -> Push? {
        guard let endpoint = URL(string: device.endpoint) else { return nil }
        return Push(
            endpoint: endpoint, subscription: device, payload: Array(try JSONEncoder().encode(payload)),
            topic: Self.topic(ConversationID(payload.conversation) ?? ConversationID()), urgency: urgency, ttl: ttl, committedAt: committedAt)
    }

    /// Sends one push: retried on a network failure or a 5xx; a 429 is waited out as its
    /// `Retry-After` asks (at most `longestWait`); a 404 or 410 removes the subscription.
    func send(_ push: Push) async {
        let host = push.endpoint.host ?? ""
        guard let recipient = try? WebPushEncryption.Recipient(
            publicKey: Base64URL.decode(push.subscription.publicKey) ?? [], authSecret: Base64URL.decode(push.subscription.authSecret) ?? [])
        else {
            try? await store.removePushSubscription(endpoint: push.subscription.endpoint)
            metrics.push("gone")
            return
        }
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
                request.headers.add(name: "TTL", value: String(push.ttl))
                request.headers.add(name: "Urgency", value: push.urgency)
                request.headers.add(name: "Topic", value: push.topic)
                request.headers.add(name: "Content-Encoding", value: "aes128gcm")
                request.headers.add(name: "Content-Type", value: "application/octet-stream")
                request.headers.add(name: "Authorization", value: try await keys.authorization(for: push.endpoint))
                request.body = .bytes(ByteBuffer(bytes: try WebPushEncryption.encrypt(push.payload, for: recipient)))
                if let committedAt = push.committedAt, attempt == 0 { metrics.pushDelay(.now - committedAt) }
                let response = try await client.execute(request, timeout: .init(deadline))
                _ = try? await response.body.collect(upTo: 16 * 1024)
                switch response.status.code {
                case 200..<300:
                    metrics.push("sent")
                    return
                case 404, 410:
                    try? await store.removePushSubscription(endpoint: push.subscription.endpoint)
                    metrics.push("gone")
                    return
                case 429:
                    let seconds = response.headers.first(name: "Retry-After").flatMap(Int.init) ?? 60
                    let until = ContinuousClock.now + .seconds(min(max(seconds, 1), 3600))
                    throttled.withLock { $0[host] = until }
                    metrics.push("throttled")
                    continue
                case 500..<600:
                    break
                default:
                    logger.info("A push service refused a push", metadata: ["host": "\(host)", "status": "\(response.status.code)"])
                    metrics.push("failed")
                    return
                }
            } catch {
                logger.debug("A push did not go through", metadata: ["host": "\(host)", "error": "\(error)"])
            }
            if attempt < Self.retryDelays.count { try? await Task.sleep(for: Self.retryDelays[attempt]) }
        }
        metrics.push("failed")
    }

    private func remember(_ user: UserID, _ conversation: ConversationID) {
        let key = "\(user)/\(conversation)"
        shown.withLock { shown in
            if !shown.contains(key) { shown.append(key) }
            if shown.count > Self.maxRemembered { shown.removeFirst(shown.count - Self.maxRemembered) }
        }
    }

    /// Whether a push for this conversation was shown to `user` since they last read it (and
    /// forgets it).
    private func forget(_ user: UserID, _ conversation: ConversationID) -> Bool {
        let key = "\(user)/\(conversation)"
        return shown.withLock { shown in
            guard let index = shown.firstIndex(of: key) else { return false }
            shown.remove(at: index)
            return true
        }
    }
}

/// What a push carries to the service worker (encrypted), which shows it.
struct PushPayload: Codable, Sendable {
    /// `message` (show a notification) or `read` (close the conversation's).
    let type: String
    let conversation: String
    let title: String?
    let body: String?
    /// What the notification opens.
    let url: String?
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
