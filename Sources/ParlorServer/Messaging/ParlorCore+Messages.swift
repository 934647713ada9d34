import Foundation
import ParlorHost
import ParlorKit
import ParlorStore

extension ParlorCore {
    /// Sends a text message. Retrying with the same id returns the original.
    func sendText(_ text: String, id: MessageID, from user: UserID, in conversation: ConversationID) async throws -> StoredMessage {
        _ = try await requireMember(user, of: conversation)
        try MessageRules.checkText(text)
        return try await commit(NewMessage(id: id, conversationID: conversation, sender: user, content: .text(text)))
    }

    /// Sends a sticker of one of the server's packs (`<pack>/<file>`).
    func sendSticker(_ stickerID: String, id: MessageID, from user: UserID, in conversation: ConversationID) async throws -> StoredMessage {
        _ = try await requireMember(user, of: conversation)
        guard let sticker = directory.sticker(id: stickerID) else {
            throw MessagesError(.fileNotFound, "There is no sticker '\(stickerID.prefix(80))'.")
        }
        return try await commit(NewMessage(id: id, conversationID: conversation, sender: user, content: .sticker(sticker)))
    }

    /// Commits an app's message: every ParlorKit limit, the session head, and the app's own
    /// `validate` on exactly the head it replaces. The sender's participant id is set here.
    func commitAppMessage(
        _ message: Message, replacing: MessageID?, from user: UserID, in conversation: ConversationID
    ) async throws -> StoredMessage {
        _ = try await requireMember(user, of: conversation)
        let app = try MessageRules.app(of: message, in: directory.app)
        let sender = try await store.participantID(user: user, app: app.manifest.id)
        let checked = try MessageRules.prepare(message, sender: sender)
        do {
            return try await commit(
                NewMessage(id: checked.id, conversationID: conversation, sender: user, content: .app(checked), replacing: replacing)
            ) { _, head in
                try MessageRules.checkAppMessage(checked, replacing: head?.content.appMessage, app: app)
            }
        } catch let conflict as SessionConflict {
            throw MessageRules.sessionConflict(head: conflict.head.content.appMessage)
        }
    }

    /// Appends durably, then fans the new message out. A duplicate is returned, not fanned out again.
    func commit(
        _ message: NewMessage, validate: @escaping @Sendable (NewMessage, StoredMessage?) throws -> Void = { _, _ in }
    ) async throws -> StoredMessage {
        let (stored, isDuplicate) = try await store.append(message, validate: validate)
        guard !isDuplicate else {
            try MessageRules.checkRetry(storedSender: stored.sender, sender: message.sender)
            return stored
        }
        await fanOut(stored)
        return stored
    }

    /// Queues the message for every member's connections on this node, and tells members' open
    /// instances of its app (didReceive) without waiting for them.
    func fanOut(_ message: StoredMessage) async {
        guard let conversation = try? await caches.conversation(message.conversationID, store: store) else { return }
        await fanOutTracker.record(message.conversationID, sequence: message.sequence)
        // A text or sticker reads the same for every member: encode its frame once, not per member.
        var frame: String?
        if message.content.appMessage == nil {
            frame = Wire.ServerFrame.message(await render(message, for: message.sender)).json()
        }
        await hub.send(.message(message, frame: frame), to: conversation.members)
        if let appMessage = message.content.appMessage, let appID = appMessage.appID {
            let recipients = conversation.members.filter { $0 != message.sender }
            Task { await self.deliverToInstances(appMessage, app: appID, conversation: conversation.id, recipients: recipients) }
        }
    }

    /// Renders a message for one viewer: resolved image URLs, whether they have the app, the
    /// live view drawn for them, and the names behind participant tokens.
    func render(_ message: StoredMessage, for viewer: UserID) async -> Wire.Message {
        let sender = (try? await caches.users([message.sender], store: store))?.first
        var wire = Wire.Message(
            id: message.id, conversation: message.conversationID, sequence: message.sequence, sender: message.sender,
            senderName: sender?.displayName ?? "Former member", sentAt: message.sentAt, kind: message.content.kind)
        switch message.content {
        case .text(let text): wire.text = text
        case .sticker(let sticker): wire.sticker = Self.wire(sticker)
        case .app(let appMessage): wire.app = await renderApp(appMessage, id: message.id, conversation: message.conversationID, for: viewer)
        }
        return wire
    }

    static func wire(_ sticker: Sticker) -> Wire.StickerRef {
        Wire.StickerRef(id: sticker.id, url: AppDirectory.stickerURL(sticker), description: sticker.localizedDescription)
    }

    func renderApp(_ message: Message, id: MessageID, conversation: ConversationID, for viewer: UserID) async -> Wire.AppMessage? {
        guard let appID = message.appID else { return nil }
        let app = directory.app(appID)
        let template = message.template ?? TemplateLayout()
        let installed = (try? await hasInstalled(appID, user: viewer)) ?? false
        var names: [String: String] = [:]
        if let record = try? await caches.conversation(conversation, store: store) {
            names = (try? await caches.names(conversation: record, app: appID, store: store)) ?? [:]
        }
        var liveView: ViewNode?
        if case .live = message.layout, installed, let app {
            liveView = await self.liveView(of: message, id: id, app: app, conversation: conversation, viewer: viewer)
        }
        let scheme = message.url?.scheme?.lowercased()
        return Wire.AppMessage(
            appID: appID, appName: app?.manifest.name ?? appID.rawValue,
            appIconURL: app.flatMap { AppDirectory.imageURL($0.manifest.icon, app: appID) }, installed: installed,
            sessionID: message.session?.id, summaryText: message.summaryText, accessibilityLabel: message.accessibilityLabel,
            shouldExpire: message.shouldExpire,
            layout: Wire.Template(
                imageURL: AppDirectory.imageURL(template.image, app: appID), mediaURL: template.mediaFileURL?.absoluteString,
                imageTitle: template.imageTitle, imageSubtitle: template.imageSubtitle, caption: template.caption,
                subcaption: template.subcaption, trailingCaption: template.trailingCaption, trailingSubcaption: template.trailingSubcaption),
            liveView: liveView, webURL: scheme == "https" || scheme == "http" ? message.url?.absoluteString : nil, names: names)
    }

    /// The app drawn in transcript style for one viewer (cached per viewer and message).
    private func liveView(of message: Message, id: MessageID, app: AnyMessagesApp, conversation: ConversationID, viewer: UserID) async -> ViewNode? {
        let key = "\(viewer)\u{0}\(id)"
        if let cached = await caches.liveView(key) { return cached }
        guard let participant = try? await store.participantID(user: viewer, app: app.manifest.id) else { return nil }
        let instance = app.makeInstance(InstanceConfiguration(
            localParticipant: participant, remoteParticipants: [], conversationHost: NoConversationHost(),
            container: StoreContainer(store: store, user: viewer, app: app.manifest.id), httpClient: nil))
        let view = await instance.openInTranscript(message).view
        await caches.setLiveView(view, for: key)
        return view
    }
}
