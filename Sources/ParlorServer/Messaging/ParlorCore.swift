import AsyncHTTPClient
import Foundation
import Logging
import ParlorHost
import ParlorKit
import ParlorStore

/// The server's domain logic behind the HTTP routes and the WebSocket gateway: membership,
/// sending and fan-out, staging, and running app instances.
public final class ParlorCore: Sendable {
    let store: any ParlorStore
    let directory: AppDirectory
    let configuration: ServerConfiguration
    let logger: Logger
    let hub = Hub()
    let instances = InstanceRegistry()
    let caches = ViewerCaches()
    let fanOutTracker = FanOutTracker()
    let httpClient: ServerFetchClient
    /// How this node hears about other nodes' changes (nothing, with one node).
    let bus: any ClusterBus

    init(
        store: any ParlorStore, directory: AppDirectory, configuration: ServerConfiguration, httpClient: AsyncHTTPClient.HTTPClient,
        bus: any ClusterBus, logger: Logger
    ) {
        self.store = store
        self.directory = directory
        self.configuration = configuration
        self.logger = logger
        self.bus = bus
        self.httpClient = ServerFetchClient(client: httpClient)
    }

    /// The conversation, if `user` is in it.
    /// - Throws: `APIError.notFound` otherwise, whether or not it exists.
    func requireMember(_ user: UserID, of conversation: ConversationID) async throws -> ConversationRecord {
        guard let record = try await caches.conversation(conversation, store: store), record.members.contains(user) else {
            throw APIError.notFound
        }
        return record
    }

    /// The user's drawer: what they installed, in order.
    func drawer(of user: UserID) async throws -> [String] {
        try await caches.drawer(user, store: store, directory: directory)
    }

    func setDrawer(_ items: [String], of user: UserID) async throws {
        guard items.count <= 200, Set(items).count == items.count, items.allSatisfy(directory.contains(drawerItem:)) else {
            throw APIError.invalid("The drawer lists each app or sticker pack of the store at most once.")
        }
        try await store.setDrawer(items, user: user)
        await caches.setDrawer(items, for: user)
    }

    /// Whether `user` has `app` in their drawer.
    func hasInstalled(_ app: AppID, user: UserID) async throws -> Bool {
        try await drawer(of: user).contains(app.rawValue)
    }

    /// A conversation as `viewer`'s list shows it.
    func wire(_ summary: ConversationSummary, for viewer: UserID) async throws -> Wire.Conversation {
        let members = try await caches.users(summary.conversation.members, store: store)
        var preview: String?
        if let last = summary.lastMessage {
            let name = members.first { $0.id == last.sender }?.displayName ?? "Someone"
            switch last.content {
            case .text(let text): preview = "\(name): \(text.prefix(80))"
            case .sticker: preview = "\(name) sent a sticker"
            case .app(let message):
                let appName = message.appID.flatMap { directory.app($0)?.manifest.name } ?? "an app"
                preview = "\(name) · \(appName)"
            }
        }
        return Wire.Conversation(
            id: summary.conversation.id, title: summary.conversation.title, isGroup: summary.conversation.isGroup,
            members: members.map { Wire.User($0) }, lastSequence: summary.conversation.lastSequence,
            unreadCount: summary.unreadCount, preview: preview)
    }

    /// Tells every member that a conversation changed (created, renamed, members changed), here
    /// and on the other nodes.
    func announce(_ conversation: ConversationID, to users: [UserID]) async {
        await announceLocally(conversation, to: users)
        await bus.publish(.conversationChanged(conversation))
    }

    /// Tells this node's connections of `users` that a conversation changed.
    func announceLocally(_ conversation: ConversationID, to users: [UserID]) async {
        await caches.forgetConversation(conversation)
        await sendConversation(conversation, to: users)
    }

    /// Sends each of `users` the conversation as their list shows it (unread count included).
    func sendConversation(_ conversation: ConversationID, to users: [UserID]) async {
        for user in users {
            do {
                var info: Wire.Conversation?
                if let summary = try await store.conversationSummary(conversation, for: user) {
                    info = try await wire(summary, for: user)
                }
                await hub.send(.conversation(conversation, info: info), to: user)
            } catch {
                logger.warning("Could not announce a conversation change", metadata: ["error": "\(error)"])
            }
        }
    }
}

/// Small read-through caches of what every frame needs: conversations, users, drawers, and the
/// names behind participant ids.
actor ViewerCaches {
    private var conversations: [ConversationID: ConversationRecord] = [:]
    private var users: [UserID: User] = [:]
    private var drawers: [UserID: [String]] = [:]
    private var names: [String: [String: String]] = [:]
    private var liveViews: [String: ViewNode] = [:]

    func conversation(_ id: ConversationID, store: any ParlorStore) async throws -> ConversationRecord? {
        if let cached = conversations[id] { return cached }
        let record = try await store.conversation(id: id)
        if let record { conversations[id] = record }
        return record
    }

    func forgetConversation(_ id: ConversationID) {
        conversations[id] = nil
        names = names.filter { !$0.key.hasPrefix(id.description) }
    }

    func users(_ ids: [UserID], store: any ParlorStore) async throws -> [User] {
        let missing = ids.filter { users[$0] == nil }
        if !missing.isEmpty {
            for user in try await store.users(ids: missing) { users[user.id] = user }
        }
        return ids.compactMap { users[$0] }
    }

    func forgetUser(_ id: UserID) { users[id] = nil }

    func drawer(_ user: UserID, store: any ParlorStore, directory: AppDirectory) async throws -> [String] {
        if let cached = drawers[user] { return cached }
        let drawer = try await store.drawer(user: user)?.filter(directory.contains(drawerItem:)) ?? directory.defaultDrawer
        drawers[user] = drawer
        return drawer
    }

    func setDrawer(_ items: [String], for user: UserID) { drawers[user] = items }

    /// Participant id → display name for the members of a conversation, inside one app.
    func names(conversation: ConversationRecord, app: AppID, store: any ParlorStore) async throws -> [String: String] {
        let key = "\(conversation.id)\u{0}\(app.rawValue)"
        if let cached = names[key] { return cached }
        let members = try await users(conversation.members, store: store)
        var map: [String: String] = [:]
        for member in members {
            map[try await store.participantID(user: member.id, app: app).description] = member.displayName
        }
        names[key] = map
        return map
    }

    func liveView(_ key: String) -> ViewNode? { liveViews[key] }

    func setLiveView(_ view: ViewNode, for key: String) {
        if liveViews.count > 10_000 { liveViews.removeAll() }
        liveViews[key] = view
    }
}
