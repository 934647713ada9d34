import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

// MARK: Row decoding

extension PostgresStore {
    /// The columns `decodeMessage` reads, in its order; a query may select more after them.
    static let messageColumns = "conversation_id, seq, id, sender_id, content, sent_at"
    /// The columns `decodeUser` reads, in its order.
    static let userColumns = "id, username, display_name, created_at"

    static func decodeMessage(_ row: PostgresRow) throws -> StoredMessage {
        let (conversation, sequence, id, sender, json, sentAt) = try readable { try row.decode((String, Int64, String, String, String, Timestamp).self) }
        guard let id = MessageID(id), let conversation = ConversationID(conversation), let sender = UserID(sender) else {
            throw StoreError(.unavailable, "A stored message id is corrupt.")
        }
        let content: StoredContent
        do {
            content = try JSONDecoder().decode(StoredContent.self, from: Data(json.utf8))
        } catch {
            throw StoreError(.unavailable, "A stored message could not be read.")
        }
        return StoredMessage(id: id, conversationID: conversation, sequence: sequence, sender: sender, content: content, sentAt: sentAt.date)
    }

    static func decodeUser(_ row: PostgresRow) throws -> User {
        let (id, username, displayName, createdAt) = try readable { try row.decode((String, String, String, Timestamp).self) }
        guard let id = UserID(id) else { throw StoreError(.unavailable, "A stored user id is corrupt.") }
        return User(id: id, username: username, displayName: displayName, createdAt: createdAt.date)
    }

    /// Decodes cells, reporting a mismatch as a `StoreError` rather than with the cell's data.
    static func readable<T>(_ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch let error as PostgresDecodingError {
            throw StoreError(.unavailable, "A stored value could not be read (column \(error.columnName)).")
        }
    }

    /// The JSON text of a value. JSON escapes control characters (U+0000 included), so the text
    /// always fits a `text` column.
    static func encode<T: Encodable>(_ value: T) throws -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw StoreError(.invalid, "The value could not be stored: \(error)")
        }
    }
}
