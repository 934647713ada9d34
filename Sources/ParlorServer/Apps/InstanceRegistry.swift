import Foundation
import ParlorHost
import ParlorKit
import ParlorStore

/// Identifies one app instance: a user's app in a conversation, or on its home surface.
struct InstanceKey: Hashable, Sendable {
    let user: UserID
    let scope: InstanceScope
    let app: AppID
}

/// Tells one instance's saves from those of another made for the same key (the one it replaced,
/// or the one that replaced it after it was forgotten).
final class InstanceToken: Sendable {}

/// The running app instances, and which app each user has open in each conversation.
///
/// At most `capacity` instances stay in memory; past it the least recently used go, except the
/// ones open on someone's screen. That loses nothing: an instance's state is saved as it
/// changes, and the next use resumes it from the store. One that goes while still in use (a
/// slow call, a caller about to call it) is only let go: its saves still count, and the next
/// use takes it back rather than resume a second copy from the store (`evicted`).
actor InstanceRegistry {
    /// An instance in memory, with the snapshot last saved for it (nil before its first save here).
    private struct Running {
        let instance: any HostedAppInstance
        let token: InstanceToken
        var saved: Data?
        /// A message it sent dropped its stored snapshot (`droppedBySend`), not saved again since.
        var dropped = false
    }

    /// An instance the cache let go, until nothing else holds it either.
    private struct Evicted {
        weak var instance: (any HostedAppInstance)?
        let token: InstanceToken
        let saved: Data?
        let dropped: Bool

        init(_ running: Running) {
            (instance, token, saved, dropped) = (running.instance, running.token, running.saved, running.dropped)
        }

        /// It again, while something still holds it.
        var running: Running? {
            instance.map { Running(instance: $0, token: token, saved: saved, dropped: dropped) }
        }
    }

    private var instances: LRUCache<InstanceKey, Running>
    private var evicted: [InstanceKey: Evicted] = [:]
    private var open: [UserConversation: AppID] = [:]

    init(capacity: Int = 10_000) {
        instances = LRUCache(capacity: capacity)
    }

    struct UserConversation: Hashable {
        let user: UserID
        let conversation: ConversationID
    }

    func instance(_ key: InstanceKey) -> (any HostedAppInstance)? { running(key)?.instance }

    /// The entry for `key`, marked as just used; one the cache let go comes back while in use.
    private func running(_ key: InstanceKey) -> Running? {
        if let running = instances[key] { return running }
        guard let running = evicted.removeValue(forKey: key)?.running else { return nil }
        keep(running, for: key)
        return running
    }

    /// Puts `running` in the cache; what the cache lets go is kept, while in use, in `evicted`.
    private func keep(_ running: Running, for key: InstanceKey) {
        let gone = instances.set(running, for: key, isPinned: isOpen)
        guard !gone.isEmpty else { return }
        evicted = evicted.filter { $0.value.instance != nil }  // the last ones let go that nothing holds any more
        for entry in gone { evicted[entry.key] = Evicted(entry.value) }
    }

    /// Records that `snapshot`, of the instance `token` names, is to be saved for `key`.
    /// - Returns: false when it is what was saved last, so it need not be written again; false
    ///   when the instance is no longer the one kept for `key` (another replaced it); and false
    ///   while a message it sent has dropped the stored snapshot and its state is older than that
    ///   message (`olderThanItsMessage`): the app rather opens afresh than with it.
    func recordSaved(_ snapshot: Data, of token: InstanceToken, for key: InstanceKey, olderThanItsMessage: Bool) -> Bool {
        guard let running = running(key), running.token === token, running.saved != snapshot,
              !(running.dropped && olderThanItsMessage)
        else { return false }
        change(key) {
            $0.saved = snapshot
            $0.dropped = false
        }
        return true
    }

    /// A message the instance sent dropped its stored snapshot in its transaction: the next save
    /// after a call that ends well must write, even a snapshot equal to the one dropped.
    func droppedBySend(for key: InstanceKey) {
        change(key) {
            $0.saved = nil
            $0.dropped = true
        }
    }

    /// Forgets what was saved last for `key` (the save failed: the next one must write).
    func forgetSaved(for key: InstanceKey) {
        change(key) { $0.saved = nil }
    }

    private func change(_ key: InstanceKey, _ body: (inout Running) -> Void) {
        guard var running = running(key) else { return }
        body(&running)
        keep(running, for: key)
    }

    private func isOpen(_ key: InstanceKey) -> Bool {
        guard case .conversation(let conversation) = key.scope else { return false }
        return open[UserConversation(user: key.user, conversation: conversation)] == key.app
    }

    /// Keeps `instance` (whose saves carry `token`) unless another one for `key` got there first;
    /// returns the one kept.
    func insert(_ instance: any HostedAppInstance, of token: InstanceToken, for key: InstanceKey) -> any HostedAppInstance {
        if let existing = running(key) { return existing.instance }
        keep(Running(instance: instance, token: token, saved: nil), for: key)
        return instance
    }

    /// The app `user` has open in `conversation`, with its instance when it is in memory.
    func openInstance(of user: UserID, in conversation: ConversationID) -> (app: AppID, instance: any HostedAppInstance)? {
        guard let app = openApp(of: user, in: conversation),
              let instance = instance(InstanceKey(user: user, scope: .conversation(conversation), app: app))
        else { return nil }
        return (app, instance)
    }

    func openApp(of user: UserID, in conversation: ConversationID) -> AppID? {
        open[UserConversation(user: user, conversation: conversation)]
    }

    func setOpenApp(_ app: AppID?, of user: UserID, in conversation: ConversationID) {
        open[UserConversation(user: user, conversation: conversation)] = app
    }

    /// The instances of `app` open in `conversation` for `users`.
    func openInstances(of app: AppID, in conversation: ConversationID, for users: [UserID]) -> [any HostedAppInstance] {
        users.compactMap { user in
            guard open[UserConversation(user: user, conversation: conversation)] == app,
                  let instance = running(InstanceKey(user: user, scope: .conversation(conversation), app: app))?.instance
            else { return nil }
            return instance
        }
    }

    /// Every instance in `conversation` (to update participants).
    func instances(in conversation: ConversationID) -> [(InstanceKey, any HostedAppInstance)] {
        (instances.keys + evicted.keys).filter { $0.scope == .conversation(conversation) }.compactMap { key in
            (instances.peek(key)?.instance ?? evicted[key]?.instance).map { (key, $0) }
        }
    }

    /// Every instance of `user` (to change their language).
    func instances(of user: UserID) -> [any HostedAppInstance] {
        (instances.keys + evicted.keys).filter { $0.user == user }.compactMap { key in instances.peek(key)?.instance ?? evicted[key]?.instance }
    }

    /// Forgets one instance (another node changed it; the next use resumes the stored one).
    func forget(_ key: InstanceKey) {
        instances[key] = nil
        evicted[key] = nil
    }

    /// Forgets every instance of `app` (a new version of it came): each one's next use resumes the
    /// stored one with the new version; what is open stays open.
    func forgetAll(of app: AppID) {
        instances.removeAll { key, _ in key.app == app }
        evicted = evicted.filter { $0.key.app != app }
    }

    /// How many instances the cache holds (not those it let go that are still in use).
    var count: Int { instances.count }

    /// Forgets a user's instances in a conversation they left.
    func remove(user: UserID, conversation: ConversationID) {
        instances.removeAll { key, _ in key.user == user && key.scope == .conversation(conversation) }
        evicted = evicted.filter { !($0.key.user == user && $0.key.scope == .conversation(conversation)) }
        open[UserConversation(user: user, conversation: conversation)] = nil
    }

    /// Stops every instance of `app` (it left the server).
    /// - Returns: the instances that were open, whose surfaces must close.
    func removeAll(of app: AppID) -> [InstanceKey] {
        var wasOpen: [InstanceKey] = []
        for (place, openApp) in open where openApp == app {
            wasOpen.append(InstanceKey(user: place.user, scope: .conversation(place.conversation), app: app))
            open[place] = nil
        }
        wasOpen += (instances.keys + evicted.keys).filter { $0.app == app && $0.scope == .home }
        instances.removeAll { key, _ in key.app == app }
        evicted = evicted.filter { $0.key.app != app }
        return wasOpen
    }
}
