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

        /// The name and number (`urlExceedsMaxSize (8)`).
        public var description: String { "\(name) (\(rawValue))" }

        // Apple's MSMessageErrorCode.
        /// An error of no known kind.
        public static let unknown = Code(-1, "unknown")
        /// A file, or an image asset name, could not be found.
        public static let fileNotFound = Code(1, "fileNotFound")
        /// A file exists but could not be read.
        public static let fileUnreadable = Code(2, "fileUnreadable")
        /// A file is of a type that is not allowed there.
        public static let improperFileType = Code(3, "improperFileType")
        /// A URL uses a scheme that is not allowed, or is not an absolute URL.
        public static let improperFileURL = Code(4, "improperFileURL")
        /// A sticker's description is too long, or its image's size in pixels is out of range.
        public static let stickerFileImproperFileAttributes = Code(5, "stickerFileImproperFileAttributes")
        /// A sticker file is larger than `Limits.maxStickerFileSize`.
        public static let stickerFileImproperFileSize = Code(6, "stickerFileImproperFileSize")
        /// A sticker file is not in an image format stickers may use.
        public static let stickerFileImproperFileFormat = Code(7, "stickerFileImproperFileFormat")
        /// A URL is longer than its limit (`Limits.maxURLLength`).
        public static let urlExceedsMaxSize = Code(8, "urlExceedsMaxSize")
        /// The app tried to send a message when the user had not just acted in it.
        public static let sendWithoutRecentInteraction = Code(9, "sendWithoutRecentInteraction")
        /// The app tried to change the conversation while it was not open.
        public static let sendWhileNotVisible = Code(10, "sendWhileNotVisible")
        /// The call is not available in the app's presentation style (inside a message bubble, or
        /// requesting the transcript style).
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
        /// - Parameter name: a code's wire name, such as `urlExceedsMaxSize`.
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

    /// Creates an error.
    /// - Parameters:
    ///   - code: what kind of error it is.
    ///   - message: a sentence a person can act on, with no secrets in it.
    ///   - sessionHead: for `.sessionConflict`, the session's new head.
    public init(_ code: Code, _ message: String, sessionHead: Message? = nil) {
        self.code = code
        self.message = message
        self.sessionHead = sessionHead
    }

    /// The code's name and the message (`urlExceedsMaxSize: The message URL is …`).
    public var description: String { "\(code.name): \(message)" }
}

extension MessagesError.Code: Codable {
    /// Encodes as the code's name (`"urlExceedsMaxSize"`).
    /// - Parameter encoder: the encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Decodes a known code's name; anything else fails.
    /// - Parameter decoder: the decoder to read from.
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
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
}
