import Foundation
import ParlorKit

/// A change to a conversation that its transcript shows as a line of its own, as Messages does
/// ("Alice added Dave", "Bob named the conversation “Friday”"). Stored as a message of kind
/// `event` whose sender is who made the change; it counts as unread for nobody and alerts nobody.
public enum ConversationEvent: Sendable, Hashable, Codable {
    /// The sender added these people.
    case added(people: [UserID])
    /// The sender removed this person.
    case removed(person: UserID)
    /// The sender left.
    case left
    /// The sender named the conversation (nil: removed its name).
    case renamed(title: String?)
    /// The sender made this person an admin, or no longer one.
    case admin(person: UserID, isAdmin: Bool)
    /// The sender changed the group's photo (false: removed it).
    case photo(isSet: Bool)
    /// A change of a kind this server does not know, written by a newer node of a cluster that is
    /// being upgraded one node at a time: shown as "changed the conversation" rather than failing
    /// to read the page of messages it is on.
    case unknown

    /// The names the cases are written under (Codable's: each case's name), so that a reader can
    /// tell a kind a newer node wrote from a known one that is damaged. A new case adds its name.
    public static let kinds: Set<String> = ["added", "removed", "left", "renamed", "admin", "photo", "unknown"]

    /// The people the line names besides its sender.
    public var people: [UserID] {
        switch self {
        case .added(let people): people
        case .removed(let person), .admin(let person, _): [person]
        case .left, .renamed, .photo, .unknown: []
        }
    }
}
