import Foundation
import ParlorKit

/// Everything Parlor keeps: accounts, conversations, messages, staged messages, app instances,
/// app containers, installs and blobs. SQLite (`SQLiteStore`) is the embedded default; one test
/// suite runs against every implementation.
///
/// Messages get gapless per-conversation sequence numbers and are durable when `append` returns.
///
/// A few writes do not wait for the disk, because they change all the time and losing the last
/// of them costs a person nothing they wrote: read marks (with the expiry countdowns a read
/// starts), app snapshots and compose fields (what an app staged, not yet sent). Such a write survives the server process being killed, and is on
/// disk once any commit after it is (a message's `append`); only power lost before that can take
/// it back, and then never without the writes before it.
public protocol ParlorStore: Sendable {
    // MARK: Accounts
    /// - Throws: `StoreError(.conflict)` when the username is taken (case-insensitively).
    func createUser(username: String, displayName: String, passwordHash: String) async throws -> User
    /// The user and their password hash, by username (case-insensitive).
    func credentials(username: String) async throws -> (user: User, passwordHash: String)?
    func user(id: UserID) async throws -> User?
    func users(ids: [UserID]) async throws -> [User]
    func allUsers() async throws -> [User]
    /// Deletes the account with its tokens, memberships, compose fields, app instances, participant
    /// ids, containers, drawer and expiry records. Messages they sent stay.
    func deleteUser(id: UserID) async throws

    // MARK: Sign-in tokens (stored hashed)
    func createToken(hash: String, user: UserID, expiresAt: Date) async throws
    /// The user a token belongs to, if it exists and has not expired at `now`.
    func user(tokenHash: String, now: Date) async throws -> User?
    func deleteToken(hash: String) async throws
    /// Deletes every token of `user` but `keeping` (nil: every one).
    /// - Returns: the hashes deleted, so their connections can be closed.
    func deleteTokens(of user: UserID, keeping: String?) async throws -> [String]
    /// Sets `user`'s password hash and deletes every token of theirs but `keeping`, in one
    /// transaction: no session signed in with the old password outlives the change.
    /// - Returns: the hashes deleted.
    /// - Throws: `StoreError(.notFound)` when there is no such user.
    func changePassword(hash: String, of user: UserID, keeping: String?) async throws -> [String]
    /// Of `hashes`, those that still sign someone in at `now` (not deleted, not expired).
    func liveTokens(among hashes: [String], now: Date) async throws -> Set<String>

    // MARK: Server secrets
    /// The secret called `name`, the same on every node sharing the store: the one stored, or
    /// `candidate` stored now when there is none (of two nodes storing one at once, the first
    /// wins and both get it).
    func secret(named name: String, candidate: [UInt8]) async throws -> [UInt8]

    // MARK: Conversations
    /// `members[0]` is the creator: a group's first admin.
    /// - Throws: `StoreError(.notFound)` when a member does not exist.
    func createConversation(title: String?, isGroup: Bool, members: [UserID]) async throws -> ConversationRecord
    func conversation(id: ConversationID) async throws -> ConversationRecord?
    /// The user's conversations, most recently active first.
    func conversations(of user: UserID) async throws -> [ConversationSummary]
    /// One of the user's conversations as their list shows it; nil when they are not in it.
    func conversationSummary(_ conversation: ConversationID, for user: UserID) async throws -> ConversationSummary?
    func addMember(_ user: UserID, to conversation: ConversationID) async throws
    /// Removes a member. When they were a group's last admin, the longest-standing member left
    /// becomes admin in the same transaction: a group with members always has one.
    func removeMember(_ user: UserID, from conversation: ConversationID) async throws
    /// Makes a member a group admin, or not, as `actor` asks: in one transaction that checks
    /// `actor` is an admin and that the group keeps one. Nothing happens for a non-member.
    func setAdmin(_ user: UserID, _ isAdmin: Bool, in conversation: ConversationID, by actor: UserID) async throws -> AdminChange
    func setTitle(_ title: String?, of conversation: ConversationID) async throws
    /// Mutes a conversation for one member (or unmutes it); only they see it.
    /// - Throws: `StoreError(.notFound)` when they are not a member.
    func setMuted(_ muted: Bool, user: UserID, conversation: ConversationID) async throws

    // MARK: Operations
    /// Why the store cannot serve requests now, in one line (unreachable, not migrated, and for a
    /// shared database, this node not hearing the others); nil when it can. Answers within a few
    /// seconds whatever the database does.
    func unreadiness() async -> String?
    /// Calls `observer` after each group commit with the batch's size and the commit's duration.
    func observeCommits(_ observer: @escaping CommitObserver)

    // MARK: Messages
    /// Commits a message durably and gives it the conversation's next sequence number.
    ///
    /// Idempotent: a message whose id is already in the conversation returns the stored one with
    /// `isDuplicate`. For an app message in a session, the session's head must be
    /// `message.replacing`, else it throws `SessionConflict` carrying the head. `validate` runs
    /// inside the commit with the head, so a message is checked against exactly what it replaces.
    /// `alongside` commits in the same transaction when the message does (or is a duplicate), and
    /// not at all when it is refused.
    func append(
        _ message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void, alongside: [StateWrite]
    ) async throws -> (message: StoredMessage, isDuplicate: Bool)
    /// Messages with a sequence number above `sequence`, oldest first, at most `limit`.
    func messages(in conversation: ConversationID, after sequence: Int64, limit: Int) async throws -> [StoredMessage]
    /// The newest messages, at most `limit`, oldest first.
    func latestMessages(in conversation: ConversationID, limit: Int) async throws -> [StoredMessage]
    func message(id: MessageID, in conversation: ConversationID) async throws -> StoredMessage?
    /// The newest message of a session.
    func sessionHead(_ session: SessionID, in conversation: ConversationID) async throws -> StoredMessage?
    /// Marks messages up to `sequence` as read by `user` (a mark never moves back, nor past the
    /// conversation's last message), without waiting for the disk (see above).
    /// - Returns: the user's read mark before and after this call: the messages in between are
    ///   newly read.
    @discardableResult
    func markRead(user: UserID, conversation: ConversationID, upTo sequence: Int64) async throws -> (previous: Int64, current: Int64)
    /// `user`'s read mark in a conversation and the conversation's last sequence number (both 0
    /// for someone who is not a member).
    func readMark(user: UserID, conversation: ConversationID) async throws -> (mark: Int64, last: Int64)

    // MARK: Edits, unsends, replies
    /// Replaces a text message's text, keeping the old one as a version, when `sender` sent it
    /// after `sentAfter`, it is not unsent, and it has fewer than `maxEdits` versions.
    /// The people the new text mentions alert as before (`StoredContent.edited(to:quieting:)`);
    /// `quieting` names those it newly mentions but does not alert.
    /// - Returns: the message as it is now; nil when any of that no longer holds (the caller
    ///   checked first, to say which: this is the race-free commit).
    func editMessage(
        _ id: MessageID, in conversation: ConversationID, sender: UserID, text: String, quieting: [UserID], sentAfter: Date, maxEdits: Int
    ) async throws -> StoredMessage?
    /// Erases a message's content, versions and reactions, when `sender` sent it after `sentAfter`
    /// and it is not unsent yet.
    /// - Returns: the message as it is now; nil when that no longer holds.
    func unsendMessage(_ id: MessageID, in conversation: ConversationID, sender: UserID, sentAfter: Date) async throws -> StoredMessage?
    /// The texts a message had before its edits, oldest first.
    func versions(of message: MessageID, in conversation: ConversationID) async throws -> [MessageVersion]
    /// The messages replying to `message`, oldest first, at most `limit`.
    func replies(to message: MessageID, in conversation: ConversationID, limit: Int) async throws -> [StoredMessage]

    // MARK: Search
    /// The messages of `user`'s conversations that have a word starting with each of `terms`'
    /// words (see `SearchTerms`), the best match first, then the newest; at most `limit`. Unsent
    /// messages are not found.
    func search(_ terms: SearchTerms, user: UserID, limit: Int) async throws -> [StoredMessage]

    // MARK: Reactions
    /// Puts `user`'s `emoji` on a message (`on`), or takes it off; doing what is already done
    /// changes nothing. A new emoji on a message that already has `maxKinds` different ones is
    /// refused (`.full`), so members cannot grow a message's reactions without bound.
    /// - Returns: the message's reactions now, oldest first, and whether this call changed them.
    /// - Throws: `.notFound` when the message is not in the conversation, or was unsent; `.full` as said.
    func setReaction(
        _ emoji: String, on: Bool, user: UserID, message: MessageID, conversation: ConversationID, maxKinds: Int
    ) async throws -> (reactions: [ReactionRecord], changed: Bool)
    /// The reactions on these messages of a conversation, oldest first for each; messages with
    /// none are left out.
    func reactions(to messages: [MessageID], in conversation: ConversationID) async throws -> [MessageID: [ReactionRecord]]

    // MARK: Read receipts
    /// How far each member who shares read receipts has read, and when their mark last moved
    /// (nil before this was recorded); only `user`'s, when given (none when they do not share).
    func readReceipts(in conversation: ConversationID, of user: UserID?) async throws -> [ReadReceiptRecord]
    /// Whether `user` lets others see how far they have read (true unless they turned it off).
    func sharesReadReceipts(_ user: UserID) async throws -> Bool
    func setSharesReadReceipts(_ shares: Bool, user: UserID) async throws

    // MARK: Profile pictures
    /// Sets (a blob's hash) or clears `user`'s profile picture. The blob is kept while it is one,
    /// and readable by whoever shares a conversation with them.
    func setAvatar(_ hash: String?, user: UserID) async throws

    // MARK: Expiring messages
    /// Records that `user` first read an expiring message at `at` (later reads keep the first),
    /// without waiting for the disk (see above).
    func recordExpiringRead(user: UserID, message: MessageID, conversation: ConversationID, at: Date) async throws
    /// Keeps an expiring message for `user`.
    func keep(user: UserID, message: MessageID, conversation: ConversationID) async throws
    /// Hides, for their readers, expiring messages read before `readBefore` and not kept; returns what it hid.
    func expireReads(readBefore: Date) async throws -> [(user: UserID, conversation: ConversationID, message: MessageID)]
    /// The messages hidden for `user` in a conversation.
    func hiddenMessages(user: UserID, conversation: ConversationID) async throws -> Set<MessageID>

    // MARK: Compose fields
    /// Sets (or with nil clears) what `user` has staged in a conversation, without waiting for the
    /// disk (see above). Sending it clears it in the message's own, durable, transaction.
    func setStaged(_ staged: StagedRecord?, user: UserID, conversation: ConversationID) async throws
    func staged(user: UserID, conversation: ConversationID) async throws -> StagedRecord?

    // MARK: Apps
    /// Saves an app instance's snapshot (how its view was left), without waiting for the disk (see
    /// above): a move costs the disk the sync of its message only, as a plain message does.
    func saveInstance(_ snapshot: Data, user: UserID, scope: InstanceScope, app: AppID) async throws
    func instance(user: UserID, scope: InstanceScope, app: AppID) async throws -> Data?
    /// The user's participant id inside `app`: created on first use, then stable.
    func participantID(user: UserID, app: AppID) async throws -> ParticipantID
    func containerData(user: UserID, app: AppID, key: String) async throws -> Data?
    func setContainerData(_ data: Data?, user: UserID, app: AppID, key: String) async throws
    /// The user's drawer (app ids and `sticker:<pack>` ids, in order), or nil when never set.
    func drawer(user: UserID) async throws -> [String]?
    func setDrawer(_ items: [String], user: UserID) async throws

    // MARK: Blobs (uploads)
    /// Records `owner`'s upload of bytes stored under their content hash (lowercase hex SHA-256,
    /// computed by the caller); the same bytes are stored once whoever uploads them. Uploading
    /// again what one already uploaded costs no quota and renews the upload's time.
    /// - Returns: false, storing nothing, when the owner's uploads would then pass `quota` bytes.
    func putBlob(_ data: Data, hash: String, contentType: String, owner: UserID, quota: Int64, at time: Date) async throws -> Bool
    /// The blob, when `reader` may see it: they uploaded it. (Until messages can carry uploads,
    /// nobody else may.)
    func blob(hash: String, readableBy reader: UserID) async throws -> Blob?
    /// A blob's type and size, when `reader` may fetch it (as `blob(hash:readableBy:)` says),
    /// without reading its bytes.
    func blobInfo(hash: String, readableBy reader: UserID) async throws -> (contentType: String, size: Int64)?
    /// A blob's type and size when `owner` uploaded it (and the upload has not been swept), what a
    /// profile picture must be: someone else's photo that `owner` can see is not theirs to show.
    func uploadInfo(hash: String, owner: UserID) async throws -> (contentType: String, size: Int64)?
    /// Forgets uploads made before `cutoff` that no message uses, and the bytes no upload holds.
    /// - Returns: how many uploads were forgotten.
    func removeUnusedUploads(before cutoff: Date) async throws -> Int

    // MARK: Apps outside the server (`parlor apps add`)
    /// Every app registered to dial in, oldest first.
    func registeredApps() async throws -> [RegisteredApp]
    /// Registers an app, or replaces its manifest and credential hash when its id is registered
    /// (a seed app hosted outside, registered again at each start).
    func saveRegisteredApp(_ app: RegisteredApp) async throws
    /// Registers an app whose id is not registered.
    /// - Returns: false, changing nothing, when the id is taken (two adds at once: one wins).
    func addRegisteredApp(_ app: RegisteredApp) async throws -> Bool
    /// Replaces a registered app's credential hash.
    /// - Returns: false when the app is not registered (a rotation never brings back a removed app).
    func setRegisteredAppSecret(_ secretHash: String, of id: AppID) async throws -> Bool
    /// Forgets a registered app.
    /// - Returns: whether it was registered.
    func deleteRegisteredApp(_ id: AppID) async throws -> Bool
}

extension ParlorStore {
    /// Every member's read receipt that is shared.
    public func readReceipts(in conversation: ConversationID) async throws -> [ReadReceiptRecord] {
        try await readReceipts(in: conversation, of: nil)
    }

    /// `append` with nothing alongside.
    public func append(
        _ message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void
    ) async throws -> (message: StoredMessage, isDuplicate: Bool) {
        try await append(message, validate: validate, alongside: [])
    }
}

/// An app that runs outside the server and dials in with a credential.
public struct RegisteredApp: Sendable, Hashable {
    public var manifest: AppManifest
    /// Lowercase hex SHA-256 of the app's credential: the credential itself is never stored.
    public var secretHash: String
    public var addedAt: Date

    public init(manifest: AppManifest, secretHash: String, addedAt: Date) {
        self.manifest = manifest
        self.secretHash = secretHash
        self.addedAt = addedAt
    }
}

/// A session's head changed before this message could replace it.
public struct SessionConflict: Error, Sendable {
    /// The session's head now.
    public var head: StoredMessage

    /// The conflict a store throws when `head` is the session's head now.
    public init(head: StoredMessage) { self.head = head }
}

extension ParlorStore {
    /// `editMessage` where every mention the new text adds alerts.
    public func editMessage(
        _ id: MessageID, in conversation: ConversationID, sender: UserID, text: String, sentAfter: Date, maxEdits: Int
    ) async throws -> StoredMessage? {
        try await editMessage(id, in: conversation, sender: sender, text: text, quieting: [], sentAfter: sentAfter, maxEdits: maxEdits)
    }
}
