import Foundation
import ParlorHost
import ParlorKit
import ParlorStore

extension ParlorCore {
    /// Opens `app` from the drawer in a conversation (compact), closing another open app.
    func openApp(_ app: AppID, for user: UserID, in conversation: ConversationID) async throws {
        let instance = try await conversationInstance(app, user: user, conversation: conversation)
        await closeOtherApp(than: app, user: user, conversation: conversation)
        await publish(await instance.openFromDrawer(), user: user, scope: .conversation(conversation))
    }

    /// The user tapped an app message: its app opens expanded on it (or selects it when open).
    func tapMessage(_ id: MessageID, for user: UserID, in conversation: ConversationID) async throws {
        _ = try await requireMember(user, of: conversation)
        guard let stored = try await store.message(id: id, in: conversation), let message = stored.content.appMessage,
              let appID = message.appID
        else { throw APIError(.notFound, code: "notFound", "That message is not an app message here.") }
        if (try await store.hiddenMessages(user: user, conversation: conversation)).contains(id) { throw APIError.notFound }
        guard try await hasInstalled(appID, user: user) else {
            let name = directory.app(appID)?.manifest.name ?? appID.rawValue
            throw APIError(.conflict, code: "appNotInstalled", "Get \(name) from the store to open this message.", details: ["app": appID.rawValue])
        }
        let instance = try await conversationInstance(appID, user: user, conversation: conversation)
        await closeOtherApp(than: appID, user: user, conversation: conversation)
        await publish(await instance.tap(message), user: user, scope: .conversation(conversation))
    }

    /// A control of the open app's view was used.
    func appEvent(_ event: ViewEvent, app: AppID, for user: UserID, in conversation: ConversationID) async throws {
        _ = try await requireMember(user, of: conversation)
        guard await instances.openApp(of: user, in: conversation) == app else {
            throw APIError(.conflict, code: "appNotOpen", "Open the app first.")
        }
        let instance = try await conversationInstance(app, user: user, conversation: conversation)
        await publish(await instance.perform(event), user: user, scope: .conversation(conversation))
    }

    /// The expand or collapse control.
    func setStyle(_ style: PresentationStyle, for user: UserID, in conversation: ConversationID) async throws {
        _ = try await requireMember(user, of: conversation)
        guard let app = await instances.openApp(of: user, in: conversation) else { return }
        let instance = try await conversationInstance(app, user: user, conversation: conversation)
        await publish(await instance.changeStyle(to: style), user: user, scope: .conversation(conversation))
    }

    /// Closes the open app of a conversation.
    func closeApp(for user: UserID, in conversation: ConversationID) async throws {
        _ = try await requireMember(user, of: conversation)
        guard let app = await instances.openApp(of: user, in: conversation) else { return }
        let instance = try await conversationInstance(app, user: user, conversation: conversation)
        await publish(await instance.dismiss(), user: user, scope: .conversation(conversation))
    }

    /// Opens an app's home surface.
    func openHome(_ app: AppID, for user: UserID) async throws {
        let instance = try await homeInstance(app, user: user)
        await publish(await instance.openHome(), user: user, scope: .home)
    }

    func homeEvent(_ event: ViewEvent, app: AppID, for user: UserID) async throws {
        let instance = try await homeInstance(app, user: user)
        await publish(await instance.perform(event), user: user, scope: .home)
    }

    func closeHome(_ app: AppID, for user: UserID) async throws {
        let instance = try await homeInstance(app, user: user)
        await publish(await instance.dismiss(), user: user, scope: .home)
    }

    /// didReceive for the recipients who have the app open, after the sender's call returned.
    func deliverToInstances(_ message: Message, app: AppID, conversation: ConversationID, recipients: [UserID]) async {
        for (user, instance) in await instances.openInstances(of: app, in: conversation, for: recipients) {
            await publish(await instance.receive(message), user: user, scope: .conversation(conversation))
        }
    }

    /// The user's staged app message was sent or removed: tell the app when it is open.
    func notifySending(_ message: Message, sent: Bool, user: UserID, conversation: ConversationID) async {
        guard let app = message.appID, await instances.openApp(of: user, in: conversation) == app,
              let instance = await instances.instance(InstanceKey(user: user, scope: .conversation(conversation), app: app))
        else { return }
        let update = sent ? await instance.didStartSending(message) : await instance.didCancelSending(message)
        await publish(update, user: user, scope: .conversation(conversation))
    }

    /// Participants changed: running instances learn the new remote participant ids.
    func refreshParticipants(in conversation: ConversationID) async {
        guard let record = try? await caches.conversation(conversation, store: store) else { return }
        for (key, instance) in await instances.instances(in: conversation) {
            var remote: [ParticipantID] = []
            for member in record.members where member != key.user {
                if let id = try? await store.participantID(user: member, app: key.app) { remote.append(id) }
            }
            await instance.updateRemoteParticipants(remote)
        }
    }

    // MARK: Instances

    /// An instance's look as stored (resumed on this node).
    func currentUpdate(_ key: InstanceKey) async throws -> InstanceUpdate {
        let instance: any HostedAppInstance
        switch key.scope {
        case .conversation(let conversation): instance = try await conversationInstance(key.app, user: key.user, conversation: conversation)
        case .home: instance = try await homeInstance(key.app, user: key.user)
        }
        return await instance.current()
    }

    private func closeOtherApp(than app: AppID, user: UserID, conversation: ConversationID) async {
        guard let other = await instances.openApp(of: user, in: conversation), other != app,
              let instance = await instances.instance(InstanceKey(user: user, scope: .conversation(conversation), app: other))
        else { return }
        await publish(await instance.dismiss(), user: user, scope: .conversation(conversation))
    }

    private func conversationInstance(_ app: AppID, user: UserID, conversation: ConversationID) async throws -> any HostedAppInstance {
        let record = try await requireMember(user, of: conversation)
        guard try await hasInstalled(app, user: user), let entry = directory.app(app) else {
            throw APIError(.notFound, code: "appNotInstalled", "That app is not in your drawer; get it from the store first.")
        }
        let key = InstanceKey(user: user, scope: .conversation(conversation), app: app)
        if let existing = await instances.instance(key) { return existing }
        var remote: [ParticipantID] = []
        for member in record.members where member != user {
            remote.append(try await store.participantID(user: member, app: app))
        }
        let configuration = try await instanceConfiguration(
            key: key, remote: remote, host: ServerConversationHost(core: self, user: user, conversation: conversation))
        return await instances.insert(entry.makeInstance(configuration), for: key)
    }

    private func homeInstance(_ app: AppID, user: UserID) async throws -> any HostedAppInstance {
        guard try await hasInstalled(app, user: user), let entry = directory.app(app), entry.manifest.hasHomeSurface else {
            throw APIError(.notFound, code: "noHomeSurface", "That app has no home screen in your drawer.")
        }
        let key = InstanceKey(user: user, scope: .home, app: app)
        if let existing = await instances.instance(key) { return existing }
        let configuration = try await instanceConfiguration(key: key, remote: [], host: NoConversationHost())
        return await instances.insert(entry.makeInstance(configuration), for: key)
    }

    private func instanceConfiguration(key: InstanceKey, remote: [ParticipantID], host: any ConversationHost) async throws -> InstanceConfiguration {
        let snapshot = try await store.instance(user: key.user, scope: key.scope, app: key.app)
            .flatMap { try? JSONDecoder().decode(InstanceSnapshot.self, from: $0) }
        return InstanceConfiguration(
            localParticipant: try await store.participantID(user: key.user, app: key.app), remoteParticipants: remote,
            surface: key.scope == .home ? .home : .messages, conversationHost: host,
            container: StoreContainer(store: store, user: key.user, app: key.app), httpClient: httpClient, snapshot: snapshot)
    }

    /// Saves the instance and sends its new look to the user's connections only (on every node).
    func publish(_ update: InstanceUpdate, user: UserID, scope: InstanceScope) async {
        if let failure = update.error {
            logger.warning("An app reported a failure", metadata: ["app": "\(update.appID)", "detail": "\(failure.detail)"])
        }
        let key = InstanceKey(user: user, scope: scope, app: update.appID)
        if let instance = await instances.instance(key) {
            do {
                let data = try JSONEncoder().encode(await instance.snapshot())
                try await store.saveInstance(data, user: user, scope: scope, app: update.appID)
            } catch {
                logger.error("Could not save an app instance", metadata: ["app": "\(update.appID)", "error": "\(error)"])
            }
            let conversation: ConversationID? = if case .conversation(let id) = scope { id } else { nil }
            await bus.publish(.instanceChanged(user: user, conversation: conversation, app: update.appID))
        }
        await sendUpdate(update, user: user, scope: scope)
    }

    /// Sends an instance's look to this node's connections of `user`.
    func sendUpdate(_ update: InstanceUpdate, user: UserID, scope: InstanceScope) async {
        if case .conversation(let conversation) = scope {
            if update.isActive {
                await instances.setOpenApp(update.appID, of: user, in: conversation)
            } else if await instances.openApp(of: user, in: conversation) == update.appID {
                await instances.setOpenApp(nil, of: user, in: conversation)
            }
        }
        await hub.send(await appFrame(update, scope: scope), to: user)
    }

    /// The `app` (or `home`) frame showing an instance's look, with the names behind its tokens.
    func appFrame(_ update: InstanceUpdate, scope: InstanceScope) async -> Wire.ServerFrame {
        var names: [String: String] = [:]
        if case .conversation(let conversation) = scope, let record = try? await caches.conversation(conversation, store: store) {
            names = (try? await caches.names(conversation: record, app: update.appID, store: store)) ?? [:]
        }
        let wire = Wire.AppUpdate(
            appID: update.appID, appName: directory.app(update.appID)?.manifest.name ?? update.appID.rawValue,
            isActive: update.isActive, presentationStyle: update.presentationStyle, modal: update.modal, view: update.view,
            error: update.error.map { Wire.ErrorBody(code: $0.error.code.name, message: $0.error.message) }, names: names)
        return switch scope {
        case .conversation(let conversation): .app(conversation: conversation, app: update.appID, update: wire)
        case .home: .home(app: update.appID, update: wire)
        }
    }

    /// What a reconnecting tab needs besides messages: its compose fields and the apps it has open.
    func sessionFrames(for user: UserID, in conversations: [ConversationID]) async -> [Wire.ServerFrame] {
        var frames: [Wire.ServerFrame] = []
        for conversation in conversations {
            if let staged = try? await store.staged(user: user, conversation: conversation) {
                frames.append(.staged(conversation: conversation, staged: await wireStaged(staged, user: user, conversation: conversation)))
            }
            if let app = await instances.openApp(of: user, in: conversation),
               let update = try? await currentUpdate(InstanceKey(user: user, scope: .conversation(conversation), app: app))
            {
                frames.append(await appFrame(update, scope: .conversation(conversation)))
            }
        }
        return frames
    }
}
