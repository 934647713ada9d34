import Foundation
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorStore

extension Wire {
    /// What the server sends over the WebSocket, one case per `type` (docs/PROTOCOL.md §4).
    public enum ServerFrame: Sendable {
        case welcome(protocolVersion: Int, user: User)
        case ready
        case pong(requestId: String?)
        case message(EncodedMessage)
        /// A message already delivered changed: edited or unsent.
        case messageChanged(Message)
        case ack(requestId: String?, message: EncodedMessage)
        case resync(conversation: ConversationID)
        /// `info` is nil when the user is no longer a member.
        case conversation(ConversationID, info: Conversation?)
        /// `staged` is nil when the compose field was cleared.
        case staged(conversation: ConversationID, staged: Staged?)
        case composeText(conversation: ConversationID, text: String)
        case app(conversation: ConversationID, app: AppID, update: AppUpdate)
        case home(app: AppID, update: AppUpdate)
        case expired(conversation: ConversationID, messageID: MessageID)
        /// A message's reactions now.
        case reactions(conversation: ConversationID, messageID: MessageID, reactions: [Reaction])
        /// Someone is typing in a conversation, or stopped.
        case typing(conversation: ConversationID, userID: UserID, isTyping: Bool)
        /// Another member read further.
        case readReceipt(conversation: ConversationID, receipt: ReadReceipt)
        /// `head` is the session's head now, for `sessionConflict`.
        case error(ErrorBody, requestId: String?, head: Message?)

        /// Every server frame's `type`, as the wire spells it.
        ///
        /// The table of the server's side of the protocol: the encoder and decoder below and `fields`
        /// switch over it; `parlor protocol` publishes it to the browser and other clients.
        public enum Kind: String, CaseIterable, Sendable {
            case welcome, ready, pong, message, messageChanged, ack, resync, conversation, staged, composeText, app, home, expired
            case reactions, typing, readReceipt, error

            /// The fields a frame of this kind carries besides `type` (ProtocolTableTests checks them
            /// against what the encoder writes).
            public var fields: [Wire.Field] {
                switch self {
                case .welcome: [.required("protocolVersion"), .required("user")]
                case .ready: []
                case .pong: [.optional("requestId")]
                case .message, .messageChanged: [.required("message")]
                case .ack: [.optional("requestId"), .required("message")]
                case .resync: [.required("conversation")]
                case .conversation: [.required("conversation"), .optional("conversationInfo")]
                case .staged: [.required("conversation"), .optional("staged")]
                case .composeText: [.required("conversation"), .required("text")]
                case .app: [.required("conversation"), .required("app"), .required("update")]
                case .home: [.required("app"), .required("update")]
                case .expired: [.required("conversation"), .required("messageID")]
                case .reactions: [.required("conversation"), .required("messageID"), .required("reactions")]
                case .typing: [.required("conversation"), .required("userID"), .required("typing")]
                case .readReceipt: [.required("conversation"), .required("receipt")]
                case .error: [.required("error"), .optional("requestId"), .optional("head")]
                }
            }
        }

        public var kind: Kind {
            switch self {
            case .welcome: .welcome
            case .ready: .ready
            case .pong: .pong
            case .message: .message
            case .messageChanged: .messageChanged
            case .ack: .ack
            case .resync: .resync
            case .conversation: .conversation
            case .staged: .staged
            case .composeText: .composeText
            case .app: .app
            case .home: .home
            case .expired: .expired
            case .reactions: .reactions
            case .typing: .typing
            case .readReceipt: .readReceipt
            case .error: .error
            }
        }

        /// The error frame answering a request.
        static func error(_ error: APIError, requestId: String? = nil, head: Message? = nil) -> ServerFrame {
            .error(
                ErrorBody(code: error.code, message: error.message, retryAfter: error.details["retryAfter"].flatMap { Int($0) }),
                requestId: requestId, head: head)
        }
    }
}

extension Wire.ServerFrame: Codable {
    private enum Key: String, CodingKey {
        case type, requestId, protocolVersion, user, conversation, conversationInfo, message, messageID, staged, text, app
        case update, error, head, reactions, userID, typing, receipt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind.rawValue, forKey: .type)
        switch self {
        case .welcome(let version, let user):
            try container.encode(version, forKey: .protocolVersion)
            try container.encode(user, forKey: .user)
        case .ready:
            break
        case .pong(let requestId):
            try container.encodeIfPresent(requestId, forKey: .requestId)
        case .message(let message):
            try container.encode(message, forKey: .message)
        case .messageChanged(let message):
            try container.encode(message, forKey: .message)
        case .ack(let requestId, let message):
            try container.encodeIfPresent(requestId, forKey: .requestId)
            try container.encode(message, forKey: .message)
        case .resync(let conversation):
            try container.encode(conversation, forKey: .conversation)
        case .conversation(let conversation, let info):
            try container.encode(conversation, forKey: .conversation)
            try container.encodeIfPresent(info, forKey: .conversationInfo)
        case .staged(let conversation, let staged):
            try container.encode(conversation, forKey: .conversation)
            try container.encodeIfPresent(staged, forKey: .staged)
        case .composeText(let conversation, let text):
            try container.encode(conversation, forKey: .conversation)
            try container.encode(text, forKey: .text)
        case .app(let conversation, let app, let update):
            try container.encode(conversation, forKey: .conversation)
            try container.encode(app, forKey: .app)
            try container.encode(update, forKey: .update)
        case .home(let app, let update):
            try container.encode(app, forKey: .app)
            try container.encode(update, forKey: .update)
        case .expired(let conversation, let messageID):
            try container.encode(conversation, forKey: .conversation)
            try container.encode(messageID, forKey: .messageID)
        case .reactions(let conversation, let messageID, let reactions):
            try container.encode(conversation, forKey: .conversation)
            try container.encode(messageID, forKey: .messageID)
            try container.encode(reactions, forKey: .reactions)
        case .typing(let conversation, let userID, let isTyping):
            try container.encode(conversation, forKey: .conversation)
            try container.encode(userID, forKey: .userID)
            try container.encode(isTyping, forKey: .typing)
        case .readReceipt(let conversation, let receipt):
            try container.encode(conversation, forKey: .conversation)
            try container.encode(receipt, forKey: .receipt)
        case .error(let error, let requestId, let head):
            try container.encode(error, forKey: .error)
            try container.encodeIfPresent(requestId, forKey: .requestId)
            try container.encodeIfPresent(head, forKey: .head)
        }
    }

    /// Reads a server frame, as a client written in Swift would.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let type = try container.decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "Unknown frame type '\(type.prefix(40))'")
        }
        func field<T: Decodable>(_ key: Key) throws -> T { try container.decode(T.self, forKey: key) }
        func optional<T: Decodable>(_ key: Key) throws -> T? { try container.decodeIfPresent(T.self, forKey: key) }
        self = switch kind {
        case .welcome: .welcome(protocolVersion: try field(.protocolVersion), user: try field(.user))
        case .ready: .ready
        case .pong: .pong(requestId: try optional(.requestId))
        case .message: .message(try field(.message))
        case .messageChanged: .messageChanged(try field(.message))
        case .ack: .ack(requestId: try optional(.requestId), message: try field(.message))
        case .resync: .resync(conversation: try field(.conversation))
        case .conversation: .conversation(try field(.conversation), info: try optional(.conversationInfo))
        case .staged: .staged(conversation: try field(.conversation), staged: try optional(.staged))
        case .composeText: .composeText(conversation: try field(.conversation), text: try field(.text))
        case .app: .app(conversation: try field(.conversation), app: try field(.app), update: try field(.update))
        case .home: .home(app: try field(.app), update: try field(.update))
        case .expired: .expired(conversation: try field(.conversation), messageID: try field(.messageID))
        case .reactions:
            .reactions(conversation: try field(.conversation), messageID: try field(.messageID), reactions: try field(.reactions))
        case .typing: .typing(conversation: try field(.conversation), userID: try field(.userID), isTyping: try field(.typing))
        case .readReceipt: .readReceipt(conversation: try field(.conversation), receipt: try field(.receipt))
        case .error: .error(try field(.error), requestId: try optional(.requestId), head: try optional(.head))
        }
    }
}
