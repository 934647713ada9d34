import Foundation
@_spi(Hosting) import ParlorHost
import ParlorInput
@_spi(Hosting) import ParlorKit
import ParlorStore

/// Turns stored things into what one viewer sees on the wire: messages (resolved image URLs,
/// whether they have the app, the live view drawn for them, the names behind participant tokens),
/// conversations as their list shows them, compose fields and app views. Reads only.
final class Renderer: Sendable {
    /// The roles of the store rendering reads: people, conversations, messages (a quoted one),
    /// reactions, and apps' participant ids and containers (live views).
    typealias Store = AccountStore & ConversationStore & MessageStore & ReactionStore & AppStateStore

    let store: any Store
    let caches: ViewerCaches
    let directory: AppDirectory
    let drawers: Drawers
    /// Remote images go out as signed addresses of the image proxy.
    let imageLinks: ImageLinkSigner

    init(store: any Store, caches: ViewerCaches, directory: AppDirectory, drawers: Drawers, imageLinks: ImageLinkSigner) {
        self.imageLinks = imageLinks
        self.store = store
        self.caches = caches
        self.directory = directory
        self.drawers = drawers
    }

    /// A message as `viewer` sees it.
    /// - Parameter page: messages at hand, so that a reply quoting one of them reads no other.
    func render(_ message: StoredMessage, for viewer: UserID, page: [MessageID: StoredMessage] = [:]) async -> Wire.Message {
        let sender = (try? await caches.users([message.sender], store: store))?.first
        var wire = Wire.Message(
            id: message.id, conversation: message.conversationID, sequence: message.sequence, sender: message.sender,
            senderName: sender?.displayName ?? "Former member", sentAt: message.sentAt, kind: message.content.kind)
        if let replyTo = message.replyTo { wire.replyTo = await quote(replyTo, in: message.conversationID, page: page) }
        if message.unsentAt != nil {
            wire.kind = "unsent"
            return wire
        }
        wire.editedAt = message.editedAt
        switch message.content {
        case .text(let text, let preview, let quiet):
            wire.text = text
            if let preview { wire.linkPreview = await linkPreview(preview) }
            wire.quietMentions = quiet.isEmpty ? nil : quiet
        case .sticker(let sticker, let placement):
            wire.sticker = await self.wire(sticker)
            wire.placement = placement
        case .attachment(let attachment): wire.attachment = Wire.Attachment(attachment)
        case .app(let appMessage): wire.app = await renderApp(appMessage, id: message.id, conversation: message.conversationID, for: viewer)
        case .event(let event): wire.text = await line(event, by: message.sender, for: viewer)
        }
        return wire
    }

    /// A conversation event as `viewer` reads it: "Alice added Dave and Erin", "You named the
    /// conversation “Friday”", "Bob removed you" (names as they are now; "a former member" for an
    /// account gone).
    func line(_ event: ConversationEvent, by actor: UserID, for viewer: UserID) async -> String {
        let users = (try? await caches.users([actor] + event.people, store: store)) ?? []
        func name(_ id: UserID, subject: Bool = false) -> String {
            if id == viewer { return subject ? "You" : "you" }
            return users.first { $0.id == id }?.displayName ?? (subject ? "A former member" : "a former member")
        }
        let who = name(actor, subject: true)
        switch event {
        case .added(let people): return "\(who) added \(Self.list(people.map { name($0) }))"
        case .removed(let person): return "\(who) removed \(name(person))"
        case .left: return "\(who) left the conversation"
        case .renamed(let title?): return "\(who) named the conversation “\(title)”"
        case .renamed(nil): return "\(who) removed the conversation’s name"
        case .admin(let person, let isAdmin) where person == actor:
            return isAdmin ? "\(who) became an admin" : "\(who) \(actor == viewer ? "are" : "is") no longer an admin"
        case .admin(let person, let isAdmin):
            return isAdmin ? "\(who) made \(name(person)) an admin" : "\(who) removed \(name(person)) as an admin"
        case .photo(let isSet): return isSet ? "\(who) changed the group photo" : "\(who) removed the group photo"
        case .unknown: return "\(who) changed the conversation"
        }
    }

    /// "Dave", "Dave and Erin", "Dave, Erin and Frank".
    static func list(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "nobody" }
        return "\(names.dropLast().joined(separator: ", ")) and \(last)"
    }

    /// `text` as people read it: each mention as "@Name" ("@someone" for an account gone).
    func readable(_ text: String) async -> String { await readableText(of: .text(text)) }

    /// What people read in a message (`StoredContent.searchableText`), mentions as names.
    func readableText(of content: StoredContent) async -> String {
        let mentioned = content.mentionedUsers
        guard !mentioned.isEmpty else { return content.searchableText() }
        let users = (try? await caches.users(mentioned, store: store)) ?? []
        return content.searchableText { id in "@\(users.first { $0.id == id }?.displayName ?? "someone")" }
    }

    /// The longest text a reply's quote keeps.
    static let quoteLength = 100

    /// The message a reply quotes, as one line; nil when it is gone.
    private func quote(_ id: MessageID, in conversation: ConversationID, page: [MessageID: StoredMessage]) async -> Wire.ReplyQuote? {
        var quoted = page[id]
        if quoted == nil { quoted = try? await store.message(id: id, in: conversation) }
        guard let quoted else { return nil }
        let sender = (try? await caches.users([quoted.sender], store: store))?.first
        let preview: String
        if quoted.unsentAt != nil {
            preview = "Unsent message"
        } else {
            switch quoted.content {
            case .text(let text, _, _):
                let readable = await readable(text)
                preview = readable.count > Self.quoteLength ? "\(readable.prefix(Self.quoteLength))…" : readable
            case .sticker: preview = "Sticker"
            case .attachment(let attachment): preview = attachment.isImage ? "Photo" : attachment.voice != nil ? "Voice message" : attachment.name
            case .app(let message): preview = "\(message.appID.flatMap { directory.app($0)?.manifest.name } ?? "App") message"
            case .event: preview = "A change to the conversation"
            }
        }
        // An answer to a session, while it is the session's bubble, is quoted in the name that
        // bubble is drawn in: whoever started the session. Replaced, it is its sender's line again.
        var name = sender?.displayName ?? "Former member"
        if quoted.unsentAt == nil, case .app(let message) = quoted.content, let session = message.session,
            let starter = await starter(of: message, in: conversation),
            (try? await store.sessionHead(session.id, in: conversation))?.id == quoted.id {
            name = starter.name
        }
        return Wire.ReplyQuote(id: quoted.id, sequence: quoted.sequence, senderName: name, preview: preview)
    }

    /// Messages of one conversation as `viewer` sees them, with their reactions (one store read
    /// for all: a new message has none, so only pages of stored ones need this).
    func render(_ messages: [StoredMessage], for viewer: UserID) async throws -> [Wire.Message] {
        guard let conversation = messages.first?.conversationID else { return [] }
        let reactions = try await store.reactions(to: messages.map(\.id), in: conversation)
        let page = Dictionary(messages.map { ($0.id, $0) }) { first, _ in first }
        var result: [Wire.Message] = []
        result.reserveCapacity(messages.count)
        for message in messages {
            var wire = await render(message, for: viewer, page: page)
            if message.unsentAt == nil { wire.reactions = reactions[message.id].map(Wire.Reaction.grouped) }
            result.append(wire)
        }
        return result
    }

    /// Whether a message reads the same for every viewer (text, stickers, files), so its frame can
    /// be encoded once for all (an app's message and an event line are drawn for each).
    static func isSameForEveryone(_ message: StoredMessage) -> Bool {
        switch message.content {
        case .app, .event: false
        case .text, .sticker, .attachment: true
        }
    }

    /// A sticker as the browser loads it: a pack's asset, or a remote image (a sticker an app's
    /// browser offered) through the image proxy, signed.
    func wire(_ sticker: Sticker) async -> Wire.StickerRef {
        Wire.StickerRef(
            id: sticker.id, url: await imageLinks.current().proxied(AppDirectory.stickerURL(sticker)), description: sticker.localizedDescription)
    }

    /// A link's card, its picture through the image proxy.
    func linkPreview(_ preview: StoredLinkPreview) async -> Wire.LinkPreview {
        var wire = Wire.LinkPreview(preview)
        if let image = wire.imageURL { wire.imageURL = await imageLinks.current().proxied(image) }
        return wire
    }

    /// An app's icon or image as the browser loads it: an asset, or a remote image through the
    /// image proxy (signed).
    func imageURL(_ source: ImageSource?, app: AppID) async -> String? {
        guard let url = AppDirectory.imageURL(source, app: app) else { return nil }
        return await imageLinks.current().proxied(url)
    }

    /// A template's media file as the browser loads it: a video or audio file directly (https
    /// only, the page's policy says), an image through the image proxy.
    private func mediaURL(_ url: URL?) async -> String? {
        guard let url else { return nil }
        let path = url.path.lowercased()
        let playable = Self.playableExtensions.contains { path.hasSuffix(".\($0)") }
        return playable ? url.absoluteString : await imageLinks.current().proxied(url.absoluteString)
    }

    /// The extensions of a template's media files that play (video, audio) rather than show.
    static let playableExtensions = ["mp4", "webm", "mov", "m4v", "mp3", "m4a", "aac", "wav", "ogg", "oga"]

    /// An app message's bubble as `viewer` sees it.
    func renderApp(_ message: Message, id: MessageID, conversation: ConversationID, for viewer: UserID) async -> Wire.AppMessage? {
        guard let appID = message.appID else { return nil }
        let app = directory.app(appID)
        let template = message.template ?? TemplateLayout()
        let installed = (try? await drawers.hasInstalled(appID, user: viewer)) ?? false
        let names = await names(in: conversation, app: appID)
        var liveView: ViewNode?
        if case .live = message.layout, installed, let app {
            liveView = await self.liveView(of: message, id: id, app: app, viewer: viewer)
        }
        let scheme = message.url?.scheme?.lowercased()
        let links = await imageLinks.current()
        return Wire.AppMessage(
            appID: appID, appName: app?.manifest.name ?? appID.rawValue,
            appIconURL: await imageURL(app?.manifest.icon, app: appID), installed: installed,
            sessionID: message.session?.id, startedBy: await starter(of: message, in: conversation), summaryText: message.summaryText,
            summaryLine: message.summaryLine(appName: app?.manifest.name ?? appID.rawValue), accessibilityLabel: message.accessibilityLabel,
            shouldExpire: message.shouldExpire,
            layout: Wire.Template(
                imageURL: await imageURL(template.image, app: appID), mediaURL: await mediaURL(template.mediaFileURL),
                imageTitle: template.imageTitle, imageSubtitle: template.imageSubtitle, caption: template.caption,
                subcaption: template.subcaption, trailingCaption: template.trailingCaption, trailingSubcaption: template.trailingSubcaption),
            liveView: liveView.map(links.proxied), webURL: scheme == "https" || scheme == "http" ? message.url?.absoluteString : nil, names: names,
            error: message.error.map { Wire.ErrorBody(code: $0.code, message: $0.message) })
    }

    /// Whoever started the session `message` answers; nil for a message that answers none, or
    /// whose app's manifest does not (or no longer) asks to answer sessions.
    private func starter(of message: Message, in conversation: ConversationID) async -> Wire.Starter? {
        guard message.answersSession, let session = message.session,
            let appID = message.appID, directory.app(appID)?.manifest.answersSessions == true,
            let id = try? await caches.sessionStarter(session.id, in: conversation, store: store)
        else { return nil }
        let user = (try? await caches.users([id], store: store))?.first
        return Wire.Starter(id: id, name: user?.displayName ?? "Former member")
    }

    /// What the user has in a compose field.
    func staged(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async -> Wire.Staged? {
        switch record?.item {
        case .message(let message)?:
            Wire.Staged(kind: "app", app: await renderApp(message, id: message.id, conversation: conversation, for: user))
        case .sticker(let sticker)?:
            Wire.Staged(kind: "sticker", sticker: await wire(sticker))
        case nil:
            nil
        }
    }

    /// A conversation as `viewer`'s list shows it, with a one-line preview of its newest message.
    func conversation(_ summary: ConversationSummary, for viewer: UserID) async throws -> Wire.Conversation {
        let members = try await caches.users(summary.conversation.members, store: store)
        var preview: String?
        // Deleted for the viewer and nothing since: nothing of it shows, not even its last line.
        let last = summary.isDeleted ? nil : summary.lastMessage
        if let last {
            // The viewer's own message reads "You: …", as in every messenger's list.
            let name = last.sender == viewer ? "You" : members.first { $0.id == last.sender }?.displayName ?? "Someone"
            preview = await self.preview(of: last, senderName: name, for: viewer)
        }
        return Wire.Conversation(
            id: summary.conversation.id, title: summary.conversation.title, isGroup: summary.conversation.isGroup,
            members: members.map { Wire.User($0, withAbout: !summary.conversation.isGroup) }, admins: summary.conversation.admins,
            photoURL: summary.conversation.photo.map(AppDirectory.uploadURL), lastSequence: summary.conversation.lastSequence,
            unreadCount: summary.unreadCount, preview: preview, lastActivityAt: last?.sentAt, isMuted: summary.isMuted,
            unreadMentions: summary.unreadMentions, pinnedAt: summary.place.pinnedAt, isArchived: summary.isArchived,
            isMarkedUnread: summary.place.isMarkedUnread, isDeleted: summary.isDeleted, deletedThrough: summary.place.deletedThrough)
    }

    /// A message in one line, as a conversation list (and a notification) shows it: "Alice: hi",
    /// "Alice sent a photo", "Alice · RSVP", an event's line. The browser draws it the same way as
    /// messages arrive (`previewOf` in state.js; test_conversation_list holds the two equal).
    func preview(of message: StoredMessage, senderName name: String, for viewer: UserID) async -> String {
        switch message.content {
        case _ where message.unsentAt != nil: "\(name) unsent a message"
        case .text(let text, _, _): "\(name): \(await readable(text).prefix(80))"
        case .sticker(_, let placement): placement == nil ? "\(name) sent a sticker" : "\(name) placed a sticker on a message"
        case .attachment(let attachment):
            attachment.isImage ? "\(name) sent a photo" : attachment.voice != nil ? "\(name) sent a voice message" : "\(name) sent \(attachment.name)"
        case .app(let app): "\(name) · \(app.appID.flatMap { directory.app($0)?.manifest.name } ?? "an app")"
        case .event(let event): await line(event, by: message.sender, for: viewer)
        }
    }

    /// The `app` (or `home`) frame showing an instance's look, with the names behind its tokens.
    func appFrame(_ update: InstanceUpdate, scope: InstanceScope) async -> Wire.ServerFrame {
        var names: [String: String] = [:]
        if case .conversation(let conversation) = scope { names = await self.names(in: conversation, app: update.appID) }
        let manifest = directory.app(update.appID)?.manifest
        let wire = Wire.AppUpdate(
            appID: update.appID, appName: manifest?.name ?? update.appID.rawValue,
            isActive: update.isActive, presentationStyle: update.presentationStyle, modal: update.modal,
            view: await imageLinks.current().proxied(update.view),
            error: update.error.map { Wire.ErrorBody(code: $0.error.code.name, message: $0.error.message) }, names: names,
            compactHeight: manifest?.compactHeight.map { min(max($0, AppManifest.compactHeights.lowerBound), AppManifest.compactHeights.upperBound) })
        return switch scope {
        case .conversation(let conversation): .app(conversation: conversation, app: update.appID, update: wire)
        case .home: .home(app: update.appID, update: wire)
        }
    }

    /// Participant id → display name of a conversation's members, inside one app.
    private func names(in conversation: ConversationID, app: AppID) async -> [String: String] {
        guard let record = try? await caches.conversation(conversation, store: store) else { return [:] }
        return (try? await caches.names(conversation: record, app: app, store: store)) ?? [:]
    }

    /// The app drawn in transcript style for one viewer (cached per viewer and message).
    private func liveView(of message: Message, id: MessageID, app: AnyMessagesApp, viewer: UserID) async -> ViewNode? {
        let language = await caches.language(of: viewer)
        let key = "\(viewer)\u{0}\(id)\u{0}\(language)"
        if let cached = await caches.liveView(key) { return cached }
        guard let participant = try? await store.participantID(user: viewer, app: app.manifest.id) else { return nil }
        let instance = app.makeInstance(InstanceConfiguration(
            localParticipant: participant, remoteParticipants: [], conversationHost: NoConversationHost(),
            container: StoreContainer(store: store, user: viewer, app: app.manifest.id), httpClient: nil, language: language))
        let view = await instance.openInTranscript(message).view
        await caches.setLiveView(view, for: key)
        return view
    }
}
