import Foundation
@_spi(Hosting) import ParlorHost
import ParlorInput
@_spi(Hosting) import ParlorKit
import ParlorStore

extension AppHost {
    /// An instance's look as stored (resumed on this node).
    func currentUpdate(_ key: InstanceKey) async throws -> InstanceUpdate {
        let instance: any HostedAppInstance
        switch key.scope {
        case .conversation(let conversation): instance = try await conversationInstance(key.app, user: key.user, conversation: conversation)
        case .home: instance = try await homeInstance(key.app, user: key.user)
        }
        return await instance.current()
    }

    /// The user's instance of `app` in a conversation: running, resumed from its snapshot, or new.
    func conversationInstance(_ app: AppID, user: UserID, conversation: ConversationID) async throws -> any HostedAppInstance {
        let record = try await membership.requireMember(user, of: conversation)
        guard try await drawers.hasInstalled(app, user: user), let entry = directory.app(app) else {
            throw APIError(.notFound, code: .appNotInstalled, "That app is not in your drawer; get it from the store first.")
        }
        let key = InstanceKey(user: user, scope: .conversation(conversation), app: app)
        if let existing = await instances.instance(key) { return existing }
        let configuration = try await instanceConfiguration(
            key: key, remote: try await remoteParticipants(of: record, for: user, app: app),
            host: ServerConversationHost(host: self, user: user, conversation: conversation))
        return await instances.insert(entry.makeInstance(configuration.configuration), of: configuration.token, for: key)
    }

    /// The conversation's other members in `app`'s participant ids, in the order of their names
    /// (case and accents aside, then usernames): a view can list people by name although the app
    /// never learns a name, only the tokens that show as them.
    func remoteParticipants(of record: ConversationRecord, for user: UserID, app: AppID) async throws -> [ParticipantID] {
        let others = try await renderer.caches.users(record.members.filter { $0 != user }, store: renderer.store).sorted { first, second in
            switch first.displayName.compare(second.displayName, options: [.caseInsensitive, .diacriticInsensitive]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: first.username < second.username
            }
        }
        var remote: [ParticipantID] = []
        for member in others { remote.append(try await store.participantID(user: member.id, app: app)) }
        return remote
    }

    /// The user's instance of `app`'s home surface.
    func homeInstance(_ app: AppID, user: UserID) async throws -> any HostedAppInstance {
        guard try await drawers.hasInstalled(app, user: user), let entry = directory.app(app), entry.manifest.hasHomeSurface else {
            throw APIError(.notFound, code: .noHomeSurface, "That app has no home screen in your drawer.")
        }
        let key = InstanceKey(user: user, scope: .home, app: app)
        if let existing = await instances.instance(key) { return existing }
        let configuration = try await instanceConfiguration(key: key, remote: [], host: NoConversationHost())
        return await instances.insert(entry.makeInstance(configuration.configuration), of: configuration.token, for: key)
    }

    /// A new instance's configuration, and the token its saves carry (`InstanceRegistry.recordSaved`).
    private func instanceConfiguration(
        key: InstanceKey, remote: [ParticipantID], host: any ConversationHost
    ) async throws -> (configuration: InstanceConfiguration, token: InstanceToken) {
        let snapshot = try await store.instance(user: key.user, scope: key.scope, app: key.app)
            .flatMap { try? JSONDecoder().decode(InstanceSnapshot.self, from: $0) }
        let token = InstanceToken()
        let configuration = InstanceConfiguration(
            localParticipant: try await store.participantID(user: key.user, app: key.app), remoteParticipants: remote,
            surface: key.scope == .home ? .home : .messages, conversationHost: host,
            container: StoreContainer(store: store, user: key.user, app: key.app),
            httpClient: fetchClient(for: key.app), snapshot: snapshot,
            save: { [weak self] snapshot, older in await self?.save(snapshot, of: token, for: key, olderThanItsMessage: older) },
            show: { [weak self] update in await self?.show(update, user: key.user, scope: key.scope) },
            language: await renderer.caches.language(of: key.user))
        return (configuration, token)
    }

    /// `app`'s requests over HTTP: checked against where its manifest lets it go, and logged when they fail.
    private func fetchClient(for app: AppID) -> any FetchClient {
        guard let manifest = directory.app(app)?.manifest else { return httpClient }
        return AppFetchClient(client: httpClient, manifest: manifest, allowPrivateHosts: allowsPrivateHosts, logger: logger)
    }

    /// Sends an instance's new look to the user's connections on this node, as soon as its call
    /// has an answer (`InstanceConfiguration.show`): the instance saves itself right after.
    func show(_ update: InstanceUpdate, user: UserID, scope: InstanceScope) async {
        if let failure = update.error {
            switch failure.cause {
            case .app:
                logger.warning("An app reported a failure", metadata: ["app": "\(update.appID)", "detail": "\(failure.detail)"])
            case .client:
                // Not the app's doing (it never saw the event): a stale tab, or a forged frame.
                logger.notice(
                    "A client sent an event the app's view did not offer", metadata: ["app": "\(update.appID)", "user": "\(user)", "detail": "\(failure.detail)"])
            }
        }
        await sendUpdate(update, user: user, scope: scope)
    }

    /// Saves an instance's snapshot when it changed, and tells the other nodes. The instance calls
    /// it at the end of each call, before its next call begins (`InstanceConfiguration.save`), so a
    /// later call's send always drops what an earlier call saved, never the reverse.
    func save(_ snapshot: InstanceSnapshot, of token: InstanceToken, for key: InstanceKey, olderThanItsMessage: Bool) async {
        do {
            let data = try snapshot.encoded()
            guard await instances.recordSaved(data, of: token, for: key, olderThanItsMessage: olderThanItsMessage) else { return }
            do {
                try await store.saveInstance(data, user: key.user, scope: key.scope, app: key.app)
            } catch {
                await instances.forgetSaved(for: key)
                throw error
            }
            await bus.publish(.instanceChanged(user: key.user, conversation: key.scope.conversation, app: key.app))
        } catch {
            logger.error("Could not save an app instance", metadata: ["app": "\(key.app)", "error": "\(error)"])
        }
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
        await answer(await renderer.appFrame(update, scope: scope), to: user)
    }

    /// Sends `frame` to this node's connections of `user` and returns once their event loops
    /// have written it. What follows an answer (an instance saves its snapshot, a call goes on)
    /// would otherwise run first: on a busy core the thread that writes to the socket waits for
    /// it, 0.3–0.4 ms an answer in a tic-tac-toe move (`bench/README.md`, scenario 4).
    func answer(_ frame: Wire.ServerFrame, to user: UserID) async {
        for connection in await hub.send(frame, to: user) {
            await connection.written()
        }
    }
}
