import Foundation

/// An error from the Messages model: a stable code (Apple's `MSMessageErrorCode` where Apple has
/// one, Parlor's own from 100 up) and a message a person can act on.
///
/// ```swift
/// do { try message.validate() }
/// catch let error as MessagesError where error.code == .urlExceedsMaxSize { … }
/// ```
public struct MessagesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code. Codes below 100 are Apple's; 100 and up are Parlor's.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The number (Apple's raw value for Apple's codes).
        public let rawValue: Int
        /// The name used on the wire and in logs (`urlExceedsMaxSize`).
        public let name: String

        init(_ rawValue: Int, _ name: String) {
            self.rawValue = rawValue
            self.name = name
        }

        public var description: String { "\(name) (\(rawValue))" }

        // Apple's MSMessageErrorCode.
        public static let unknown = Code(-1, "unknown")
        public static let fileNotFound = Code(1, "fileNotFound")
        public static let fileUnreadable = Code(2, "fileUnreadable")
        public static let improperFileType = Code(3, "improperFileType")
        public static let improperFileURL = Code(4, "improperFileURL")
        public static let stickerFileImproperFileAttributes = Code(5, "stickerFileImproperFileAttributes")
        public static let stickerFileImproperFileSize = Code(6, "stickerFileImproperFileSize")
        public static let stickerFileImproperFileFormat = Code(7, "stickerFileImproperFileFormat")
        public static let urlExceedsMaxSize = Code(8, "urlExceedsMaxSize")
        public static let sendWithoutRecentInteraction = Code(9, "sendWithoutRecentInteraction")
        public static let sendWhileNotVisible = Code(10, "sendWhileNotVisible")
        public static let apiUnavailableInPresentationContext = Code(11, "apiUnavailableInPresentationContext")

        // Parlor's own codes.
        /// A text field of a message or layout is longer than its limit.
        public static let textExceedsMaxSize = Code(100, "textExceedsMaxSize")
        /// Another message replaced the session head first; `sessionHead` holds the new head.
        public static let sessionConflict = Code(101, "sessionConflict")
        /// A message URL's state could not be decoded.
        public static let malformedURLState = Code(102, "malformedURLState")
        /// The app tried to reach a host its manifest does not declare.
        public static let hostNotAllowed = Code(103, "hostNotAllowed")
        /// The app refused an action or a message (an illegal move, a forged state).
        public static let actionRefused = Code(104, "actionRefused")
        /// An HTTP request failed or timed out.
        public static let networkFailure = Code(105, "networkFailure")
        /// A value is missing or malformed (an empty id, an unknown enum value).
        public static let invalidValue = Code(106, "invalidValue")
        /// A media item (image, file) is too large.
        public static let mediaExceedsMaxSize = Code(107, "mediaExceedsMaxSize")
        /// A message id is already another sender's message in this conversation.
        public static let idInUse = Code(108, "idInUse")
        /// An app that runs outside the server is not connected, did not answer in time, or
        /// answered something the host could not use.
        public static let appUnavailable = Code(109, "appUnavailable")
        /// An outside app's message could not be checked by the app (it was not reachable), so it
        /// was not sent: a message is never committed unchecked.
        public static let messageNotChecked = Code(110, "messageNotChecked")

        /// Every code, for documentation and wire decoding.
        public static let all: [Code] = [
            .unknown, .fileNotFound, .fileUnreadable, .improperFileType, .improperFileURL,
            .stickerFileImproperFileAttributes, .stickerFileImproperFileSize, .stickerFileImproperFileFormat,
            .urlExceedsMaxSize, .sendWithoutRecentInteraction, .sendWhileNotVisible,
            .apiUnavailableInPresentationContext, .textExceedsMaxSize, .sessionConflict, .malformedURLState,
            .hostNotAllowed, .actionRefused, .networkFailure, .invalidValue, .mediaExceedsMaxSize, .idInUse,
            .appUnavailable, .messageNotChecked,
        ]

        /// Looks a code up by its wire name.
        public init?(name: String) {
            guard let code = Code.all.first(where: { $0.name == name }) else { return nil }
            self = code
        }
    }

    /// What kind of error this is.
    public var code: Code
    /// A sentence a person can act on; never contains secrets.
    public var message: String
    /// For `.sessionConflict`: the message that is now the head of the session.
    public var sessionHead: Message?

    public init(_ code: Code, _ message: String, sessionHead: Message? = nil) {
        self.code = code
        self.message = message
        self.sessionHead = sessionHead
    }

    public var description: String { "\(code.name): \(message)" }
}

extension MessagesError.Code: Codable {
    /// Encodes as the code's name (`"urlExceedsMaxSize"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Decodes a known code's name; anything else fails.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let code = MessagesError.Code(name: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Unknown error code '\(name.prefix(40))'")
        }
        self = code
    }
}

extension MessagesError: LocalizedError {
    public var errorDescription: String? { message }
}
