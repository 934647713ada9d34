import Foundation
import ParlorKit

/// Where an app instance runs: in a conversation, or on the app's home surface.
public enum InstanceScope: Sendable, Hashable {
    case conversation(ConversationID)
    case home

    /// An instance in `conversation`, or on the home surface when it is nil.
    public init(conversation: ConversationID?) {
        self = conversation.map { .conversation($0) } ?? .home
    }

    /// The instance's conversation; nil on the home surface.
    public var conversation: ConversationID? {
        if case .conversation(let id) = self { id } else { nil }
    }

    /// How the scope is written in `app_instances.scope`, on every backend: the conversation id, or `home`.
    public var storageKey: String {
        switch self {
        case .conversation(let id): id.description
        case .home: "home"
        }
    }
}
