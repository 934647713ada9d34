import Foundation
import ParlorHost
import ParlorKit
import ParlorStore

/// Turns stored things into what one viewer sees on the wire: messages (resolved image URLs,
/// whether they have the app, the live view drawn for them, the names behind participant tokens),
/// conversations as their list shows them, compose fields and app views. Reads only.
final class Renderer: Sendable {
    let store: any ParlorStore
    let caches: ViewerCaches
    let directory: AppDirectory
    let drawers: Drawers

    init(store: any ParlorStore, caches: ViewerCaches, directory: AppDirectory, drawers: Drawers) {
        self.store = store
        self.caches = caches
        self.directory = directory
        self.drawers = drawers
    }

    /// A message as `viewer` sees it.
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

    /// Whether a message reads the same for every viewer (text, stickers), so its frame can be
    /// encoded once for all.
    static func isSameForEveryone(_ message: StoredMessage) -> Bool { message.content.appMessage == nil }

    static func wire(_ sticker: Sticker) -> Wire.StickerRef {
        Wire.StickerRef(id: sticker.id, url: AppDirectory.stickerURL(sticker), description: sticker.localizedDescription)
    }

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

    /// What the user has in a compose field.
    func staged(_ record: StagedRecord?, user: UserID, conversation: ConversationID) async -> Wire.Staged? {
        switch record?.item {
        case .message(let message)?:
            Wire.Staged(kind: "app", app: await renderApp(message, id: message.id, conversation: conversation, for: user))
        case .sticker(let sticker)?:
            Wire.Staged(kind: "sticker", sticker: Self.wire(sticker))
        case nil:
            nil
        }
    }

    /// A conversation as `viewer`'s list shows it, with a one-line preview of its newest message.
    func conversation(_ summary: ConversationSummary, for viewer: UserID) async throws -> Wire.Conversation {
        let members = try await caches.users(summary.conversation.members, store: store)
        var preview: String?
        if let last = summary.lastMessage {
            let name = members.first { $0.id == last.sender }?.displayName ?? "Someone"
            switch last.content {
            case .text(let text): preview = "\(name): \(text.prefix(80))"
            case .sticker: preview = "\(name) sent a sticker"
            case .app(let message):
                let appName = message.appID.flatMap { directory.app($0)?.manifest.name } ?? "an app"
                preview = "\(name) · \(appName)"
            }
        }
        return Wire.Conversation(
            id: summary.conversation.id, title: summary.conversation.title, isGroup: summary.conversation.isGroup,
            members: members.map { Wire.User($0) }, admins: summary.conversation.admins, lastSequence: summary.conversation.lastSequence,
            unreadCount: summary.unreadCount, preview: preview)
    }

    /// The `app` (or `home`) frame showing an instance's look, with the names behind its tokens.
    func appFrame(_ update: InstanceUpdate, scope: InstanceScope) async -> Wire.ServerFrame {
        var names: [String: String] = [:]
        if case .conversation(let conversation) = scope { names = await self.names(in: conversation, app: update.appID) }
        let wire = Wire.AppUpdate(
            appID: update.appID, appName: directory.app(update.appID)?.manifest.name ?? update.appID.rawValue,
            isActive: update.isActive, presentationStyle: update.presentationStyle, modal: update.modal, view: update.view,
            error: update.error.map { Wire.ErrorBody(code: $0.error.code.name, message: $0.error.message) }, names: names)
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
