import Foundation
import ParlorKit
import ParlorStore

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
