import ParlorKit
import Synchronization

/// Participant ids already read, by user and app. An id never changes once stored, so a store
/// reads each from its database once while it stays here: `participantID` is asked on every
/// render of an app message, for the sender of each app message and for every member when an
/// instance is built. Holds at most `capacity` ids, the least recently used going first.
///
/// A deleted account's ids go from the cache of the node that deleted it (`forget`); another node
/// of a cluster may answer its old ids until they go from its cache, which only the account's old
/// messages can ask for.
public final class ParticipantIDCache: Sendable {
    private struct Key: Hashable {
        let user: UserID
        let app: AppID
    }

    private let ids: Mutex<LRUCache<Key, ParticipantID>>

    public init(capacity: Int = 50_000) {
        ids = Mutex(LRUCache(capacity: capacity))
    }

    /// The id of `user` in `app`: the one known, else what `load` reads (or creates), kept.
    public func id(user: UserID, app: AppID, load: () async throws -> ParticipantID) async throws -> ParticipantID {
        let key = Key(user: user, app: app)
        if let known = ids.withLock({ $0[key] }) { return known }
        let loaded = try await load()
        ids.withLock { $0[key] = loaded }
        return loaded
    }

    /// Forgets `user`'s ids: their account is gone.
    public func forget(user: UserID) {
        ids.withLock { $0.removeAll { key, _ in key.user == user } }
    }
}
