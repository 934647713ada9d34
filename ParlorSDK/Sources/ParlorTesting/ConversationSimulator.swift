import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit

/// A headless conversation with any number of participants, hosting message apps with the
/// semantics of the Parlor server: the lifecycle order, staging, sending, sessions and their
/// collapse, conflicts on stale session heads, presentation changes and dismissal.
///
/// ```swift
/// let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], apps: [Wave()])
/// let alice = simulator.participant("Alice")
/// try await alice.openApp(named: "Wave")
/// try await alice.tap("Wave")
/// try await alice.sendStaged()
/// let bob = simulator.participant("Bob")
/// try await bob.tapMessage(containing: "👋")
/// #expect(try await bob.view().visibleTexts.contains("👋"))
/// ```
public actor ConversationSimulator {
    /// How long a read message with `shouldExpire` stays before it is deleted for its reader.
    public static let expiryDelay: Duration = .seconds(120)

    let apps: [AppID: AnyMessagesApp]
    let stickerPacks: [String: StickerPack]
    let httpClient: (any FetchClient)?
    private(set) var names: [String]
    private(set) var posted: [PostedMessage] = []
    private var scopedIDs: [String: ParticipantID] = [:]
    private var installed: [String: Set<AppID>] = [:]
    private var containers: [String: InMemoryContainer] = [:]
    private var instances: [String: any HostedAppInstance] = [:]
    private var activeApp: [String: AppID] = [:]
    private var openPack: [String: String] = [:]
    private var lastUpdate: [String: InstanceUpdate] = [:]
    private var staged: [String: (item: StagedItem, replacing: MessageID?)] = [:]
    private var composeText: [String: String] = [:]
    private var readAt: [String: [MessageID: ContinuousClock.Instant]] = [:]
    private var kept: [String: Set<MessageID>] = [:]
    private var clockOffset: Duration = .zero
    private var deliveries: [(recipient: String, message: Message)] = []
    /// Participants whose deliveries wait (`holdDeliveries(to:)`).
    private var held: Set<String> = []
    /// Each participant's language, as their browser or Settings would say it (`ViewEnvironment.language`).
    private var languages: [String: String] = [:]
    /// Images apps uploaded (`Conversation.upload(image:)`), by id.
    private var uploads: [String: Data] = [:]

    /// The bytes of an image an app uploaded, by the id `conversation.upload(image:)` gave it.
    public func uploadedImage(_ id: String) -> Data? { uploads[id] }

    /// Keeps an image an app uploaded: a PNG, JPEG, GIF or WebP file (recognised by its first
    /// bytes) of at most 10 MiB, as the server takes. Its id depends on its bytes only, so the same
    /// image uploaded twice has one id (64 hex digits, as the server's; not its SHA-256 here).
    func upload(image: Data) throws(MessagesError) -> String {
        guard !image.isEmpty, image.count <= 10 * 1024 * 1024 else {
            throw MessagesError(.mediaExceedsMaxSize, "An uploaded image is 1 byte to 10 MiB; this one is \(image.count) bytes.")
        }
        let bytes = Array(image.prefix(12))
        let isImage = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.starts(with: [0xFF, 0xD8, 0xFF]) || bytes.starts(with: Array("GIF8".utf8))
            || (bytes.starts(with: Array("RIFF".utf8)) && bytes.count == 12 && Array(bytes[8..<12]) == Array("WEBP".utf8))
        guard isImage else { throw MessagesError(.improperFileType, "Upload a PNG, JPEG, GIF or WebP image.") }
        let id = Self.contentID(image)
        uploads[id] = image
        return id
    }

    /// 64 hex digits that depend on `data` only: four FNV-1a hashes with different seeds.
    static func contentID(_ data: Data) -> String {
        (0..<4).map { (seed: UInt64) -> String in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ seed &* 0x9E37_79B9_7F4A_7C15
            for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// A conversation of `participants` (names, unique), each with every app and pack installed.
    public init(
        participants: [String] = ["Alice", "Bob"], apps: [any MessagesApp] = [], stickerPacks: [StickerPack] = [],
        httpClient: (any FetchClient)? = nil
    ) {
        self.init(participants: participants, hosting: apps.map { AnyMessagesApp($0) }, stickerPacks: stickerPacks, httpClient: httpClient)
    }

    /// A conversation of `participants` hosting apps in any form: in process
    /// (`AnyMessagesApp(app)`), or outside it over the app connection protocol
    /// (`OutOfProcess.app(_:)`, or `AnyMessagesApp(RemoteApp(manifest:link:))` for a link of your own).
    public init(
        participants: [String] = ["Alice", "Bob"], hosting apps: [AnyMessagesApp], stickerPacks: [StickerPack] = [],
        httpClient: (any FetchClient)? = nil
    ) {
        var directory: [AppID: AnyMessagesApp] = [:]
        for erased in apps {
            directory[erased.manifest.id] = erased
        }
        self.apps = directory
        self.stickerPacks = Dictionary(stickerPacks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.httpClient = httpClient
        self.names = []
        for name in participants where !names.contains(name) {
            names.append(name)
            installed[name] = Set(directory.keys)
        }
    }

    /// A handle to act as the participant named `name`.
    public nonisolated func participant(_ name: String) -> SimulatedParticipant {
        SimulatedParticipant(name: name, simulator: self)
    }

    /// Removes a participant: their apps are closed and they see nothing new.
    public func removeParticipant(_ name: String) async throws {
        try requireParticipant(name)
        if let instance = activeInstance(of: name) { _ = await record(instance.dismiss(), for: name) }
        openPack[name] = nil
        staged[name] = nil
        composeText[name] = nil
        names.removeAll { $0 == name }
        await refreshParticipants()
    }

    /// Every committed message, oldest first, as the conversation stores them.
    public var messages: [PostedMessage] { posted }

    /// Moves the simulator's clock forward (for expiring messages).
    public func advanceClock(by duration: Duration) { clockOffset += duration }

    /// The participant id `name` has inside the app `appID`: stable per (participant, app),
    /// different across apps.
    public func participantID(of name: String, in appID: AppID) -> ParticipantID {
        let key = "\(name)\u{0}\(appID.rawValue)"
        if let id = scopedIDs[key] { return id }
        let id = ParticipantID()
        scopedIDs[key] = id
        return id
    }

    // MARK: Committing (what the server's store does)

    func commit(_ content: SimulatedContent, id: MessageID, from sender: String, replacing: MessageID?) async throws -> PostedMessage {
        try requireParticipant(sender)
        if let existing = posted.first(where: { $0.id == id }) {
            try MessageRules.checkRetry(storedSender: existing.sender, sender: sender)
            return existing
        }
        var content = content
        switch content {
        case .text(let text):
            try MessageRules.checkText(text)
        case .sticker:
            break
        case .app(let message):
            let app = try MessageRules.app(of: message, in: { self.apps[$0] })
            let checked = try MessageRules.prepare(message, sender: participantID(of: sender, in: app.manifest.id), app: app.manifest)
            if case .upload(let id)? = checked.template?.image, uploads[id] == nil {
                throw MessagesError(.fileNotFound, "The message shows an uploaded image that is not one you can see; upload it with conversation.upload(image:).")
            }
            func currentHead() throws(MessagesError) -> PostedMessage? {
                let head = checked.session.flatMap { session in posted.last { $0.message?.session == session } }
                if let head, !MessageRules.isCurrent(head: head.id, replacing: replacing) {
                    throw MessageRules.sessionConflict(head: head.message)
                }
                return head
            }
            // An app outside the host is asked first, against the head the commit then requires.
            let checkedHead = try currentHead()
            try await app.checkBeforeCommit(checked, replacing: checkedHead?.message)
            let head = try currentHead()
            guard head?.id == checkedHead?.id else { throw MessageRules.sessionConflict(head: head?.message) }
            try MessageRules.checkAppMessage(checked, replacing: head?.message, app: app)
            content = .app(checked)
        }
        let session: SessionID? = if case .app(let message) = content { message.session?.id } else { nil }
        let starter = session.map { session in posted.first { $0.transcriptSessionID == session }?.sender ?? sender }
        let entry = PostedMessage(id: id, sequence: posted.count + 1, sender: sender, content: content, sessionStarter: starter)
        posted.append(entry)
        if let message = entry.message, let appID = message.appID {
            for name in names where name != sender && activeApp[name] == appID {
                deliveries.append((name, message))
            }
        }
        return entry
    }

    /// Delivers queued messages to the recipients' active app instances (didReceive). Runs after
    /// each step, never inside another instance's call, as the server's fan-out does.
    func deliverPending() async {
        var waiting: [(recipient: String, message: Message)] = []
        while !deliveries.isEmpty {
            let (recipient, message) = deliveries.removeFirst()
            if held.contains(recipient) {
                waiting.append((recipient, message))
                continue
            }
            guard let appID = message.appID, activeApp[recipient] == appID, let instance = instances[key(recipient, appID)] else { continue }
            lastUpdate[recipient] = await instance.receive(message)
        }
        deliveries = waiting
    }

    /// Holds the messages that reach `name`'s open app (`didReceive`) until
    /// `releaseDeliveries(to:)`, as a slow network would: `name`'s app keeps acting on what it
    /// saw last, which is how two people answer the same message at once. Transcripts are not
    /// held: the person sees the message, their app has not heard of it.
    public func holdDeliveries(to name: String) throws {
        try requireParticipant(name)
        held.insert(name)
    }

    /// Delivers what was held for `name`, in order, and stops holding.
    public func releaseDeliveries(to name: String) async throws {
        try requireParticipant(name)
        held.remove(name)
        await deliverPending()
    }

    // MARK: Staging

    func stage(_ item: StagedItem, replacing: MessageID?, for name: String) throws {
        try requireParticipant(name)
        staged[name] = (item, replacing)
    }

    func appendComposeText(_ text: String, for name: String) {
        composeText[name, default: ""] += text
    }

    func stagedItem(of name: String) -> StagedItem? { staged[name]?.item }
    func composeTextOf(_ name: String) -> String { composeText[name] ?? "" }

    func sendStaged(by name: String) async throws -> PostedMessage? {
        try requireParticipant(name)
        guard let (item, replacing) = staged[name] else { return nil }
        let posted: PostedMessage
        switch item {
        case .message(let message):
            do {
                (posted, _) = try await MessageRules.sendStaged(message, replacing: replacing) { staged, head in
                    guard let appID = staged.appID, let app = apps[appID] else { return nil }
                    return try await app.rebase(staged, onto: head, sender: participantID(of: name, in: appID))
                } commit: { message, replacing in
                    try await commit(.app(message), id: message.id, from: name, replacing: replacing)
                }
            } catch let error as MessagesError {
                // As on the server: the message stays staged, saying why (`Message.error`).
                staged[name] = (.message(MessageRules.failedToSend(message, SendFailure(error))), replacing)
                throw error
            }
        case .sticker(let sticker):
            posted = try await commit(.sticker(sticker), id: MessageID(), from: name, replacing: nil)
        }
        staged[name] = nil
        if let message = posted.message, let appID = message.appID, let instance = instances[key(name, appID)] {
            lastUpdate[name] = await instance.didStartSending(message)
        }
        await deliverPending()
        return posted
    }

    func removeStaged(by name: String) async {
        guard let (item, _) = staged.removeValue(forKey: name) else { return }
        if case .message(let message) = item, let appID = message.appID, let instance = instances[key(name, appID)] {
            lastUpdate[name] = await instance.didCancelSending(message)
        }
    }

    func sendText(_ text: String, id: MessageID = MessageID(), by name: String) async throws -> PostedMessage {
        let entry = try await commit(.text(text), id: id, from: name, replacing: nil)
        composeText[name] = nil
        await deliverPending()
        return entry
    }

    // MARK: Apps

    func install(_ appID: AppID, for name: String) throws {
        try requireParticipant(name)
        guard apps[appID] != nil else { throw SimulatorError("No app \(appID) in this simulator.") }
        installed[name, default: []].insert(appID)
    }

    func uninstall(_ appID: AppID, for name: String) async throws {
        if activeApp[name] == appID { try await dismissApp(of: name) }
        installed[name, default: []].remove(appID)
        instances[key(name, appID)] = nil
    }

    /// The app `name` has open, if any.
    func activeAppID(of name: String) -> AppID? { activeApp[name] }

    func appID(named appName: String) throws -> AppID {
        guard let app = apps.values.first(where: { $0.manifest.name == appName || $0.manifest.id.rawValue == appName }) else {
            throw SimulatorError("No app named '\(appName)'; the drawer has \(apps.values.map(\.manifest.name).sorted()).")
        }
        return app.manifest.id
    }

    func openApp(_ appID: AppID, for name: String) async throws -> InstanceUpdate {
        let instance = try await switchTo(appID, for: name)
        return await record(instance.openFromDrawer(), for: name)
    }

    func openHome(_ appID: AppID, for name: String) async throws -> InstanceUpdate {
        try requireInstalled(appID, for: name)
        guard let app = apps[appID], app.manifest.hasHomeSurface else {
            throw SimulatorError("\(appID) has no home surface.")
        }
        let homeKey = "\(name)\u{0}home\u{0}\(appID.rawValue)"
        let instance: any HostedAppInstance
        if let existing = instances[homeKey] {
            instance = existing
        } else {
            instance = app.makeInstance(configuration(for: name, appID: appID, surface: .home))
            instances[homeKey] = instance
        }
        let update = await instance.openHome()
        lastUpdate["\(name)\u{0}home"] = update
        return update
    }

    func homeUpdate(of name: String) -> InstanceUpdate? { lastUpdate["\(name)\u{0}home"] }

    func performHome(_ event: ViewEvent, appID: AppID, for name: String) async throws -> InstanceUpdate {
        guard let instance = instances["\(name)\u{0}home\u{0}\(appID.rawValue)"] else {
            throw SimulatorError("\(name) has not opened \(appID)'s home surface.")
        }
        let update = await instance.perform(event)
        lastUpdate["\(name)\u{0}home"] = update
        await deliverPending()
        return update
    }

    func openStickerPack(_ packID: String, for name: String) async throws -> StickerPack {
        try requireParticipant(name)
        guard let pack = stickerPacks[packID] else {
            throw SimulatorError("No sticker pack '\(packID)'; there are \(stickerPacks.keys.sorted()).")
        }
        if activeApp[name] != nil { try await dismissApp(of: name) }
        openPack[name] = packID
        return pack
    }

    func openStickerPackID(of name: String) -> String? { openPack[name] }

    func tapSticker(_ sticker: Sticker, for name: String) throws {
        guard let packID = openPack[name], let pack = stickerPacks[packID], pack.stickers.contains(sticker) else {
            throw SimulatorError("\(name) has no sticker pack open with that sticker.")
        }
        try stage(.sticker(sticker), replacing: nil, for: name)
    }

    func tapMessage(_ id: MessageID, for name: String) async throws -> InstanceUpdate {
        guard let entry = visiblePosted(for: name).first(where: { $0.id == id }), let message = entry.message else {
            throw SimulatorError("\(name) cannot see an app message with id \(id).")
        }
        let line = Transcript.collapse(visiblePosted(for: name)).first { $0.item.id == id }
        guard line?.isBubble == true else { throw SimulatorError("Only the newest message of a session can be tapped; this one is a summary line.") }
        guard let appID = message.appID, apps[appID] != nil else { throw SimulatorError("The message names no known app.") }
        guard installed[name, default: []].contains(appID) else {
            throw SimulatorError("\(name) does not have \(apps[appID]?.manifest.name ?? appID.rawValue); the bubble offers to get it.")
        }
        let instance = try await switchTo(appID, for: name)
        return await record(instance.tap(message), for: name)
    }

    func perform(_ event: ViewEvent, for name: String) async throws -> InstanceUpdate {
        guard let instance = activeInstance(of: name) else { throw SimulatorError("\(name) has no app open.") }
        return await record(instance.perform(event), for: name)
    }

    func changeStyle(to style: PresentationStyle, for name: String) async throws -> InstanceUpdate {
        guard let instance = activeInstance(of: name) else { throw SimulatorError("\(name) has no app open.") }
        return await record(instance.changeStyle(to: style), for: name)
    }

    func dismissApp(of name: String) async throws {
        openPack[name] = nil
        guard let instance = activeInstance(of: name) else { return }
        _ = await record(instance.dismiss(), for: name)
    }

    func currentUpdate(of name: String) -> InstanceUpdate? {
        guard activeApp[name] != nil else { return nil }
        return lastUpdate[name]
    }

    // MARK: Transcript

    func transcript(for name: String) async throws -> [TranscriptLine] {
        try requireParticipant(name)
        let now = ContinuousClock.now + clockOffset
        let visible = visiblePosted(for: name)
        // Reading the transcript reads it to the end.
        let readUpTo = Int64(posted.count)
        for entry in visible
        where MessageRules.startsExpiry(of: entry.message, sender: entry.sender, reader: name, sequence: Int64(entry.sequence), readUpTo: readUpTo) {
            if readAt[name, default: [:]][entry.id] == nil { readAt[name, default: [:]][entry.id] = now }
        }
        var lines: [TranscriptLine] = []
        for entry in Transcript.collapse(visible) {
            guard case .answer(let answer, let start) = entry else {
                lines.append(await line(for: entry, viewer: name))
                continue
            }
            // An answer's line, then the session's bubble in the name of whoever started it.
            lines.append(await line(for: .summary(answer), viewer: name))
            lines.append(await line(for: .bubble(answer), viewer: name, drawnAs: start))
        }
        return lines
    }

    func keep(_ id: MessageID, for name: String) { kept[name, default: []].insert(id) }

    private func visiblePosted(for name: String) -> [PostedMessage] {
        let now = ContinuousClock.now + clockOffset
        let reads = readAt[name] ?? [:]
        let keptIDs = kept[name] ?? []
        return posted.filter { entry in
            guard entry.message?.shouldExpire == true, !keptIDs.contains(entry.id), let read = reads[entry.id] else { return true }
            return now < read + Self.expiryDelay
        }
    }

    private func line(for entry: TranscriptEntry<PostedMessage>, viewer: String, drawnAs: String? = nil) async -> TranscriptLine {
        let posted = entry.item
        let app = posted.message?.appID.flatMap { apps[$0] }
        let hasApp = app.map { installed[viewer, default: []].contains($0.manifest.id) } ?? false
        let text: String
        switch (entry, posted.content) {
        case (.summary, .app(let message)):
            text = message.summaryLine(appName: app?.manifest.name ?? "an app")
        case (_, .text(let string)): text = string
        case (_, .sticker(let sticker)): text = sticker.localizedDescription
        case (_, .app(let message)): text = message.plainText
        }
        var liveView: ViewNode?
        if entry.isBubble, hasApp, let app, let message = posted.message, case .live = message.layout {
            let instance = app.makeInstance(configuration(for: viewer, appID: app.manifest.id, surface: .messages))
            liveView = await instance.openInTranscript(message).view
        }
        var namedText = text
        if let appID = app?.manifest.id {
            for name in names { namedText = namedText.replacingOccurrences(of: participantID(of: name, in: appID).mention, with: name) }
        }
        return TranscriptLine(
            kind: entry.isBubble ? .bubble : .summary, posted: posted, text: text, namedText: namedText, appName: app?.manifest.name,
            liveView: liveView, offersInstall: app != nil && !hasApp, drawnAs: drawnAs)
    }

    // MARK: Helpers

    private func key(_ name: String, _ appID: AppID) -> String { "\(name)\u{0}\(appID.rawValue)" }

    private func activeInstance(of name: String) -> (any HostedAppInstance)? {
        activeApp[name].flatMap { instances[key(name, $0)] }
    }

    private func record(_ update: InstanceUpdate, for name: String) async -> InstanceUpdate {
        lastUpdate[name] = update
        if update.isActive {
            activeApp[name] = update.appID
        } else if activeApp[name] == update.appID {
            activeApp[name] = nil
        }
        await deliverPending()
        return lastUpdate[name] ?? update
    }

    /// Makes `appID` the participant's one open app, dismissing another one first.
    private func switchTo(_ appID: AppID, for name: String) async throws -> any HostedAppInstance {
        try requireInstalled(appID, for: name)
        openPack[name] = nil
        if let current = activeApp[name], current != appID { try await dismissApp(of: name) }
        if let instance = instances[key(name, appID)] { return instance }
        guard let app = apps[appID] else { throw SimulatorError("No app \(appID).") }
        let instance = app.makeInstance(configuration(for: name, appID: appID, surface: .messages))
        instances[key(name, appID)] = instance
        return instance
    }

    private func configuration(for name: String, appID: AppID, surface: AppSurface) -> InstanceConfiguration {
        let containerKey = key(name, appID)
        let container = containers[containerKey] ?? InMemoryContainer()
        containers[containerKey] = container
        return InstanceConfiguration(
            localParticipant: participantID(of: name, in: appID),
            remoteParticipants: others(of: name, in: appID),
            surface: surface,
            conversationHost: SimulatedConversationHost(simulator: self, participant: name),
            container: container, httpClient: httpClient, language: languages[name] ?? ViewEnvironment.defaultLanguage)
    }

    /// The other participants in `appID`'s ids, in the order of their names, as a host gives them.
    private func others(of name: String, in appID: AppID) -> [ParticipantID] {
        names.filter { $0 != name }
            .sorted { $0.compare($1, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedAscending }
            .map { participantID(of: $0, in: appID) }
    }

    func setLanguage(_ language: String, of name: String) async throws {
        try requireParticipant(name)
        guard let tag = LocalizedStrings.languageTag(language) else { throw SimulatorError("'\(language)' is not a language tag such as fr or pt-BR.") }
        languages[name] = tag
        for (instanceKey, instance) in instances where instanceKey.split(separator: "\u{0}").first.map(String.init) == name {
            await instance.updateLanguage(tag)
        }
    }

    private func refreshParticipants() async {
        for (instanceKey, instance) in instances {
            let parts = instanceKey.split(separator: "\u{0}").map(String.init)
            guard let name = parts.first, let appRaw = parts.last else { continue }
            let appID = AppID(appRaw)
            await instance.updateRemoteParticipants(others(of: name, in: appID))
        }
    }

    func requireParticipant(_ name: String) throws {
        guard names.contains(name) else {
            throw SimulatorError("'\(name)' is not in this conversation; it has \(names).")
        }
    }

    private func requireInstalled(_ appID: AppID, for name: String) throws {
        try requireParticipant(name)
        guard installed[name, default: []].contains(appID) else {
            throw SimulatorError("\(name) does not have \(appID) installed.")
        }
    }
}

/// The simulator as one participant's app instances see the conversation.
struct SimulatedConversationHost: ConversationHost {
    let simulator: ConversationSimulator
    let participant: String

    func stage(_ message: Message, replacing: MessageID?) async throws {
        try await simulator.stage(.message(MessageRules.staging(message)), replacing: replacing, for: participant)
    }

    func send(_ message: Message, replacing: MessageID?) async throws -> Message {
        let posted = try await simulator.commit(.app(message), id: message.id, from: participant, replacing: replacing)
        return posted.message ?? message
    }

    func insertText(_ text: String) async throws {
        await simulator.appendComposeText(text, for: participant)
    }

    func upload(image: Data) async throws -> String {
        try await simulator.upload(image: image)
    }

    func insertSticker(_ sticker: Sticker) async throws {
        try await simulator.stage(.sticker(sticker), replacing: nil, for: participant)
    }
}
