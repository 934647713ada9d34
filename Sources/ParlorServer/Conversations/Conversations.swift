import Foundation
import ParlorInput
@_spi(Hosting) import ParlorKit
import ParlorStore

/// Conversations and their rules: who may start one and with whom (a 1:1 conversation with the
/// same person is reused), titles, adding and removing members, and a group's admins (the
/// creator first; only admins remove others or name other admins; anyone may leave). Every change
/// is announced to the members' connections on every node, written as a line in the transcript
/// ("Alice added Dave", through `Messaging.record`), and running app instances learn the new
/// participants.
final class Conversations: Sendable {
    /// The roles of the store conversations use: conversations, and accounts (people are found by
    /// username).
    typealias Store = ConversationStore & AccountStore & BlobStore

    /// How big a group grows and how fast people are added.
    struct Limits: Sendable {
        /// The most members a group may have (`maxGroupMembers`).
        let maxMembers: Int
        /// Additions of the same person by the same person per minute (`additionsPerMinute`).
        let additionsPerMinute: Int

        /// The limits `configuration` sets.
        init(_ configuration: ServerConfiguration) {
            maxMembers = configuration.maxGroupMembers
            additionsPerMinute = configuration.additionsPerMinute
        }
    }

    let store: any Store
    let membership: Membership
    let messaging: Messaging
    let renderer: Renderer
    let notices: ConversationNotices
    let apps: AppHost
    /// The most members a group may have.
    let maxMembers: Int
    /// Additions to conversations, per (who adds, who is added): one person cannot pull another
    /// into conversation after conversation, and cannot block others from adding them either.
    let additions: RateLimiter
    /// People added to conversations per person adding (ten times the per-pair limit, and at
    /// least a full group's worth): a flood spread over many people.
    let additionsBy: RateLimiter

    init(store: any Store, membership: Membership, messaging: Messaging, notices: ConversationNotices, apps: AppHost, limits: Limits) {
        self.store = store
        self.membership = membership
        self.messaging = messaging
        renderer = messaging.renderer
        self.notices = notices
        self.apps = apps
        maxMembers = limits.maxMembers
        additions = RateLimiter(limit: limits.additionsPerMinute, window: .seconds(60))
        let perPair = limits.additionsPerMinute
        additionsBy = RateLimiter(limit: perPair == 0 ? 0 : max(perPair * 10, limits.maxMembers), window: .seconds(60))
    }

    /// A title has at most this many characters (`Limits.length(of:)`).
    static let maxTitleLength = 100
    /// People search returns at most this many.
    static let maxSearchResults = 50

    /// The title as stored: trimmed, nil when blank.
    /// - Throws: `invalidValue` over `maxTitleLength` or with a character `NameRules` refuses.
    static func title(_ proposed: String?) throws -> String? {
        guard let proposed, !proposed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return try NameRules.check(proposed, what: "A title", maxLength: maxTitleLength)
    }

    /// People whose username or display name contains `query` (everyone for an empty query), as
    /// `user` may find them: someone who blocked `user` is not among them, as nobody by their name
    /// would not be.
    func people(matching query: String, for user: UserID) async throws -> [Wire.User] {
        let query = query.lowercased()
        let hidden = try await membership.blocks(of: user).blockedBy
        let users = try await store.allUsers().filter {
            !hidden.contains($0.id)
                && (query.isEmpty || $0.username.lowercased().contains(query) || $0.displayName.lowercased().contains(query))
        }
        return users.prefix(Self.maxSearchResults).map { Wire.User($0) }
    }

    /// The user's conversations, most recently active first, as their list shows them (not those
    /// they deleted, until a new message comes).
    func list(for user: UserID) async throws -> [Wire.Conversation] {
        var result: [Wire.Conversation] = []
        for summary in try await store.conversations(of: user) where !summary.isDeleted {
            result.append(try await renderer.conversation(summary, for: user))
        }
        return result
    }

    /// One conversation as `user`'s list shows it.
    /// - Throws: `notFound` when the user is not in it.
    func summary(_ conversation: ConversationID, for user: UserID) async throws -> Wire.Conversation {
        guard let summary = try await store.conversationSummary(conversation, for: user) else { throw APIError.notFound }
        return try await renderer.conversation(summary, for: user)
    }

    /// Starts a conversation with the people named by `usernames`. Two people without a title
    /// reuse their existing 1:1 conversation; anything else is a new group.
    /// - Throws: `unknownUser` for a username nobody has; `invalidValue` for no one else, too many
    ///   people or a title over the limit.
    func create(title proposed: String?, with usernames: [String], by user: UserID) async throws -> ConversationID {
        let title = try Self.title(proposed)
        guard !usernames.isEmpty, usernames.count < maxMembers else {
            throw APIError.invalid("Pick 1 to \(maxMembers - 1) people to talk with.")
        }
        var members = [user]
        let blocks = try await membership.blocks(of: user)
        for username in usernames {
            let member = try await account(named: username, reachableWith: blocks)
            if !members.contains(member.id) { members.append(member.id) }
        }
        guard members.count > 1 else { throw APIError.invalid("Pick someone other than yourself.") }
        let isGroup = members.count > 2 || title != nil
        if !isGroup, let existing = try await store.conversations(of: user).first(where: {
            !$0.conversation.isGroup && Set($0.conversation.members) == Set(members)
        }) {
            return existing.conversation.id
        }
        try await countAdditions(of: Array(members.dropFirst()), by: user)
        let record = try await store.createConversation(title: title, isGroup: isGroup, members: members)
        await notices.announce(record.id, to: members)
        return record.id
    }

    /// Renames a conversation (a blank title removes it), sets a group's photo to an image `user`
    /// uploaded or removes it (nil), or both; a nil part stays as it is. Any member may, and both
    /// parts are checked before either is saved, so a refused photo leaves the name as it was. The
    /// members see the change at once, and a line says who made each.
    /// - Throws: `invalidValue` for a title over the limit; `notAGroup` for a photo of a 1:1
    ///   conversation (it shows the other person's picture); `avatarNotFound` (404) for a blob that
    ///   is not `user`'s upload; `improperFileType` for one that is not an image.
    func change(_ conversation: ConversationID, title proposed: String??, photo: String??, by user: UserID) async throws {
        let record = try await membership.requireMember(user, of: conversation)
        let title = try proposed.map { try Self.title($0) }
        if let photo {
            guard record.isGroup else {
                throw APIError(.badRequest, code: .notAGroup, "A conversation between two people shows the other person's picture; only a group has a photo.")
            }
            if let hash = photo { try await store.requireOwnImage(hash, of: user, as: "A group photo") }
        }
        var lines: [ConversationEvent] = []
        if let title, title != record.title {
            try await store.setTitle(title, of: record.id)
            lines.append(.renamed(title: title))
        }
        if let photo, photo != record.photo {
            try await store.setPhoto(photo, of: record.id)
            lines.append(.photo(isSet: photo != nil))
        }
        guard !lines.isEmpty else { return }
        await notices.announce(record.id, to: record.members)
        for line in lines { await messaging.record(line, by: user, in: record.id) }
    }

    /// Tells every member of each of `user`'s conversations how it looks now (after `user`
    /// changed their name: titles and member lists show it).
    func announceAll(of user: UserID) async {
        do {
            for summary in try await store.conversations(of: user) {
                await notices.announce(summary.conversation.id, to: summary.conversation.members)
            }
        } catch {
            // The name is saved: lists show it at their next read.
        }
    }

    /// Changes where a conversation sits in `user`'s own list (mute, pin, archive, mark unread,
    /// delete for them), and tells their other tabs and devices; no one else hears of it.
    func changeList(_ change: ListChange, _ conversation: ConversationID, by user: UserID) async throws {
        let record = try await membership.requireMember(user, of: conversation)
        do {
            try await store.changeList(change, user: user, conversation: record.id, at: Date())
        } catch let error as StoreError where error.code == .full {
            throw APIError(
                .conflict, code: .tooManyPinned, "You can pin up to \(ListPlace.maxPinned) conversations; unpin one to pin this one.")
        }
        await notices.announceToOwner(record.id, user: user)
    }

    /// Adds the person called `username` to a group conversation.
    func addMember(named username: String, to conversation: ConversationID, by user: UserID) async throws {
        let record = try await membership.requireMember(user, of: conversation)
        guard record.isGroup else { throw Self.notAGroup("People can be added to group conversations only; start a group instead.") }
        let member = try await account(named: username, reachableWith: try await membership.blocks(of: user))
        guard !record.members.contains(member.id) else { return }
        guard record.members.count < maxMembers else {
            throw APIError(.conflict, code: .groupFull, "This group has \(maxMembers) members, the most a group may have.")
        }
        try await countAdditions(of: [member.id], by: user)
        try await store.addMember(member.id, to: record.id)
        await notices.announce(record.id, to: record.members + [member.id])
        await messaging.record(.added(people: [member.id]), by: user, in: record.id)
        await apps.refreshParticipants(in: record.id)
    }

    /// Removes `removed` from a conversation: anyone may leave; a group's admins may remove others.
    /// Their app instances there stop, and the members (them included) are told. When the last
    /// admin leaves, the longest-standing member becomes admin (the store does it atomically); when
    /// the last member leaves, the group's photo goes.
    func removeMember(_ removed: UserID, from conversation: ConversationID, by user: UserID) async throws {
        let record = try await membership.requireMember(user, of: conversation)
        guard record.members.contains(removed) else { throw APIError.notFound }
        if removed != user {
            guard record.isGroup else { throw Self.notAGroup("Only group conversations let you remove others; you can leave this one.") }
            try Self.requireAdmin(user, of: record)
        }
        // The store also takes a group's photo away when its last member leaves: nobody can see
        // it, and the upload is its owner's to be swept like any other they no longer use.
        try await store.removeMember(removed, from: record.id)
        await apps.removeInstances(of: removed, in: record.id)
        await notices.announce(record.id, to: record.members)
        await messaging.record(removed == user ? .left : .removed(person: removed), by: user, in: record.id)
        await apps.refreshParticipants(in: record.id)
    }

    /// Makes `member` a group admin, or not. Only admins may; a group keeps at least one admin.
    func setAdmin(_ member: UserID, _ isAdmin: Bool, in conversation: ConversationID, by user: UserID) async throws {
        let record = try await membership.requireMember(user, of: conversation)
        guard record.members.contains(member) else { throw APIError.notFound }
        guard record.isGroup else { throw Self.notAGroup("Only groups have admins.") }
        // Decided inside the store's transaction, not from the cached record: two admins demoting
        // each other at once leave one.
        switch try await store.setAdmin(member, isAdmin, in: record.id, by: user) {
        case .done: break
        case .actorNotAdmin: throw Self.notAdmin
        case .lastAdmin: throw APIError(.conflict, code: .lastAdmin, "A group always has an admin: make someone else one first.")
        }
        await notices.announce(record.id, to: record.members)
        if record.admins.contains(member) != isAdmin {
            await messaging.record(.admin(person: member, isAdmin: isAdmin), by: user, in: record.id)
        }
    }

    /// What a 1:1 conversation refuses that a group would allow (409: the conversation's kind).
    private static func notAGroup(_ message: String) -> APIError { APIError(.conflict, code: .notAGroup, message) }

    private static let notAdmin = APIError(.forbidden, code: .notAdmin, "Only the group's admins can do that; ask one of them.")

    private static func requireAdmin(_ user: UserID, of record: ConversationRecord) throws {
        guard record.admins.contains(user) else { throw notAdmin }
    }

    /// Counts one addition of each person by `adder`; refuses all when `adder` added one of them,
    /// or anyone, too often this minute.
    private func countAdditions(of people: [UserID], by adder: UserID) async throws {
        let pairs = people.map { "\(adder)>\($0)" }
        var wait = await additionsBy.take(Array(repeating: adder.description, count: people.count))
        if wait == nil { wait = await additions.take(pairs) }
        if let wait {
            throw APIError.tooMany(
                .tooManyAdditions,
                "You added people to conversations too often in the last minute (at most \(additions.limit) times the same person); try again in \(wait) seconds.",
                retryAfter: wait)
        }
    }

    /// Another node changed a conversation: this node's connections and instances follow.
    func changedElsewhere(_ conversation: ConversationID) async throws {
        await membership.forget(conversation)
        guard let record = try await store.conversation(id: conversation) else { return }
        await notices.announceLocally(conversation, to: record.members)
        await apps.refreshParticipants(in: conversation)
    }

    /// The person called `username`, whom someone with `blocks` wants to start a conversation with
    /// or add to one.
    /// - Throws: `unknownUser` when there is nobody by that name, and the very same answer when
    ///   they blocked the one asking (who is not told); `personBlocked` when the one asking blocked
    ///   them.
    private func account(named username: String, reachableWith blocks: BlockList) async throws -> User {
        guard let user = try await store.credentials(username: username)?.user, !blocks.blockedBy.contains(user.id) else {
            throw APIError(.notFound, code: .unknownUser, "There is nobody called '\(username.prefix(40))'.")
        }
        guard !blocks.blocked.contains(user.id) else {
            throw APIError(
                .conflict, code: .personBlocked,
                "You blocked \(user.displayName); unblock them in Settings › Blocked people to talk with them.")
        }
        return user
    }
}
