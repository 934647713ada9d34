import Foundation
@_spi(Hosting) import ParlorKit

/// The app connection protocol (docs/APPS-PROTOCOL.md): the frames between Parlor and an app that
/// runs in its own process and dials in over a WebSocket. Parlor keeps every instance's state and
/// runs the lifecycle; it calls the app for each hook with the state and what the hook needs, and
/// the app answers with the new state, its effects and its view.
///
/// Written once here and used by the server, the Swift runner (`AppResponder`) and the tests.
public enum AppWire {
    /// The protocol version the server speaks; an app names it in `?protocol=` when it connects.
    public static let version = 1
    /// The largest frame an app may send.
    public static let maxFrameBytes = 256 * 1024
    /// The largest state an app may keep per instance, as JSON.
    public static let maxStateBytes = 64 * 1024
    /// How long the server waits for an answer to one call.
    public static let callDeadline: Duration = .seconds(5)
    /// The most frames an app may send in one second; past it, its connection is closed.
    public static let maxFramesPerSecond = 500
    /// The most copies of one app connected to one server node at once.
    public static let maxConnectionsPerApp = 16
    /// The most effects one answer may carry.
    public static let maxEffectsPerAnswer = 32
    /// The most container reads one call may make.
    public static let maxContainerReadsPerCall = 32

    /// What Parlor asks the app to do: a lifecycle hook, an action, drawing, or checking a message.
    public enum Hook: String, Sendable, Hashable, Codable, CaseIterable {
        case willBecomeActive, didBecomeActive, willResignActive, didResignActive
        case willSelect, didSelect, didReceive, didStartSending, didCancelSending
        case willTransition, didTransition
        /// A control of the app's view was used: `action` is its action, parsed.
        case handle
        /// Draw the view for `state` in `context` (answer with `view` only).
        case render
        /// Check `message`, which replaces `head` in its session, before it is committed (answer
        /// with an empty result to accept, `refuse` to refuse). No state, no context.
        case validate
        /// Re-apply `message`, which the person staged on an older head, to `head`, the session's
        /// newest message (answer with the result's `message`, or an empty result to leave it
        /// staged). No state, no context.
        case rebase

        /// Whether an app may answer that it has no code for this hook (`Result.unimplemented`):
        /// every hook but `handle` and `render`.
        public var mayBeUnimplemented: Bool { self != .handle && self != .render }
    }

    /// Where the instance is when a hook runs.
    public struct Context: Sendable, Hashable, Codable {
        public var style: PresentationStyle
        public var surface: AppSurface
        public var modal: String?
        public var localParticipant: ParticipantID
        /// The conversation's other participants (`ViewEnvironment.remoteParticipantIdentifiers`
        /// too, so `render` draws with them).
        public var remoteParticipants: [ParticipantID]?
        public var selectedMessage: Message?
        /// The person's language (`ViewEnvironment.language`), a BCP 47 tag; absent: `en`.
        public var language: String?

        public init(
            style: PresentationStyle, surface: AppSurface, modal: String?, localParticipant: ParticipantID,
            remoteParticipants: [ParticipantID]?, selectedMessage: Message?, language: String? = nil
        ) {
            self.language = language
            self.style = style
            self.surface = surface
            self.modal = modal
            self.localParticipant = localParticipant
            self.remoteParticipants = remoteParticipants
            self.selectedMessage = selectedMessage
        }

        /// The environment `body` draws for.
        public var environment: ViewEnvironment {
            ViewEnvironment(
                presentationStyle: style, surface: surface, modal: modal, localParticipantIdentifier: localParticipant,
                remoteParticipantIdentifiers: remoteParticipants ?? [], selectedMessage: selectedMessage,
                language: language ?? ViewEnvironment.defaultLanguage)
        }
    }

    /// One call from Parlor to the app.
    public struct Call: Sendable, Hashable, Codable {
        /// Answers name it.
        public var id: String
        public var hook: Hook
        /// The instance's state (null for a new instance); absent for `validate`.
        public var state: JSONValue?
        public var context: Context?
        /// `handle`: the action of the control used.
        public var action: JSONValue?
        /// `willSelect`, `didSelect`, `didReceive`, `didStartSending`, `didCancelSending`,
        /// `validate`, `rebase`.
        public var message: Message?
        /// `validate`: the message it replaces (absent when it starts a session). `rebase`: the
        /// session's newest message, to re-apply `message` to.
        public var head: Message?
        /// `willTransition`, `didTransition`.
        public var style: PresentationStyle?

        public init(
            id: String, hook: Hook, state: JSONValue? = nil, context: Context? = nil, action: JSONValue? = nil,
            message: Message? = nil, head: Message? = nil, style: PresentationStyle? = nil
        ) {
            self.id = id
            self.hook = hook
            self.state = state
            self.context = context
            self.action = action
            self.message = message
            self.head = head
            self.style = style
        }
    }

    /// Something the app does in answer to a call, in order, as `AppContext` would.
    public enum Effect: Sendable, Hashable, Codable {
        /// Stages a message in the compose field (`context.conversation.insert`).
        case insert(Message)
        /// Sends a message at once (`context.conversation.send`); only from `handle`.
        case send(Message)
        case insertText(String)
        case insertSticker(Sticker)
        case requestStyle(PresentationStyle)
        case dismiss
        case presentModal(String)
        case dismissModal
        /// Sets (or with a null value removes) a key of the app's container for this person.
        case containerSet(key: String, value: JSONValue)

        private enum CodingKeys: String, CodingKey { case effect, message, text, sticker, style, name, key, value }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .effect) {
            case "insert": self = .insert(try container.decode(Message.self, forKey: .message))
            case "send": self = .send(try container.decode(Message.self, forKey: .message))
            case "insertText": self = .insertText(try container.decode(String.self, forKey: .text))
            case "insertSticker": self = .insertSticker(try container.decode(Sticker.self, forKey: .sticker))
            case "requestStyle": self = .requestStyle(try container.decode(PresentationStyle.self, forKey: .style))
            case "dismiss": self = .dismiss
            case "presentModal": self = .presentModal(try container.decode(String.self, forKey: .name))
            case "dismissModal": self = .dismissModal
            case "containerSet":
                self = .containerSet(
                    key: try container.decode(String.self, forKey: .key),
                    value: try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null)
            case let other:
                throw DecodingError.dataCorruptedError(
                    forKey: .effect, in: container, debugDescription: "Unknown effect '\(other.prefix(40))'")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .insert(let message):
                try container.encode("insert", forKey: .effect)
                try container.encode(message, forKey: .message)
            case .send(let message):
                try container.encode("send", forKey: .effect)
                try container.encode(message, forKey: .message)
            case .insertText(let text):
                try container.encode("insertText", forKey: .effect)
                try container.encode(text, forKey: .text)
            case .insertSticker(let sticker):
                try container.encode("insertSticker", forKey: .effect)
                try container.encode(sticker, forKey: .sticker)
            case .requestStyle(let style):
                try container.encode("requestStyle", forKey: .effect)
                try container.encode(style, forKey: .style)
            case .dismiss:
                try container.encode("dismiss", forKey: .effect)
            case .presentModal(let name):
                try container.encode("presentModal", forKey: .effect)
                try container.encode(name, forKey: .name)
            case .dismissModal:
                try container.encode("dismissModal", forKey: .effect)
            case .containerSet(let key, let value):
                try container.encode("containerSet", forKey: .effect)
                try container.encode(key, forKey: .key)
                try container.encode(value, forKey: .value)
            }
        }
    }

    /// The app's answer to a call.
    public struct Result: Sendable, Hashable, Codable {
        public var id: String
        /// The new state (absent: unchanged).
        public var state: JSONValue?
        public var effects: [Effect]?
        /// The view for the new state in the call's context (required for `render`; for other
        /// hooks it saves Parlor a `render` call when the context has not changed).
        public var view: ViewNode?
        /// `rebase`: the message to send instead (absent: not re-applied; it stays staged).
        public var message: Message?
        /// True when the app has no code for this hook (it did nothing: no state, no effects, and
        /// for `validate` it accepts, for `rebase` it leaves the message staged). Parlor then
        /// stops calling that hook on this connection and takes the empty answer as given.
        /// Ignored for `handle` and `render`, which every app has.
        public var unimplemented: Bool?

        public init(
            id: String, state: JSONValue? = nil, effects: [Effect]? = nil, view: ViewNode? = nil, message: Message? = nil,
            unimplemented: Bool? = nil
        ) {
            self.id = id
            self.state = state
            self.effects = effects
            self.view = view
            self.message = message
            self.unimplemented = unimplemented
        }

        /// The answer as Parlor takes it for `hook`: one that says the app has no code for the hook
        /// did nothing, whatever else it carries (its view, drawn for the unchanged state, is kept).
        public func taken(for hook: Hook) -> Result {
            unimplemented == true && hook.mayBeUnimplemented ? Result(id: id, view: view, unimplemented: true) : self
        }
    }

    /// The app's refusal or failure: a `validate` that refuses a message, or a hook that cannot
    /// go on. The state stays as it was; `message` is shown to the person.
    public struct Refusal: Sendable, Hashable, Codable {
        public var id: String
        /// A Messages error code (`actionRefused` when absent).
        public var code: String?
        public var message: String

        public init(id: String, code: String? = nil, message: String) {
            self.id = id
            self.code = code
            self.message = message
        }

        /// The error the host reports: an unknown code becomes `actionRefused`; the message is cut
        /// to a caption's length.
        public var error: MessagesError {
            let code = code.flatMap(MessagesError.Code.init(name:)) ?? .actionRefused
            return MessagesError(code, String(message.prefix(Limits.maxCaptionLength)))
        }
    }

    /// Stores an image an app outside the host uploads during a call (`AppFrame.upload`) for the
    /// call's person; returns its id.
    public typealias ImageUpload = @Sendable (Data) async throws -> String

    /// The most images an app may upload during one call.
    public static let maxUploadsPerCall = 8

    /// Frames from Parlor to the app.
    public enum ServerFrame: Sendable, Hashable, Codable {
        /// First frame after the app connects: which app this credential is, and the protocol.
        case welcome(app: AppID, protocolVersion: Int)
        case call(Call)
        /// The answer to the app's `containerGet`: null when the key is not set.
        case containerValue(id: String, value: JSONValue)
        /// The answer to the app's `upload`: the image's id, for `{"upload": id}` image sources.
        case uploaded(id: String, upload: String)
        /// A refused frame of the app's: the connection stays open. `id` names the refused
        /// `containerGet`, whose read then fails.
        case error(code: String, message: String, id: String?)

        private enum CodingKeys: String, CodingKey { case type, app, `protocol`, call, id, value, code, message, upload }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .type) {
            case "welcome":
                self = .welcome(app: try container.decode(AppID.self, forKey: .app), protocolVersion: try container.decode(Int.self, forKey: .protocol))
            case "call": self = .call(try container.decode(Call.self, forKey: .call))
            case "containerValue":
                self = .containerValue(
                    id: try container.decode(String.self, forKey: .id), value: try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null)
            case "uploaded":
                self = .uploaded(id: try container.decode(String.self, forKey: .id), upload: try container.decode(String.self, forKey: .upload))
            case "error":
                self = .error(
                    code: try container.decode(String.self, forKey: .code), message: try container.decode(String.self, forKey: .message),
                    id: try container.decodeIfPresent(String.self, forKey: .id))
            case let other:
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "Unknown frame type '\(other.prefix(40))'")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .welcome(let app, let version):
                try container.encode("welcome", forKey: .type)
                try container.encode(app, forKey: .app)
                try container.encode(version, forKey: .protocol)
            case .call(let call):
                try container.encode("call", forKey: .type)
                try container.encode(call, forKey: .call)
            case .containerValue(let id, let value):
                try container.encode("containerValue", forKey: .type)
                try container.encode(id, forKey: .id)
                try container.encode(value, forKey: .value)
            case .uploaded(let id, let upload):
                try container.encode("uploaded", forKey: .type)
                try container.encode(id, forKey: .id)
                try container.encode(upload, forKey: .upload)
            case .error(let code, let message, let id):
                try container.encode("error", forKey: .type)
                try container.encode(code, forKey: .code)
                try container.encode(message, forKey: .message)
                try container.encodeIfPresent(id, forKey: .id)
            }
        }
    }

    /// Frames from the app to Parlor.
    public enum AppFrame: Sendable, Hashable, Codable {
        case result(Result)
        case refuse(Refusal)
        /// Reads a key of the app's container for the person of the call `call`, while that call
        /// is open; answered by `containerValue` with the same `id`.
        case containerGet(id: String, call: String, key: String)
        /// Uploads an image (base64 of its file's bytes) for the person of the call `call`, while
        /// that call is open; answered by `uploaded` with the same `id`.
        case upload(id: String, call: String, image: String)

        private enum CodingKeys: String, CodingKey { case type, result, refusal, id, call, key, image }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .type) {
            case "result": self = .result(try container.decode(Result.self, forKey: .result))
            case "refuse": self = .refuse(try container.decode(Refusal.self, forKey: .refusal))
            case "containerGet":
                self = .containerGet(
                    id: try container.decode(String.self, forKey: .id), call: try container.decode(String.self, forKey: .call),
                    key: try container.decode(String.self, forKey: .key))
            case "upload":
                self = .upload(
                    id: try container.decode(String.self, forKey: .id), call: try container.decode(String.self, forKey: .call),
                    image: try container.decode(String.self, forKey: .image))
            case let other:
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "Unknown frame type '\(other.prefix(40))'")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .result(let result):
                try container.encode("result", forKey: .type)
                try container.encode(result, forKey: .result)
            case .refuse(let refusal):
                try container.encode("refuse", forKey: .type)
                try container.encode(refusal, forKey: .refusal)
            case .containerGet(let id, let call, let key):
                try container.encode("containerGet", forKey: .type)
                try container.encode(id, forKey: .id)
                try container.encode(call, forKey: .call)
                try container.encode(key, forKey: .key)
            case .upload(let id, let call, let image):
                try container.encode("upload", forKey: .type)
                try container.encode(id, forKey: .id)
                try container.encode(call, forKey: .call)
                try container.encode(image, forKey: .image)
            }
        }
    }

    /// Encodes a frame as compact JSON.
    public static func encode<Frame: Encodable>(_ frame: Frame) -> Data {
        (try? CompactJSONEncoder.wire.encode(frame)) ?? Data()
    }

    /// Decodes a frame.
    /// - Throws: `MessagesError(.invalidValue)` naming what was wrong.
    public static func decode<Frame: Decodable>(_ type: Frame.Type, from data: Data) throws(MessagesError) -> Frame {
        guard data.count <= maxFrameBytes else {
            throw MessagesError(.invalidValue, "The frame is \(data.count) bytes; the limit is \(maxFrameBytes).")
        }
        do {
            return try CompactJSONDecoder.wire.decode(type, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw MessagesError(.invalidValue, "The frame is not valid: \(context.debugDescription.prefix(200))")
        } catch let DecodingError.keyNotFound(key, _) {
            throw MessagesError(.invalidValue, "The frame has no '\(key.stringValue)'.")
        } catch let DecodingError.typeMismatch(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw MessagesError(.invalidValue, "The frame's '\(path)' has the wrong type.")
        } catch {
            throw MessagesError(.invalidValue, "The frame is not valid JSON.")
        }
    }
}
