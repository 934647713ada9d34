import Foundation
import ParlorHost
@_spi(Hosting) import ParlorKit
import ParlorStore

extension Wire {
    /// What a client sends over the WebSocket, one case per `type` (docs/PROTOCOL.md §3).
    public enum ClientFrame: Sendable, Hashable {
        /// Starts the session; `language` is the person's (a BCP 47 tag), which their apps draw in.
        case hello(since: [String: Int64], language: String?)
        case ping
        /// Sends a text, perhaps as a reply, perhaps with the card of a page it links to (`linkPreview`).
        case sendText(conversation: ConversationID, id: MessageID, text: String, replyTo: MessageID?, linkPreview: String?)
        /// Sends a sticker, on its own or placed on another message.
        case sendSticker(conversation: ConversationID, id: MessageID, sticker: String, placement: StickerPlacement?)
        /// Sends an app's message as written by the client (as any Messages device can send an
        /// `MSMessage`): checked by every ParlorKit limit and the app's own `validate`, like a
        /// message the app sends. `replacing` names the session's head it replaces.
        case sendAppMessage(conversation: ConversationID, app: AppID, message: Message, replacing: MessageID?)
        case sendStaged(conversation: ConversationID)
        case removeStaged(conversation: ConversationID)
        case openApp(conversation: ConversationID, app: AppID)
        case tapMessage(conversation: ConversationID, message: MessageID)
        case appEvent(conversation: ConversationID, app: AppID, event: ViewEvent)
        case setStyle(conversation: ConversationID, style: PresentationStyle)
        case closeApp(conversation: ConversationID)
        case openHome(app: AppID)
        case homeEvent(app: AppID, event: ViewEvent)
        case closeHome(app: AppID)
        case read(conversation: ConversationID, sequence: Int64)
        case keep(conversation: ConversationID, message: MessageID)
        /// Puts (`on`) or takes off the sender's `emoji` on a message.
        case react(conversation: ConversationID, message: MessageID, emoji: String, on: Bool)
        /// The sender is typing in a conversation, or stopped.
        case typing(conversation: ConversationID, isTyping: Bool)
        /// Replaces the text of one of the sender's text messages.
        case edit(conversation: ConversationID, message: MessageID, text: String)
        /// Erases one of the sender's messages for everyone.
        case unsend(conversation: ConversationID, message: MessageID)

        /// Every client frame's `type`, as the wire spells it.
        ///
        /// The table of the client's side of the protocol: the decoder (`ClientRequest.Reader`), the
        /// gateway's dispatch and `fields` switch over it, so the compiler points at each place a new
        /// kind needs; `parlor protocol` publishes it to the browser and other clients.
        public enum Kind: String, CaseIterable, Sendable {
            case hello, ping, sendText, sendSticker, sendAppMessage, sendStaged, removeStaged, openApp, tapMessage, appEvent, setStyle
            case closeApp, openHome, homeEvent, closeHome, read, keep, react, typing, edit, unsend

            /// The fields a frame of this kind carries besides `type` and the optional `requestId`
            /// (ProtocolTableTests checks them against what the decoder reads).
            public var fields: [Field] {
                switch self {
                case .hello: [.optional("since"), .optional("language")]
                case .ping: []
                case .sendText: [.required("conversation"), .required("id"), .required("text"), .optional("replyTo"), .optional("linkPreview")]
                case .sendSticker: [.required("conversation"), .required("id"), .required("sticker"), .optional("placement")]
                case .sendAppMessage: [.required("conversation"), .required("app"), .required("appMessage"), .optional("replacing")]
                case .sendStaged, .removeStaged, .closeApp: [.required("conversation")]
                case .openApp: [.required("conversation"), .required("app")]
                case .tapMessage, .keep, .unsend: [.required("conversation"), .required("message")]
                case .appEvent: [.required("conversation"), .required("app"), .required("event")]
                case .setStyle: [.required("conversation"), .required("style")]
                case .openHome, .closeHome: [.required("app")]
                case .homeEvent: [.required("app"), .required("event")]
                case .read: [.required("conversation"), .required("sequence")]
                case .react: [.required("conversation"), .required("message"), .required("emoji"), .required("on")]
                case .typing: [.required("conversation"), .required("typing")]
                case .edit: [.required("conversation"), .required("message"), .required("text")]
                }
            }
        }

        public var kind: Kind {
            switch self {
            case .hello: .hello
            case .ping: .ping
            case .sendText: .sendText
            case .sendSticker: .sendSticker
            case .sendAppMessage: .sendAppMessage
            case .sendStaged: .sendStaged
            case .removeStaged: .removeStaged
            case .openApp: .openApp
            case .tapMessage: .tapMessage
            case .appEvent: .appEvent
            case .setStyle: .setStyle
            case .closeApp: .closeApp
            case .openHome: .openHome
            case .homeEvent: .homeEvent
            case .closeHome: .closeHome
            case .read: .read
            case .keep: .keep
            case .react: .react
            case .typing: .typing
            case .edit: .edit
            case .unsend: .unsend
            }
        }

        /// The conversation the frame acts in, if any.
        public var conversation: ConversationID? {
            switch self {
            case .sendText(let conversation, _, _, _, _), .sendSticker(let conversation, _, _, _),
                .sendAppMessage(let conversation, _, _, _), .sendStaged(let conversation),
                .removeStaged(let conversation), .openApp(let conversation, _), .tapMessage(let conversation, _),
                .appEvent(let conversation, _, _), .setStyle(let conversation, _), .closeApp(let conversation),
                .read(let conversation, _), .keep(let conversation, _), .react(let conversation, _, _, _),
                .typing(let conversation, _), .edit(let conversation, _, _), .unsend(let conversation, _):
                conversation
            case .hello, .ping, .openHome, .homeEvent, .closeHome:
                nil
            }
        }
    }

    /// A client frame with the `requestId` its answer will carry.
    public struct ClientRequest: Sendable, Hashable {
        public var requestId: String?
        public var frame: ClientFrame

        /// Reads one client text.
        /// - Throws: `FrameError`: `malformedFrame` for what is not an object of this protocol (or a
        ///   field of the wrong type, or a `type` this protocol does not have), `invalidValue` naming a missing field.
        public static func decode(_ text: String) throws(FrameError) -> ClientRequest {
            let data = Data(text.utf8)
            let decoder = CompactJSONDecoder()
            guard let envelope = try? decoder.decode(Envelope.self, from: data) else {
                throw FrameError(code: .malformedFrame, message: "That frame is not valid JSON of this protocol.", requestId: nil)
            }
            guard ClientFrame.Kind(rawValue: envelope.type) != nil else {
                throw FrameError(code: .malformedFrame, message: "Unknown frame type '\(envelope.type.prefix(40))'.", requestId: envelope.requestId)
            }
            do {
                let fields = try decoder.decode(Fields.self, from: data)
                return ClientRequest(requestId: envelope.requestId, frame: fields.frame)
            } catch DecodingError.keyNotFound(let key, let context) where context.codingPath.isEmpty {
                throw FrameError(code: .invalidValue, message: "This frame needs '\(key.stringValue)'.", requestId: envelope.requestId)
            } catch DecodingError.keyNotFound(let key, let context) where context.codingPath.count == 1 {
                let field = context.codingPath[0].stringValue
                throw FrameError(
                    code: .invalidValue, message: "'\(field)' needs '\(key.stringValue)' (a new UUID for a message: a retry with the same id is not sent twice).",
                    requestId: envelope.requestId)
            } catch DecodingError.valueNotFound(_, let context) where context.codingPath.count == 1 {
                let key = context.codingPath[0].stringValue
                throw FrameError(code: .invalidValue, message: "This frame needs '\(key)'.", requestId: envelope.requestId)
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.last?.stringValue.lowercased().hasSuffix("url") == true {
                // A URL not as written (in `sendAppMessage`'s message): the sentence says what to escape.
                throw FrameError(code: .invalidValue, message: context.debugDescription, requestId: envelope.requestId)
            } catch {
                throw FrameError(code: .malformedFrame, message: "That frame is not valid JSON of this protocol.", requestId: envelope.requestId)
            }
        }

        private struct Envelope: Decodable {
            var type: String
            var requestId: String?
        }

        /// The frame its `type` names, read from the fields that type needs, all inside the
        /// decoder's call (a container kept past it would escape the decoder's checks).
        private struct Fields: Decodable {
            let frame: ClientFrame

            enum Key: String, CodingKey {
                case type, since, conversation, id, text, sticker, placement, app, message, event, style, sequence, emoji, on
                case typing, replyTo, linkPreview, appMessage, replacing, language
            }

            init(from decoder: any Decoder) throws {
                let reader = Reader(container: try decoder.container(keyedBy: Key.self))
                guard let kind = ClientFrame.Kind(rawValue: try reader.field(.type)) else {
                    throw DecodingError.dataCorruptedError(forKey: .type, in: reader.container, debugDescription: "Unknown frame type")
                }
                frame = try reader.frame(kind)
            }
        }

        /// Reads each case's fields from the frame's object.
        private struct Reader {
            let container: KeyedDecodingContainer<Fields.Key>

            func frame(_ kind: ClientFrame.Kind) throws -> ClientFrame {
                switch kind {
                case .hello:
                    .hello(
                        since: try container.decodeIfPresent([String: Int64].self, forKey: .since) ?? [:],
                        language: try container.decodeIfPresent(String.self, forKey: .language))
                case .ping: .ping
                case .sendText:
                    .sendText(
                        conversation: try conversation(), id: try field(.id), text: try field(.text),
                        replyTo: try container.decodeIfPresent(MessageID.self, forKey: .replyTo),
                        linkPreview: try container.decodeIfPresent(String.self, forKey: .linkPreview))
                case .sendSticker:
                    .sendSticker(
                        conversation: try conversation(), id: try field(.id), sticker: try field(.sticker),
                        placement: try container.decodeIfPresent(StickerPlacement.self, forKey: .placement))
                case .sendAppMessage: try appMessage()
                case .sendStaged: .sendStaged(conversation: try conversation())
                case .removeStaged: .removeStaged(conversation: try conversation())
                case .openApp: .openApp(conversation: try conversation(), app: try field(.app))
                case .tapMessage: .tapMessage(conversation: try conversation(), message: try field(.message))
                case .appEvent: .appEvent(conversation: try conversation(), app: try field(.app), event: try field(.event))
                case .setStyle: .setStyle(conversation: try conversation(), style: try field(.style))
                case .closeApp: .closeApp(conversation: try conversation())
                case .openHome: .openHome(app: try field(.app))
                case .homeEvent: .homeEvent(app: try field(.app), event: try field(.event))
                case .closeHome: .closeHome(app: try field(.app))
                case .read: .read(conversation: try conversation(), sequence: try field(.sequence))
                case .keep: .keep(conversation: try conversation(), message: try field(.message))
                case .react: .react(conversation: try conversation(), message: try field(.message), emoji: try field(.emoji), on: try field(.on))
                case .typing: .typing(conversation: try conversation(), isTyping: try field(.typing))
                case .edit: .edit(conversation: try conversation(), message: try field(.message), text: try field(.text))
                case .unsend: .unsend(conversation: try conversation(), message: try field(.message))
                }
            }

            private func conversation() throws -> ConversationID { try field(.conversation) }

            /// An object that must carry its own `id`.
            private struct Identified: Decodable { let id: MessageID }

            /// `sendAppMessage`, whose message must carry its own id: the lenient decoder of apps'
            /// messages would make one up, and a client's retry would then be a second message.
            private func appMessage() throws -> ClientFrame {
                let _: Identified = try field(.appMessage)
                return .sendAppMessage(
                    conversation: try conversation(), app: try field(.app), message: try field(.appMessage),
                    replacing: try container.decodeIfPresent(MessageID.self, forKey: .replacing))
            }
            func field<T: Decodable>(_ key: Fields.Key) throws -> T { try container.decode(T.self, forKey: key) }
        }
    }

    /// A client frame that could not be read: the `error` frame's code and message.
    public struct FrameError: Error, Sendable, Hashable {
        public var code: ErrorCode
        public var message: String
        /// The request's id, when the frame's envelope could be read.
        public var requestId: String?
    }
}
