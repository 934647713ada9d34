import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

// MARK: Row decoding

extension PostgresStore {
    /// The columns `decodeMessage` reads, in its order; a query may select more after them.
    static let messageColumns = "conversation_id, seq, id, sender_id, content, sent_at, reply_to, edited_at, unsent_at"
    /// How many columns `messageColumns` names: a query's own columns come after them.
    static let messageColumnCount = 9
    /// The columns `decodeUser` reads, in its order.
    static let userColumnNames = ["id", "username", "display_name", "created_at", "avatar", "about"]
    static let userColumns = userColumnNames.joined(separator: ", ")
    /// The same columns named through the `users` table, for a query that joins it.
    static let joinedUserColumns = userColumnNames.map { "users.\($0)" }.joined(separator: ", ")
    /// How many `userColumns` there are: a column selected after them is at this index.
    static let userColumnCount = userColumnNames.count

    static func decodeMessage(_ row: PostgresRow) throws -> StoredMessage {
        let (conversation, sequence, id, sender, json, sentAt, replyTo, editedAt, unsentAt) = try readable {
            try row.decode((String, Int64, String, String, String, Timestamp, String?, Timestamp?, Timestamp?).self)
        }
        return try RowCodec.message(
            id: id, conversation: conversation, sequence: sequence, sender: sender, content: json, sentAt: sentAt.date, replyTo: replyTo,
            editedAt: editedAt?.date, unsentAt: unsentAt?.date)
    }

    static func decodeUser(_ row: PostgresRow) throws -> User {
        let (id, username, displayName, createdAt, avatar, about) = try readable {
            let cells = row.makeRandomAccess()
            return (
                try cells[0].decode(String.self), try cells[1].decode(String.self), try cells[2].decode(String.self),
                try cells[3].decode(Timestamp.self), try cells[4].decode(String?.self), try cells[5].decode(String?.self))
        }
        return try RowCodec.user(id: id, username: username, displayName: displayName, createdAt: createdAt.date, avatar: avatar, about: about)
    }

    /// Decodes cells, reporting a mismatch as a `StoreError` rather than with the cell's data.
    static func readable<T>(_ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch let error as PostgresDecodingError {
            throw StoreError(.unavailable, "A stored value could not be read (column \(error.columnName)).")
        }
    }

    /// The JSON text of a value (`RowCodec.json`).
    static func encode<T: Encodable>(_ value: T) throws -> String { try RowCodec.json(value) }
}
