import Foundation
import Logging
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorStore

/// Runs the users' app instances on this node: opening and closing apps, their events, their
/// compose fields (staging and sending what they staged), telling open apps of new messages and
/// of participant changes. Each instance's look is saved and sent to its user's connections only.
final class AppHost: Sendable {
    /// The roles of the store the host uses: instance snapshots, compose fields and participant
    /// ids; the message an app message's tap opens, and whether it expired for the reader.
    typealias Store = AppStateStore & MessageStore & ExpiryStore

    /// The apps this node hosts and what they may do: which exist (`directory`), who installed
    /// which (`drawers`), how their HTTP requests go out (`httpClient`, reaching private addresses
    /// through `*` only when `allowsPrivateHosts`), and where their failures are logged.
    struct Hosting: Sendable {
        let directory: AppDirectory
        let drawers: Drawers
        /// Where images apps produce are kept (`Conversation.upload(image:)`), under the upload rules.
        let uploads: Uploads
        let httpClient: ServerFetchClient
        /// Apps may reach private addresses through `*` (`ServerConfiguration.allowsPrivateHosts`).
        let allowsPrivateHosts: Bool
        let logger: Logger
    }

    let store: any Store
    let membership: Membership
    let drawers: Drawers
    let renderer: Renderer
    let messaging: Messaging
    let hub: Hub
    let bus: any ClusterBus
    let instances = InstanceRegistry()
    let directory: AppDirectory
    let uploads: Uploads
    let httpClient: ServerFetchClient
    /// Apps may reach private addresses through `*` (`ServerConfiguration.allowsPrivateHosts`).
    let allowsPrivateHosts: Bool
    let logger: Logger

    init(store: any Store, membership: Membership, renderer: Renderer, messaging: Messaging, fanOut: FanOut, hosting: Hosting) {
        self.store = store
        self.membership = membership
        self.renderer = renderer
        self.messaging = messaging
        hub = fanOut.hub
        bus = fanOut.bus
        drawers = hosting.drawers
        directory = hosting.directory
        uploads = hosting.uploads
        httpClient = hosting.httpClient
        allowsPrivateHosts = hosting.allowsPrivateHosts
        logger = hosting.logger
    }

    /// Opens `app` from the drawer in a conversation (compact), closing another open app.
    func openApp(_ app: AppID, for user: UserID, in conversation: ConversationID) async throws {
        let instance = try await conversationInstance(app, user: user, conversation: conversation)
        await closeOtherApp(than: app, user: user, conversation: conversation)
        _ = await instance.openFromDrawer()
    }

    /// The user tapped an app message: its app opens expanded on it (or selects it when open).
    func tapMessage(_ id: MessageID, for user: UserID, in conversation: ConversationID) async throws {
        try await membership.requireMember(user, of: conversation)
        guard let stored = try await store.message(id: id, in: conversation), let message = stored.content.appMessage,
              let appID = message.appID
        else { throw APIError(.notFound, code: .notFound, "That message is not an app message here.") }
        if try await store.hiddenMessages(user: user, conversation: conversation).contains(stored) {
            throw APIError.notFound
        }
        guard try await drawers.hasInstalled(appID, user: user) else {
            let name = directory.app(appID)?.manifest.name ?? appID.rawValue
            throw APIError(.conflict, code: .appNotInstalled, "Get \(name) from the store to open this message.", details: ["app": appID.rawValue])
        }
        let instance = try await conversationInstance(appID, user: user, conversation: conversation)
        await closeOtherApp(than: appID, user: user, conversation: conversation)
        _ = await instance.tap(message)
    }

    /// A control of the open app's view was used.
    func appEvent(_ event: ViewEvent, app: AppID, for user: UserID, in conversation: ConversationID) async throws {
        try await membership.requireMember(user, of: conversation)
        guard await instances.openApp(of: user, in: conversation) == app else {
            throw APIError(.conflict, code: .appNotOpen, "Open the app first.")
        }
        let instance = try await conversationInstance(app, user: user, conversation: conversation)
        _ = await instance.perform(event)
    }

    /// The expand or collapse control.
    func setStyle(_ style: PresentationStyle, for user: UserID, in conversation: ConversationID) async throws {
        guard let instance = try await openInstance(of: user, in: conversation) else { return }
        _ = await instance.changeStyle(to: style)
    }

    /// Closes the open app of a conversation.
    func closeApp(for user: UserID, in conversation: ConversationID) async throws {
        guard let instance = try await openInstance(of: user, in: conversation) else { return }
        _ = await instance.dismiss()
    }

    /// Opens an app's home surface.
    func openHome(_ app: AppID, for user: UserID) async throws {
        let instance = try await homeInstance(app, user: user)
        _ = await instance.openHome()
    }

    func homeEvent(_ event: ViewEvent, app: AppID, for user: UserID) async throws {
        let instance = try await homeInstance(app, user: user)
        _ = await instance.perform(event)
    }

    func closeHome(_ app: AppID, for user: UserID) async throws {
        let instance = try await homeInstance(app, user: user)
        _ = await instance.dismiss()
    }

    /// `didReceive` for the recipients who have the app open.
    func deliver(_ delivery: AppDeliveries.Delivery) async {
        for instance in await instances.openInstances(of: delivery.app, in: delivery.conversation, for: delivery.recipients) {
            _ = await instance.receive(delivery.message)
        }
    }

    /// Participants changed: running instances learn the new remote participant ids.
    func refreshParticipants(in conversation: ConversationID) async {
        guard let record = try? await membership.conversation(conversation) else { return }
        for (key, instance) in await instances.instances(in: conversation) {
            guard let remote = try? await remoteParticipants(of: record, for: key.user, app: key.app) else { continue }
            await instance.updateRemoteParticipants(remote)
        }
    }

    /// The person said their language (a connection's `hello`): what their apps draw in from the
    /// next look on, their running instances included.
    func setLanguage(_ language: String, of user: UserID) async {
        guard await renderer.caches.language(of: user) != language else { return }
        await renderer.caches.setLanguage(language, of: user)
        for instance in await instances.instances(of: user) { await instance.updateLanguage(language) }
    }

    /// An app left the server: its instances stop, and its open surfaces close with `reason`.
    func appRemoved(_ app: AppID, reason: String) async {
        for key in await instances.removeAll(of: app) {
            let update = InstanceUpdate(
                appID: app, isActive: false, presentationStyle: .compact, modal: nil, view: .empty,
                error: InstanceFailure(error: MessagesError(.appUnavailable, reason), detail: "the app was removed"))
            await sendUpdate(update, user: key.user, scope: key.scope)
        }
    }

    /// A new version of an app replaced the old one: instances resume from their stored state with
    /// it at their next use (their state is kept; nothing closes).
    func appUpgraded(_ app: AppID) async {
        await instances.forgetAll(of: app)
    }

    /// A user left a conversation: their instances there stop.
    func removeInstances(of user: UserID, in conversation: ConversationID) async {
        await instances.remove(user: user, conversation: conversation)
    }

    /// Forgets an instance another node's message dropped: its next use here resumes the stored one.
    func forgetInstance(user: UserID, scope: InstanceScope, app: AppID) async {
        await instances.forget(InstanceKey(user: user, scope: scope, app: app))
    }

    /// Another node changed this user's instance: drop the copy here, and show the stored one to
    /// this node's connections of the user.
    func refreshInstance(user: UserID, scope: InstanceScope, app: AppID) async {
        let key = InstanceKey(user: user, scope: scope, app: app)
        await instances.forget(key)
        guard await hub.isOnline(user), let update = try? await currentUpdate(key) else { return }
        await sendUpdate(update, user: user, scope: scope)
    }

    /// `user`'s compose field in `conversation`, as their tabs show it.
    /// - Throws: `notFound` when they are not a member.
    func staged(for user: UserID, in conversation: ConversationID) async throws -> Wire.Staged? {
        try await membership.requireMember(user, of: conversation)
        let staged = try await store.staged(user: user, conversation: conversation)
        return await renderer.staged(staged, user: user, conversation: conversation)
    }

    /// What a reconnecting tab needs besides messages: its compose fields and the apps it has open.
    func sessionFrames(for user: UserID, in conversations: [ConversationID]) async -> [Wire.ServerFrame] {
        var frames: [Wire.ServerFrame] = []
        for conversation in conversations {
            if let staged = try? await store.staged(user: user, conversation: conversation) {
                frames.append(.staged(conversation: conversation, staged: await renderer.staged(staged, user: user, conversation: conversation)))
            }
            if let app = await instances.openApp(of: user, in: conversation),
               let update = try? await currentUpdate(InstanceKey(user: user, scope: .conversation(conversation), app: app))
            {
                frames.append(await renderer.appFrame(update, scope: .conversation(conversation)))
            }
        }
        return frames
    }

    private func openInstance(of user: UserID, in conversation: ConversationID) async throws -> (any HostedAppInstance)? {
        try await membership.requireMember(user, of: conversation)
        guard let app = await instances.openApp(of: user, in: conversation) else { return nil }
        return try await conversationInstance(app, user: user, conversation: conversation)
    }

    private func closeOtherApp(than app: AppID, user: UserID, conversation: ConversationID) async {
        guard let other = await instances.openInstance(of: user, in: conversation), other.app != app else { return }
        _ = await other.instance.dismiss()
    }
}
