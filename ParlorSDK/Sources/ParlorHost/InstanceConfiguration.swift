import Foundation
@_spi(Hosting) import ParlorKit

/// Everything a host supplies to run one app instance for one user in one conversation.
public struct InstanceConfiguration: Sendable {
    public var localParticipant: ParticipantID
    public var remoteParticipants: [ParticipantID]
    public var surface: AppSurface
    /// The person's language (`ViewEnvironment.language`).
    public var language: String
    public var conversationHost: any ConversationHost
    public var container: any AppContainer
    public var httpClient: (any FetchClient)?
    /// The instance as it was persisted, to resume it.
    public var snapshot: InstanceSnapshot?
    /// Persists the instance: called with its snapshot at the end of every call, before the next
    /// call begins, so the saves and what the calls' hooks do through `conversationHost` (a send
    /// that drops the saved snapshot) happen in one order. `olderThanItsMessage`: a hook that
    /// sent a message during the call then failed, keeping its state from before that message.
    /// Nil for a host that keeps nothing.
    public var save: Save?
    /// Shows the instance: called with each call's update as soon as the call's hooks ran and its
    /// view was drawn, before `save`, in call order. A person sees the answer without waiting for
    /// the write; the next call still begins only once it is saved. Nil for a host that shows what
    /// the calls return.
    public var show: Show?

    public typealias Save = @Sendable (_ snapshot: InstanceSnapshot, _ olderThanItsMessage: Bool) async -> Void
    public typealias Show = @Sendable (_ update: InstanceUpdate) async -> Void

    public init(
        localParticipant: ParticipantID, remoteParticipants: [ParticipantID], surface: AppSurface = .messages,
        conversationHost: any ConversationHost, container: any AppContainer, httpClient: (any FetchClient)? = nil,
        snapshot: InstanceSnapshot? = nil, save: Save? = nil, show: Show? = nil, language: String = ViewEnvironment.defaultLanguage
    ) {
        self.language = language
        self.localParticipant = localParticipant
        self.remoteParticipants = remoteParticipants
        self.surface = surface
        self.conversationHost = conversationHost
        self.container = container
        self.httpClient = httpClient
        self.snapshot = snapshot
        self.save = save
        self.show = show
    }
}

/// A host for the home surface: there is no conversation to change.
public struct NoConversationHost: ConversationHost {
    public init() {}
    private var refusal: MessagesError {
        MessagesError(.apiUnavailableInPresentationContext, "The app's home screen is not part of a conversation; open the app from a conversation to send.")
    }
    public func stage(_ message: Message, replacing: MessageID?) async throws { throw refusal }
    public func send(_ message: Message, replacing: MessageID?) async throws -> Message { throw refusal }
    public func insertText(_ text: String) async throws { throw refusal }
    public func insertSticker(_ sticker: Sticker) async throws { throw refusal }
}

/// A container kept in memory: for tests and the simulator.
/// The container of an app whose manifest does not ask to keep data (`keepsData`).
public struct RefusingContainer: AppContainer {
    let appName: String

    public init(appName: String) { self.appName = appName }

    private var refusal: MessagesError {
        MessagesError(.actionRefused, "\(appName) keeps no data: its manifest does not ask to (keepsData).")
    }

    public func data(forKey key: String) async throws -> Data? { throw refusal }
    public func setData(_ data: Data?, forKey key: String) async throws { throw refusal }
}

public actor InMemoryContainer: AppContainer {
    private var values: [String: Data] = [:]
    public init() {}
    public func data(forKey key: String) async throws -> Data? { values[key] }
    public func setData(_ data: Data?, forKey key: String) async throws { values[key] = data }
}
