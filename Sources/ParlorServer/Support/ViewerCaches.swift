import Foundation
import ParlorKit
import ParlorStore

/// Small read-through caches of what every frame needs: conversations, users, drawers, the
/// names behind participant ids, and rendered live views. Each holds at most `capacity` entries
/// and lets the least recently used go (`LRUCache`): a server with more than that many active
/// conversations reads some again from the store, it does not grow without end.
public actor ViewerCaches {
    private var conversations: LRUCache<ConversationID, ConversationRecord>
    private var users: LRUCache<UserID, User>
    /// Each user's stored drawer (`items` nil: never set): resolved against the directory on each
    /// read, since apps outside the server come and go while it runs.
    private var drawers: LRUCache<UserID, StoredDrawer>

    private struct StoredDrawer {
        let items: [String]?
    }
    private var names: LRUCache<String, [String: String]>
    private var liveViews: LRUCache<String, ViewNode>
    /// Each person's language as their newest connection said it (`hello`'s `language`): what
    /// their apps draw in. Kept in memory on the node they connect to; each connection says it again.
    private var languages: LRUCache<UserID, String>
    /// Who started each session (`MessageStore.sessionStarter`), by conversation and session: it
    /// never changes once the session has a message.
    private var starters: LRUCache<String, UserID>

    public init(capacity: Int = 10_000) {
        languages = LRUCache(capacity: capacity)
        conversations = LRUCache(capacity: capacity)
        users = LRUCache(capacity: capacity)
        drawers = LRUCache(capacity: capacity)
        names = LRUCache(capacity: capacity)
        liveViews = LRUCache(capacity: capacity)
        starters = LRUCache(capacity: capacity)
    }

    /// How many entries each cache holds now (conversations, users, drawers, names, live views,
    /// session starters).
    public var counts: [Int] { [conversations.count, users.count, drawers.count, names.count, liveViews.count, starters.count] }

    public func conversation(_ id: ConversationID, store: any ConversationStore) async throws -> ConversationRecord? {
        if let cached = conversations[id] { return cached }
        let record = try await store.conversation(id: id)
        if let record { conversations[id] = record }
        return record
    }

    func forgetConversation(_ id: ConversationID) {
        conversations[id] = nil
        names.removeAll { key, _ in key.hasPrefix(id.description) }
    }

    func users(_ ids: [UserID], store: any AccountStore) async throws -> [User] {
        let missing = ids.filter { users.peek($0) == nil }
        if !missing.isEmpty {
            for user in try await store.users(ids: missing) { users[user.id] = user }
        }
        return ids.compactMap { users[$0] }
    }

    func forgetUser(_ id: UserID) { users[id] = nil }

    func drawer(_ user: UserID, store: any DrawerStore, directory: AppDirectory) async throws -> [String] {
        let stored: StoredDrawer
        if let cached = drawers[user] {
            stored = cached
        } else {
            stored = StoredDrawer(items: try await store.drawer(user: user))
            drawers[user] = stored
        }
        return stored.items?.filter(directory.contains(drawerItem:)) ?? directory.defaultDrawer
    }

    func setDrawer(_ items: [String], for user: UserID) { drawers[user] = StoredDrawer(items: items) }

    /// Participant id → display name for the members of a conversation, inside one app.
    func names(conversation: ConversationRecord, app: AppID, store: any AccountStore & AppStateStore) async throws -> [String: String] {
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

    /// Who sent the first message of `session`.
    func sessionStarter(_ session: SessionID, in conversation: ConversationID, store: any MessageStore) async throws -> UserID? {
        let key = "\(conversation)\u{0}\(session)"
        if let cached = starters[key] { return cached }
        let starter = try await store.sessionStarter(session, in: conversation)
        if let starter { starters[key] = starter }
        return starter
    }

    /// The person's language (`ViewEnvironment.language`): the one their newest connection said.
    func language(of user: UserID) -> String { languages[user] ?? ViewEnvironment.defaultLanguage }

    func setLanguage(_ language: String, of user: UserID) { languages[user] = language }

    func liveView(_ key: String) -> ViewNode? { liveViews[key] }

    func setLiveView(_ view: ViewNode, for key: String) {
        liveViews[key] = view
    }
}
