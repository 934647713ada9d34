import Foundation
@_spi(Hosting) import ParlorKit

/// What both engines do to turn their columns into records and back, whatever the engine: ids
/// from their text, message content from its JSON, and a corrupt row reported as a `StoreError`
/// that shows no stored data.
public enum RowCodec {
    /// A message from its columns.
    /// - Throws: `StoreError(.unavailable)` when an id or the content cannot be read.
    public static func message(
        id: String, conversation: String, sequence: Int64, sender: String, content json: String, sentAt: Date,
        replyTo: String? = nil, editedAt: Date? = nil, unsentAt: Date? = nil
    ) throws -> StoredMessage {
        guard let id = MessageID(id), let conversation = ConversationID(conversation), let sender = UserID(sender) else {
            throw StoreError(.unavailable, "A stored message id is corrupt.")
        }
        let reply = try replyTo.map { text throws(StoreError) in
            guard let reply = MessageID(text) else { throw StoreError(.unavailable, "A stored message id is corrupt.") }
            return reply
        }
        let content: StoredContent
        do {
            content = try CompactJSONDecoder().decode(StoredContent.self, from: json)
        } catch {
            throw StoreError(.unavailable, "A stored message could not be read.")
        }
        return StoredMessage(
            id: id, conversationID: conversation, sequence: sequence, sender: sender, content: content, sentAt: sentAt, replyTo: reply,
            editedAt: editedAt, unsentAt: unsentAt)
    }

    /// An account from its columns.
    /// - Throws: `StoreError(.unavailable)` when its id is corrupt.
    public static func user(
        id: String, username: String, displayName: String, createdAt: Date, avatar: String? = nil, about: String? = nil
    ) throws -> User {
        guard let id = UserID(id) else { throw StoreError(.unavailable, "A stored user id is corrupt.") }
        return User(id: id, username: username, displayName: displayName, createdAt: createdAt, avatar: avatar, about: about)
    }

    /// A value from its JSON text (a registered app's manifest).
    /// - Throws: `StoreError(.unavailable)` when it cannot be read.
    public static func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
        do {
            return try CompactJSONDecoder().decode(type, from: json)
        } catch {
            throw StoreError(.unavailable, "A stored \(T.self) could not be read.")
        }
    }

    /// The JSON text of a value (message content, staged items). JSON escapes control characters
    /// (U+0000 included), so the text fits any text column.
    /// - Throws: `StoreError(.invalid)` when the value cannot be encoded.
    public static func json<T: Encodable>(_ value: T) throws -> String {
        do {
            return try CompactJSONEncoder().text(value)
        } catch {
            throw StoreError(.invalid, "The value could not be stored: \(error)")
        }
    }
}
