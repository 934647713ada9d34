import Foundation
@_spi(Hosting) import ParlorKit

/// A message app of any type, as hosts keep them in a directory.
public struct AnyMessagesApp: Sendable {
    public let manifest: AppManifest
    public let assetsDirectory: URL?
    private let make: @Sendable (InstanceConfiguration) -> any HostedAppInstance
    private let validator: @Sendable (Message, Message?) throws -> Void
    private let rebaser: @Sendable (Message, Message) async throws -> Message?
    /// For an app outside the host: its check, which needs a call, so it runs before the commit
    /// (against the head the commit then requires) instead of inside it.
    private let remoteCheck: (@Sendable (Message, Message?) async throws(MessagesError) -> Void)?

    public init<App: MessagesApp>(_ app: App) {
        manifest = app.manifest
        assetsDirectory = app.assetsDirectory
        make = { AppInstance(app: app, configuration: $0) }
        validator = { try app.validate($0, replacing: $1) }
        rebaser = { try app.rebase($0, onto: $1) }
        remoteCheck = nil
    }

    /// An app that runs in its own process, reached through `app`'s link.
    /// - Parameter assetsDirectory: its `.asset` files, when the host has them (a seed app run
    ///   out of process); apps elsewhere give images as URLs.
    public init(_ app: RemoteApp, assetsDirectory: URL? = nil) {
        manifest = app.manifest
        self.assetsDirectory = assetsDirectory
        make = { AppInstance(app: app, configuration: $0) }
        validator = { _, _ in }
        rebaser = { message, head in try await app.askToRebase(message, onto: head) }
        remoteCheck = { message, head throws(MessagesError) in try await app.check(message, replacing: head) }
    }

    /// Whether the app runs outside the host (its messages are checked with `checkBeforeCommit`).
    public var isRemote: Bool { remoteCheck != nil }

    /// Runs an outside app's check of `message` against `head`; nothing for an app in the host
    /// (its `validate` runs inside the commit).
    /// - Throws: the app's refusal, or `messageNotChecked` when it could not be asked.
    public func checkBeforeCommit(_ message: Message, replacing head: Message?) async throws(MessagesError) {
        try await remoteCheck?(message, head)
    }

    /// Runs the app's `validate(_:replacing:)` before a commit.
    /// - Throws: the app's refusal; any error that is not a `MessagesError` becomes `.actionRefused`.
    public func validate(_ message: Message, replacing head: Message?) throws(MessagesError) {
        do {
            try validator(message, head)
        } catch let error as MessagesError {
            throw error
        } catch {
            throw MessagesError(.actionRefused, "\(manifest.name) refused this message.")
        }
    }

    /// The app's `rebase(_:onto:)` of a staged message that met a newer head.
    /// - Parameter sender: the sender's participant id in this app (the host sets it on `message`).
    /// - Returns: the message to send instead; nil when the app does not re-apply it.
    /// - Throws: the app's refusal; any error that is not a `MessagesError` becomes `.actionRefused`.
    public func rebase(_ message: Message, onto head: Message, sender: ParticipantID) async throws(MessagesError) -> Message? {
        var message = message
        message.senderParticipantIdentifier = sender
        do {
            // The message is the app's, as everything it inserts: the host says so.
            return try await rebaser(message, head).map { rebased in
                var rebased = rebased
                rebased.appID = manifest.id
                return rebased
            }
        } catch let error as MessagesError {
            throw error
        } catch {
            throw MessagesError(.actionRefused, "\(manifest.name) could not apply this message to the newer one.")
        }
    }

    /// A new instance; resumes `configuration.snapshot` when given.
    public func makeInstance(_ configuration: InstanceConfiguration) -> any HostedAppInstance {
        make(configuration)
    }

    /// The file an `.asset(name)` image of this app names, if it exists inside the assets folder.
    public func assetURL(named name: String) -> URL? {
        guard (try? ImageSource.asset(name).validate()) != nil, let assetsDirectory else { return nil }
        let url = assetsDirectory.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

/// One running app instance, for one user, in one conversation (or on the app's home surface).
///
/// Calls are handled one at a time, in the order they arrive. Each returns the instance's new
/// look; an app that throws leaves its state as it was before the call and reports the failure.
public protocol HostedAppInstance: Actor {
    nonisolated var manifest: AppManifest { get }
    /// Opens the app from the drawer: compact, no selected message.
    func openFromDrawer() async -> InstanceUpdate
    /// Opens the home surface: expanded, outside any conversation.
    func openHome() async -> InstanceUpdate
    /// The user tapped one of the app's messages: opens it expanded, or selects it if already open.
    func tap(_ message: Message) async -> InstanceUpdate
    /// Runs the app in transcript style for a live bubble showing `message`.
    func openInTranscript(_ message: Message) async -> InstanceUpdate
    /// A message from this app arrived from someone else.
    func receive(_ message: Message) async -> InstanceUpdate
    /// The user acted in the view.
    func perform(_ event: ViewEvent) async -> InstanceUpdate
    /// The user switched between compact and expanded.
    func changeStyle(to style: PresentationStyle) async -> InstanceUpdate
    /// The user closed the app (or switched conversation, or closed the tab).
    func dismiss() async -> InstanceUpdate
    /// The user sent this app's staged message.
    func didStartSending(_ message: Message) async -> InstanceUpdate
    /// The user removed this app's staged message.
    func didCancelSending(_ message: Message) async -> InstanceUpdate
    /// The conversation's other participants changed.
    func updateRemoteParticipants(_ participants: [ParticipantID])
    /// The person's language changed: the next look and hooks use it.
    func updateLanguage(_ language: String)
    /// The current look, without running any hook.
    func current() -> InstanceUpdate
    /// Returns once the calls that arrived before it have ended, their state saved.
    func settle() async
    /// The instance's persisted form.
    func snapshot() -> InstanceSnapshot
}
