import Foundation
@_spi(Hosting) import ParlorKit

/// What an instance looks like after a call: whether it is open, how, and its view.
public struct InstanceUpdate: Sendable, Hashable {
    public var appID: AppID
    public var isActive: Bool
    public var presentationStyle: PresentationStyle
    public var modal: String?
    /// The rendered view; empty while the instance is inactive.
    public var view: ViewNode
    /// What went wrong during the call, safe to show the user; the instance carries on.
    public var error: InstanceFailure?

    public init(
        appID: AppID, isActive: Bool, presentationStyle: PresentationStyle, modal: String?, view: ViewNode, error: InstanceFailure?
    ) {
        self.appID = appID
        self.isActive = isActive
        self.presentationStyle = presentationStyle
        self.modal = modal
        self.view = view
        self.error = error
    }
}

/// An error an app's code caused or met: shown to the user as `error.message`, logged with `detail`.
public struct InstanceFailure: Error, Sendable, Hashable {
    /// Safe to show: the app's `MessagesError`, or a generic message for other errors.
    public var error: MessagesError
    /// For logs only: the hook that failed and the error as the app raised it.
    public var detail: String
    /// Who caused it: the app's code, or the person's client (an event the app's view did not
    /// offer, a forged or stale one), so that a log blames the right party.
    public var cause: Cause

    /// Who caused a failure.
    public enum Cause: String, Sendable, Hashable, Codable {
        /// The app's code threw, or could not be reached.
        case app
        /// The client sent what the app's view did not offer: the app never saw it.
        case client
    }

    public init(error: MessagesError, detail: String, cause: Cause = .app) {
        self.error = error
        self.detail = detail
        self.cause = cause
    }
}

/// An instance's persisted form: everything needed to bring it back after a restart.
public struct InstanceSnapshot: Sendable, Hashable, Codable {
    /// The app's `State`, as JSON.
    public var state: Data
    public var isActive: Bool
    public var presentationStyle: PresentationStyle
    public var selectedMessage: Message?
    public var modal: String?

    public init(state: Data, isActive: Bool, presentationStyle: PresentationStyle, selectedMessage: Message?, modal: String?) {
        self.state = state
        self.isActive = isActive
        self.presentationStyle = presentationStyle
        self.selectedMessage = selectedMessage
        self.modal = modal
    }

    /// The snapshot as it is stored: the same snapshot always gives the same bytes, so a host can
    /// tell an unchanged one from a changed one and skip the write.
    public func encoded() throws -> Data { try Self.encoder.encode(self) }

    /// The encoder of snapshots and of the app's state inside them. A dictionary's entries come in
    /// an order that differs between equal dictionaries; in key order, equal values encode
    /// equally (the members of other objects come in the order their type writes them).
    static let encoder = CompactJSONEncoder(sortsDictionaryKeys: true)
}
