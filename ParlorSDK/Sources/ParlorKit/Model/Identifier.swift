import Foundation

/// A UUID-backed identifier whose `Tag` makes each kind of identifier a distinct type.
///
/// `ParticipantID`, `ConversationID`, `MessageID` and `SessionID` are all `Identifier`s,
/// so a participant id can never be passed where a message id is expected.
/// It encodes as the UUID's canonical string.
public struct Identifier<Tag: IdentifierTag>: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    /// The underlying UUID.
    public let uuid: UUID

    /// Wraps an existing UUID.
    /// - Parameter uuid: the UUID to wrap.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// A new random identifier.
    public init() { self.uuid = UUIDText.random() }

    /// Parses the canonical UUID string form; `nil` when `string` is not a UUID.
    /// - Parameter string: a UUID string, such as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public init?(_ string: String) {
        guard let uuid = UUIDText.parse(string) else { return nil }
        self.uuid = uuid
    }

    /// The UUID's canonical string.
    public var description: String { UUIDText.string(uuid) }

    /// Orders identifiers by their UUID strings, for a stable order.
    /// - Parameters:
    ///   - lhs: an identifier.
    ///   - rhs: another identifier.
    /// - Returns: whether `lhs` sorts before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        // The bytes in order: the same order as their upper-case hex strings.
        withUnsafeBytes(of: lhs.uuid.uuid) { left in withUnsafeBytes(of: rhs.uuid.uuid) { left.lexicographicallyPrecedes($0) } }
    }

    /// Decodes an identifier from its UUID string.
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a UUID.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let uuid = UUIDText.parse(string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(Tag.name) must be a UUID, got '\(string.prefix(40))'")
        }
        self.uuid = uuid
    }

    /// Encodes the identifier as its UUID string.
    /// - Parameter encoder: the encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Names a kind of identifier; used only as `Identifier`'s phantom type.
public protocol IdentifierTag: Sendable {
    /// A readable name for error messages ("participant id").
    static var name: String { get }
}

/// Tags participant ids (`ParticipantID`).
public enum ParticipantTag: IdentifierTag { public static let name = "participant id" }
/// Tags conversation ids (`ConversationID`).
public enum ConversationTag: IdentifierTag { public static let name = "conversation id" }
/// Tags message ids (`MessageID`).
public enum MessageTag: IdentifierTag { public static let name = "message id" }
/// Tags session ids (`SessionID`).
public enum SessionTag: IdentifierTag { public static let name = "session id" }

/// Identifies a participant to one app. Scoped to (user, app): stable for a user within an app,
/// different across apps, so apps cannot correlate users.
public typealias ParticipantID = Identifier<ParticipantTag>
/// Identifies a conversation.
public typealias ConversationID = Identifier<ConversationTag>
/// Identifies a message; chosen by the sender so retries are idempotent.
public typealias MessageID = Identifier<MessageTag>
/// Identifies a session: the messages that form one transcript entry.
public typealias SessionID = Identifier<SessionTag>

extension ParticipantID {
    /// What a participant's token starts with, before the id (`mention`).
    public static let mentionOpening = "$"

    /// The token that renderers replace with this participant's display name, as in
    /// Apple's template layouts: `"$" + uuid`. Apps never see names, only this token.
    public var mention: String { Self.mentionOpening + uuid.uuidString }
}

/// Identifies an app, in reverse-DNS form (`org.parlor.tictactoe`).
public struct AppID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as written (`org.parlor.tictactoe`).
    public let rawValue: String
    /// Wraps an id string as is; `isWellFormed` says whether it is valid.
    /// - Parameter rawValue: the id, in reverse-DNS form.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// An id written as a string literal (`"org.parlor.tictactoe"`).
    /// - Parameter value: the id, in reverse-DNS form.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The id as written.
    public var description: String { rawValue }

    /// Decodes an app id from a plain string.
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the app id as a plain string.
    /// - Parameter encoder: the encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether the id is 1–100 characters of letters, digits, `.`, `-` and `_`.
    public var isWellFormed: Bool {
        !rawValue.isEmpty && rawValue.count <= 100
            && rawValue.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-_".unicodeScalars.contains($0)) }
    }
}
