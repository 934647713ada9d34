import Foundation
import ParlorKit

/// One person's emoji on a message.
public struct ReactionRecord: Sendable, Hashable, Codable {
    public var user: UserID
    public var emoji: String

    public init(user: UserID, emoji: String) {
        self.user = user
        self.emoji = emoji
    }
}
