import Foundation
import ParlorKit

public enum UserTag: IdentifierTag { public static let name = "user id" }

/// Identifies an account.
public typealias UserID = Identifier<UserTag>

/// An account.
public struct User: Sendable, Hashable, Codable {
    public var id: UserID
    /// Unique, case-insensitive; 3–32 of letters, digits, `.`, `-`, `_`.
    public var username: String
    public var displayName: String
    public var createdAt: Date
    /// The hash of the profile picture's blob: people who share a conversation with the account
    /// may fetch it. Nil: initials stand in for it.
    public var avatar: String?
    /// A line the person wrote about themselves ("Out until Monday"), shown in their details to
    /// people who share a conversation with them; nil when they wrote none.
    public var about: String?

    public init(id: UserID, username: String, displayName: String, createdAt: Date, avatar: String? = nil, about: String? = nil) {
        self.about = about
        self.id = id
        self.username = username
        self.displayName = displayName
        self.createdAt = createdAt
        self.avatar = avatar
    }
}
