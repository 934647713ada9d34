import Foundation
import ParlorKit

/// What a user has in a conversation's compose field.
public struct StagedRecord: Sendable, Hashable, Codable {
    public enum Item: Sendable, Hashable, Codable {
        case message(Message)
        case sticker(Sticker)
    }
    public var item: Item
    /// For a staged app message in a session: the head it replaces.
    public var replacing: MessageID?

    public init(item: Item, replacing: MessageID?) {
        self.item = item
        self.replacing = replacing
    }
}
