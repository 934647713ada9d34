import Foundation
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorStore

/// Sending, reading and expiring messages: `MessageRules` decide, the store commits durably,
/// then the message is fanned out to every member's connections on this node and queued for
/// the members' open app instances.
final class Messaging: Sendable {
    /// The roles of the store messaging uses: messages, read marks, expiry, uploads (images in a
    /// message) and participant ids (an app message's sender).
    typealias Store = MessageStore & ReceiptStore & ExpiryStore & BlobStore & AppStateStore

    /// What messaging checks and counts a message against, besides `MessageRules` and membership:
    /// the apps and sticker packs hosted, a person's rates, how long a read expiring message
    /// stays, link cards for texts, and the metrics that count commits and refusals.
    struct Policy: Sendable {
        let directory: AppDirectory
        let stickerPlacementsPerMinute: Int
        let messagesPerMinute: Int
        let messageBurst: Int
        let mentionAlertsPerMinute: Int
        let expiryDelay: Duration
        let linkPreviews: LinkPreviews
        let metrics: ServerMetrics

        /// The policy `configuration` sets.
        init(configuration: ServerConfiguration, directory: AppDirectory, linkPreviews: LinkPreviews, metrics: ServerMetrics) {
            self.directory = directory
            stickerPlacementsPerMinute = configuration.stickerPlacementsPerMinute
            messagesPerMinute = configuration.messagesPerMinute
            messageBurst = configuration.messageBurst
            mentionAlertsPerMinute = configuration.mentionAlertsPerMinute
            expiryDelay = configuration.expiryDelay
            self.linkPreviews = linkPreviews
            self.metrics = metrics
        }
    }

    let store: any Store
    let membership: Membership
    let renderer: Renderer
    let notices: ConversationNotices
    let hub: Hub
    let fanOutTracker: FanOutTracker
    let deliveries: AppDeliveries
    /// Pushes to members' devices, queued where a message is sent.
    let pushes: PushDeliveries
    let directory: AppDirectory
    let expiryDelay: Duration
    let metrics: ServerMetrics
    let bus: any ClusterBus
    let linkPreviews: LinkPreviews
    /// Stickers placed on messages, per person per minute.
    let placements: RateLimiter
    /// Messages sent, per person (`messagesPerMinute`, `messageBurst`).
    let sends: TokenBuckets
    /// Mentions that alert, per sender and person mentioned (`mentionAlertsPerMinute`).
    let mentionAlerts: RateLimiter
    /// App messages clients write themselves (`sendAppMessage`), per person per minute, refused
    /// ones included: each may cost an app outside the server a `validate` call.
    let clientAppMessages: RateLimiter

    init(store: any Store, membership: Membership, renderer: Renderer, notices: ConversationNotices, fanOut: FanOut, policy: Policy) {
        linkPreviews = policy.linkPreviews
        placements = RateLimiter(limit: policy.stickerPlacementsPerMinute, window: .seconds(60))
        sends = TokenBuckets(perMinute: policy.messagesPerMinute, burst: policy.messageBurst)
        mentionAlerts = RateLimiter(limit: policy.mentionAlertsPerMinute, window: .seconds(60))
        clientAppMessages = RateLimiter(limit: policy.messagesPerMinute, window: .seconds(60))
        expiryDelay = policy.expiryDelay
        self.store = store
        self.membership = membership
        self.renderer = renderer
        self.notices = notices
        hub = fanOut.hub
        fanOutTracker = fanOut.tracker
        deliveries = fanOut.deliveries
        pushes = fanOut.pushes
        directory = policy.directory
        metrics = policy.metrics
        bus = fanOut.bus
    }

    /// A committed message; `sameForEveryone` is how it reads when it reads the same for every
    /// viewer (text, stickers), rendered and encoded once for fan-out and the sender's
    /// acknowledgement alike.
    struct Sent: Sendable {
        let stored: StoredMessage
        let sameForEveryone: Wire.EncodedMessage?
        /// Whether this was a retry of a message already stored: answered, nothing new sent.
        let isRetry: Bool

        init(stored: StoredMessage, sameForEveryone: Wire.EncodedMessage? = nil, isRetry: Bool = false) {
            self.stored = stored
            self.sameForEveryone = sameForEveryone
            self.isRetry = isRetry
        }
    }

    /// The message as `user` sees it (for the sender's acknowledgement).
    func wire(_ sent: Sent, for user: UserID) async -> Wire.Message {
        if let wire = sent.sameForEveryone?.message { return wire }
        return await renderer.render(sent.stored, for: user)
    }

    /// The acknowledgement frame of a sent message, for its sender.
    func ackFrame(_ sent: Sent, requestId: String?, for user: UserID) async -> String {
        let message = if let encoded = sent.sameForEveryone { encoded } else { Wire.EncodedMessage(await wire(sent, for: user)) }
        return Wire.ServerFrame.ack(requestId: requestId, message: message).json()
    }

    /// Sends a text message, perhaps as a reply, perhaps with the card of a page it links to
    /// (`linkPreview`, a link in the text: the server reads the page, or takes it from its cache;
    /// a page it cannot read, or a `linkPreview` that is not in the text, leaves the text without
    /// a card rather than failing the send). Retrying with the same id returns the original.
    /// - Throws: `replyTargetNotFound` when `replyTo` is not a message the sender sees here.
    func sendText(
        _ text: String, id: MessageID, replyTo: MessageID? = nil, linkPreview: String? = nil, from user: UserID, in conversation: ConversationID
    ) async throws -> Sent {
        let record = try await membership.requireMember(user, of: conversation)
        try MessageRules.checkText(text)
        try Self.checkMentions(in: text, members: record.members)
        if let replyTo, try await visibleMessage(replyTo, user: user, conversation: conversation)?.content.isEvent != false {
            throw APIError(.notFound, code: .replyTargetNotFound, "The message you reply to is not in this conversation.")
        }
        let mentions = await chargeMentions(of: Set(MentionTokens.users(in: text)), from: user)
        do {
            var preview: StoredLinkPreview?
            // A retry of a message already sent is answered from the store, without the page.
            if let linkPreview, text.contains(linkPreview) {
                if try await store.message(id: id, in: conversation) == nil {
                    preview = try? await linkPreviews.preview(of: linkPreview, for: user)
                }
            }
            let sent = try await commit(NewMessage(
                id: id, conversationID: conversation, sender: user, content: .text(text, preview: preview, quiet: mentions.quiet), replyTo: replyTo))
            if sent.isRetry { await refund(mentions) }
            return sent
        } catch {
            await refund(mentions)
            throw error
        }
    }

    /// The mentions of a text about to be sent, charged to the sender's allowance of alerts.
    struct MentionCharge: Sendable {
        /// Those mentioned past the allowance: mentioned, but not alerted.
        var quiet: [UserID] = []
        /// The allowance's keys charged, given back if the text is not sent after all.
        var charged: [String] = []
    }

    /// Of the `people` a text mentions, those past the sender's allowance of alerts for each
    /// (`mentionAlertsPerMinute`): mentioned, but not alerted, so a flood of mentions cannot get
    /// through someone's mute. Give the charge back (`refund`) when the text is not sent.
    func chargeMentions(of people: Set<UserID>, from sender: UserID) async -> MentionCharge {
        var charge = MentionCharge()
        for person in people where person != sender {
            let key = "\(sender)>\(person)"
            if await mentionAlerts.take(key) != nil { charge.quiet.append(person) } else { charge.charged.append(key) }
        }
        if !charge.quiet.isEmpty { metrics.refused(by: "mentionAlerts") }
        charge.quiet.sort { $0.description < $1.description }
        return charge
    }

    /// Gives back the alerts of a text that was not sent after all (refused, or a retry).
    func refund(_ charge: MentionCharge) async {
        for key in charge.charged { await mentionAlerts.refund(key) }
    }

    /// The longest name a photo or file is sent under.
    static let maxFileNameLength = 200

    /// Sends a photo or file the sender uploaded (`POST /api/blobs?kind=file`) or can already see;
    /// from then on the conversation's members may fetch it.
    /// With `voice`, a recording (`RecordingFormat`) sent as a voice message.
    /// - Throws: `attachmentNotFound` (404) for a blob the sender may not fetch; `invalidFileName`;
    ///   `invalidVoiceMessage` for a voice message that is not a recording or whose length or
    ///   waveform is out of bounds.
    func sendAttachment(
        hash: String, name: String, voice: VoiceNote? = nil, id: MessageID, from user: UserID, in conversation: ConversationID
    ) async throws -> Sent {
        try await membership.requireMember(user, of: conversation)
        let fileName: String
        do {
            fileName = try NameRules.check(name, what: "A file name", maxLength: Self.maxFileNameLength)
        } catch {
            throw APIError(.badRequest, code: .invalidFileName, error.message)
        }
        guard !fileName.contains("/"), !fileName.contains("\\") else {
            throw APIError(.badRequest, code: .invalidFileName, "A file name cannot contain / or \\.")
        }
        guard hash.count == 64, let blob = try await store.blobInfo(hash: hash, readableBy: user) else {
            throw APIError(.notFound, code: .attachmentNotFound, "There is no upload of yours with that hash; upload the file first.")
        }
        if let voice {
            if let problem = voice.problem { throw APIError(.badRequest, code: .invalidVoiceMessage, problem) }
            guard RecordingFormat.isRecording(blob.contentType) else {
                throw APIError(.badRequest, code: .invalidVoiceMessage, "Only a recording (\(RecordingFormat.names) audio) can be sent as a voice message.")
            }
        }
        let attachment = StoredAttachment(hash: hash, name: fileName, contentType: blob.contentType, size: blob.size, voice: voice)
        return try await commit(NewMessage(id: id, conversationID: conversation, sender: user, content: .attachment(attachment)))
    }

    /// The most people one message may mention.
    static let maxMentions = 20

    /// Refuses mentions (`<@user id>`, `MentionTokens`) of people outside the conversation, or too many.
    /// - Throws: `tooManyMentions`; `mentionNotMember`.
    static func checkMentions(in text: String, members: [UserID]) throws {
        let mentioned = MentionTokens.users(in: text)
        guard mentioned.count <= maxMentions else {
            throw APIError(.badRequest, code: .tooManyMentions, "A message can mention at most \(maxMentions) people.")
        }
        guard mentioned.allSatisfy(members.contains) else {
            throw APIError(.badRequest, code: .mentionNotMember, "Only people in this conversation can be mentioned.")
        }
    }

    /// A message of the conversation as `user` may see it: nil when there is none, or it expired
    /// for them, or they deleted the history it is in.
    func visibleMessage(_ id: MessageID, user: UserID, conversation: ConversationID) async throws -> StoredMessage? {
        guard let message = try await store.message(id: id, in: conversation) else { return nil }
        if try await store.hiddenMessages(user: user, conversation: conversation).contains(message) { return nil }
        return message
    }

    /// Sends a sticker of one of the server's packs (`<pack>/<file>`), on its own or placed on a
    /// message of the conversation, as Messages lets people peel a sticker onto a bubble.
    /// - Throws: `stickerTargetNotFound` (404) when the placement names no message the sender sees
    ///   here (or one unsent); `invalidPlacement` for a spot off the bubble or a sticker placed on
    ///   a placed sticker; `placingTooFast` (429) past `stickerPlacementsPerMinute`.
    func sendSticker(
        _ stickerID: String, id: MessageID, placement: StickerPlacement? = nil, from user: UserID, in conversation: ConversationID
    ) async throws -> Sent {
        try await membership.requireMember(user, of: conversation)
        guard let sticker = directory.sticker(id: stickerID) else {
            throw MessagesError(.fileNotFound, "There is no sticker '\(stickerID.prefix(80))'.")
        }
        if let placement {
            guard placement.isOnTheBubble else {
                throw APIError(.badRequest, code: .invalidPlacement, "A placed sticker's x and y are fractions of the message, from 0 to 1.")
            }
            guard let target = try await visibleMessage(placement.message, user: user, conversation: conversation), target.unsentAt == nil,
                  !target.content.isEvent
            else {
                throw APIError(.notFound, code: .stickerTargetNotFound, "The message you place the sticker on is not in this conversation.")
            }
            guard target.content.placement == nil else {
                throw APIError(.conflict, code: .invalidPlacement, "Place the sticker on a message, not on another placed sticker.")
            }
            if let wait = await placements.take(user.description) {
                throw APIError.tooMany(
                    .placingTooFast, "You placed more than \(placements.limit) stickers in the last minute; try again in \(wait) seconds.",
                    retryAfter: wait)
            }
        }
        return try await commit(NewMessage(id: id, conversationID: conversation, sender: user, content: .sticker(sticker, placement: placement)))
    }

    /// An app message a client wrote itself (`sendAppMessage`): each try counts against the
    /// sender's `messagesPerMinute` before anything is checked, refused or not, so forged messages
    /// cannot keep an app outside the server checking them without end.
    func sendClientAppMessage(_ message: Message, replacing: MessageID?, from user: UserID, in conversation: ConversationID) async throws -> Sent {
        if let wait = await clientAppMessages.take(user.description) {
            throw APIError.tooMany(
                .sendingTooFast,
                "You sent more than \(clientAppMessages.limit) app messages of your own in the last minute; wait \(wait) seconds and send again.",
                retryAfter: wait)
        }
        return try await sendAppMessage(message, replacing: replacing, from: user, in: conversation)
    }

    /// Commits an app's message: every ParlorKit limit, the session head, and the app's own
    /// `validate` on exactly the head it replaces. The sender's participant id is set here.
    func sendAppMessage(
        _ message: Message, replacing: MessageID?, from user: UserID, in conversation: ConversationID, alongside: [StateWrite] = []
    ) async throws -> Sent {
        try await membership.requireMember(user, of: conversation)
        let app = try MessageRules.app(of: message, in: directory.app)
        let sender = try await store.participantID(user: user, app: app.manifest.id)
        let checked = try MessageRules.prepare(message, sender: sender, app: app.manifest)
        // An app outside the server is asked before the commit (a call cannot run inside it); the
        // commit then requires exactly the head it checked against, so nothing unchecked commits.
        let checkedHead = app.isRemote ? try await checkOutside(checked, replacing: replacing, app: app, in: conversation) : nil
        // A conflict names the new head only when it is this app's: no app sees another's messages.
        @Sendable func ownHead(_ head: StoredMessage?) -> Message? {
            head?.content.appMessage.flatMap { $0.appID == app.manifest.id ? $0 : nil }
        }
        do {
            return try await commit(
                NewMessage(id: checked.id, conversationID: conversation, sender: user, content: .app(checked), replacing: replacing),
                alongside: alongside
            ) { _, head in
                if let checkedHead, head?.id != checkedHead.id {
                    throw MessageRules.sessionConflict(head: ownHead(head))
                }
                try MessageRules.checkAppMessage(checked, replacing: head?.content.appMessage, app: app)
            }
        } catch let conflict as SessionConflict {
            throw MessageRules.sessionConflict(head: ownHead(conflict.head))
        }
    }

    /// The message a session's reply conflicted with (`sessionConflict`), as `user` sees it: sent
    /// with the error, so that the client can apply its change to it.
    func conflictingHead(_ error: MessagesError, in conversation: ConversationID, for user: UserID) async -> Wire.Message? {
        guard let id = error.sessionHead?.id, let stored = try? await store.message(id: id, in: conversation) else { return nil }
        return await renderer.render(stored, for: user)
    }

    /// The head an outside app checked a message against (`id` nil: it starts a session, or has none).
    private struct CheckedHead {
        let id: MessageID?
    }

    /// Asks an app outside the server to check `message` against its session's head now.
    /// - Returns: the head checked against, which the commit must still find; nil for a retry of
    ///   a message already committed (the commit returns the original, as for any app).
    /// - Throws: `actionRefused` for another app's session (that app is never asked, and its
    ///   message never shown); `sessionConflict` for a stale head; the app's refusal;
    ///   `messageNotChecked` when the app cannot be asked.
    ///
    /// A message in a session costs one store read, its head's: a retry is found as the head
    /// itself, or, once the session has moved past it, by its id on the way to a conflict. (A
    /// message reusing the id of one its session moved past, while naming the current head, is
    /// checked by the app; the commit then returns the original.)
    private func checkOutside(
        _ message: Message, replacing: MessageID?, app: AnyMessagesApp, in conversation: ConversationID
    ) async throws -> CheckedHead? {
        guard let session = message.session else {
            if try await store.message(id: message.id, in: conversation) != nil { return nil }
            try await app.checkBeforeCommit(message, replacing: nil)
            return CheckedHead(id: nil)
        }
        let stored = try await store.sessionHead(session.id, in: conversation)
        if stored?.id == message.id { return nil }
        let head = stored?.content.appMessage
        if stored != nil, head?.appID != app.manifest.id {
            throw MessagesError(.actionRefused, "That session belongs to another app.")
        }
        guard MessageRules.isCurrent(head: stored?.id, replacing: replacing) else {
            if try await store.message(id: message.id, in: conversation) != nil { return nil }
            throw MessageRules.sessionConflict(head: head)
        }
        try await app.checkBeforeCommit(message, replacing: head)
        return CheckedHead(id: stored?.id)
    }

    /// Appends durably (with `alongside` in the same transaction), then fans the new message out.
    /// A retry is returned, not fanned out again.
    /// - Throws: `sendingTooFast` (429) past the sender's `messagesPerMinute`.
    func commit(
        _ message: NewMessage, alongside: [StateWrite] = [],
        validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void = { _, _ in }
    ) async throws -> Sent {
        // An upload it shows becomes readable by the conversation: only one the sender may see already.
        for hash in message.content.blobHashes where try await store.blobInfo(hash: hash, readableBy: message.sender) == nil {
            throw MessagesError(.fileNotFound, "The message shows an uploaded image that is not one you can see; upload it with conversation.upload(image:).")
        }
        let key = message.sender.description
        let wait = await sends.take(key)
        // A retry of a message already stored adds nothing: it is answered, never refused.
        if let wait, try await store.message(id: message.id, in: message.conversationID) == nil {
            metrics.refused(by: "messages")
            throw APIError.tooMany(
                .sendingTooFast,
                "You are sending messages faster than Parlor allows (\(sends.burst) at once, then \(sends.perMinute) a minute); wait \(wait) seconds and send again.",
                retryAfter: wait)
        }
        let charged = wait == nil
        let stored: StoredMessage, isDuplicate: Bool
        do {
            (stored, isDuplicate) = try await store.append(message, validate: validate, alongside: alongside)
        } catch {
            if charged { await sends.refund(key) }
            throw error
        }
        if isDuplicate {
            if charged { await sends.refund(key) }
            try MessageRules.checkRetry(storedSender: stored.sender, sender: message.sender)
            return Sent(stored: stored, isRetry: true)
        }
        metrics.messageCommitted(kind: stored.content.kind)
        let sent = Sent(stored: stored, sameForEveryone: await fanOut(stored))
        // Pushed from here, the node where it was sent: once, however many nodes fan it out.
        pushes.enqueue(PushDeliveries.Job(message: stored, committedAt: .now))
        return sent
    }

    /// Writes the line in the transcript that says what `actor` changed about the conversation
    /// ("Alice added Dave"): a message of kind `event`, sent by them, that counts as unread for
    /// nobody and alerts nobody. It costs the actor a message of their allowance, so a loop of
    /// renames cannot fill a transcript: past it, the change is made without its line.
    func record(_ event: ConversationEvent, by actor: UserID, in conversation: ConversationID) async {
        // Refused past the allowance (counted in the refusals metric) or lost with the store:
        // the change stands, and members see it in the conversation's details.
        _ = try? await commit(NewMessage(id: MessageID(), conversationID: conversation, sender: actor, content: .event(event)))
    }

    /// Queues the message for every member's connections on this node, and for members' open
    /// instances of its app.
    /// - Returns: the message as its sender sees it, when it reads the same for everyone (it is
    ///   then encoded once for all); nil for an app message, drawn per viewer.
    @discardableResult
    func fanOut(_ message: StoredMessage) async -> Wire.EncodedMessage? {
        guard let conversation = try? await membership.conversation(message.conversationID) else { return nil }
        await fanOutTracker.record(message.conversationID, sequence: message.sequence)
        var rendered: Wire.EncodedMessage?
        if Renderer.isSameForEveryone(message) {
            rendered = Wire.EncodedMessage.encodedOnce(await renderer.render(message, for: message.sender))
        }
        await hub.send(.message(message, frame: rendered.map { Wire.ServerFrame.message($0).json() }), to: conversation.members)
        if let appMessage = message.content.appMessage, let appID = appMessage.appID {
            let recipients = conversation.members.filter { $0 != message.sender }
            deliveries.enqueue(.init(message: appMessage, app: appID, conversation: conversation.id, recipients: recipients))
        }
        return rendered
    }

    /// The messages `user` sees in a conversation (expired ones and the history they deleted hidden).
    func visibleMessages(user: UserID, conversation: ConversationID, after: Int64?, limit: Int) async throws -> [StoredMessage] {
        try await membership.requireMember(user, of: conversation)
        let hidden = try await store.hiddenMessages(user: user, conversation: conversation)
        let messages = if let after {
            try await store.messages(in: conversation, after: after, limit: limit)
        } else {
            try await store.latestMessages(in: conversation, limit: limit)
        }
        return messages.filter { !hidden.contains($0) }
    }

    /// Marks messages read up to `sequence`; expiring messages from others start their countdown.
    ///
    /// The countdowns are recorded before the mark moves: if recording fails, the mark stays and
    /// the next read records them again (recording is idempotent), so a read message never misses
    /// its countdown.
    func markRead(user: UserID, conversation: ConversationID, upTo sequence: Int64) async throws {
        try await membership.requireMember(user, of: conversation)
        let (previous, last) = try await store.readMark(user: user, conversation: conversation)
        // Never past the last message this call has seen: what arrives meanwhile is read by a later call.
        let target = min(sequence, last)
        // A stale mark from another tab, or a repeated read, reads nothing new: nothing to store,
        // nothing to show.
        guard target > previous else { return }
        let now = Date()
        try await store.forEachPage(in: conversation, after: previous, through: target) { page in
            for message in page
            where MessageRules.startsExpiry(
                of: message.content.appMessage, sender: message.sender, reader: user, sequence: message.sequence, readUpTo: target)
            {
                try await store.recordExpiringRead(user: user, message: message.id, conversation: conversation, at: now)
            }
        }
        let (before, after) = try await store.markRead(user: user, conversation: conversation, upTo: target)
        // Another tab's read can have moved the mark meanwhile (and told the tabs).
        guard after > before else { return }
        // The user's other tabs, on every node, show the unread count (and close its
        // notifications); the receipt shows only when the reader shares receipts (the receipts
        // hold only theirs). One event tells the other nodes both.
        await notices.send(conversation, to: [user])
        let shown = await showReceipt(of: user, in: conversation)
        await bus.publish(shown ? .readMoved(user: user, conversation: conversation) : .listChanged(user: user, conversation: conversation))
    }

    /// How far each member who shares read receipts has read, for a member (but those blocked
    /// either way).
    func readReceipts(for user: UserID, in conversation: ConversationID) async throws -> [Wire.ReadReceipt] {
        try await membership.requireMember(user, of: conversation)
        let separated = try await membership.blocks(of: user).separated
        return try await store.readReceipts(in: conversation).filter { !separated.contains($0.user) }.map(Wire.ReadReceipt.init)
    }

    /// Shows the other members connected here how far `user` has read (but those blocked either way).
    /// - Returns: false when `user` shares no read receipts: nothing is shown.
    @discardableResult
    func showReceipt(of user: UserID, in conversation: ConversationID) async -> Bool {
        guard let record = try? await membership.conversation(conversation),
              let receipt = try? await store.readReceipts(in: conversation, of: user).first
        else { return false }
        let frame = Wire.ServerFrame.readReceipt(conversation: conversation, receipt: Wire.ReadReceipt(receipt))
        await hub.send(.frame(frame.json()), to: await membership.audience(of: user, in: record))
        return true
    }

    /// Keeps an expiring message for `user`.
    func keep(_ message: MessageID, user: UserID, conversation: ConversationID) async throws {
        try await membership.requireMember(user, of: conversation)
        try await store.keep(user: user, message: message, conversation: conversation)
    }

    /// Hides expiring messages whose time is up and tells their readers' connections.
    func sweepExpired(now: Date = Date()) async throws {
        let delay = Double(expiryDelay.components.seconds)
        for (user, conversation, message) in try await store.expireReads(readBefore: now.addingTimeInterval(-delay)) {
            await hub.send(.expired(conversation: conversation, messageID: message), to: user)
        }
    }
}
