import ParlorHost
import ParlorKit
import ParlorStore

/// Identifies one app instance: a user's app in a conversation, or on its home surface.
struct InstanceKey: Hashable, Sendable {
    let user: UserID
    let scope: InstanceScope
    let app: AppID
}

/// The running app instances, and which app each user has open in each conversation.
actor InstanceRegistry {
    private var instances: [InstanceKey: any HostedAppInstance] = [:]
    private var open: [UserConversation: AppID] = [:]

    struct UserConversation: Hashable {
        let user: UserID
        let conversation: ConversationID
    }

    func instance(_ key: InstanceKey) -> (any HostedAppInstance)? { instances[key] }

    /// Keeps `instance` unless another one for `key` got there first; returns the one kept.
    func insert(_ instance: any HostedAppInstance, for key: InstanceKey) -> any HostedAppInstance {
        if let existing = instances[key] { return existing }
        instances[key] = instance
        return instance
    }

    func openApp(of user: UserID, in conversation: ConversationID) -> AppID? {
        open[UserConversation(user: user, conversation: conversation)]
    }

    func setOpenApp(_ app: AppID?, of user: UserID, in conversation: ConversationID) {
        open[UserConversation(user: user, conversation: conversation)] = app
    }

    /// The instances of `app` open in `conversation` for `users`.
    func openInstances(of app: AppID, in conversation: ConversationID, for users: [UserID]) -> [(UserID, any HostedAppInstance)] {
        users.compactMap { user in
            guard open[UserConversation(user: user, conversation: conversation)] == app,
                  let instance = instances[InstanceKey(user: user, scope: .conversation(conversation), app: app)]
            else { return nil }
            return (user, instance)
        }
    }

    /// Every instance in `conversation` (to update participants).
    func instances(in conversation: ConversationID) -> [(InstanceKey, any HostedAppInstance)] {
        instances.filter { $0.key.scope == .conversation(conversation) }.map { ($0.key, $0.value) }
    }

    /// Forgets one instance (another node changed it; the next use resumes the stored one).
    func forget(_ key: InstanceKey) { instances[key] = nil }

    /// Forgets a user's instances in a conversation they left.
    func remove(user: UserID, conversation: ConversationID) {
        instances = instances.filter { !($0.key.user == user && $0.key.scope == .conversation(conversation)) }
        open[UserConversation(user: user, conversation: conversation)] = nil
    }
}
