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
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// A new random identifier.
    public init() { self.uuid = UUID() }

    /// Parses the canonical UUID string form; `nil` when `string` is not a UUID.
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }

    public var description: String { uuid.uuidString }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.uuid.uuidString < rhs.uuid.uuidString }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let uuid = UUID(uuidString: string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(Tag.name) must be a UUID, got '\(string.prefix(40))'")
        }
        self.uuid = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuid.uuidString)
    }
}

/// Names a kind of identifier; used only as `Identifier`'s phantom type.
public protocol IdentifierTag: Sendable {
    /// A readable name for error messages ("participant id").
    static var name: String { get }
}

public enum ParticipantTag: IdentifierTag { public static let name = "participant id" }
public enum ConversationTag: IdentifierTag { public static let name = "conversation id" }
public enum MessageTag: IdentifierTag { public static let name = "message id" }
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
    /// The token that renderers replace with this participant's display name, as in
    /// Apple's template layouts: `"$" + uuid`. Apps never see names, only this token.
    public var mention: String { "$" + uuid.uuidString }
}

/// Identifies an app, in reverse-DNS form (`org.parlor.tictactoe`).
public struct AppID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

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
