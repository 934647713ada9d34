// The pieces of a call: who is looking (the context), the messages of the app, the effects an
// answer asks for, and the errors that refuse a call (docs/APPS-PROTOCOL.md §3.3, §6, §7, §9).

/// A participant as an app knows them: an upper-case UUID, different per app.
public struct ParticipantID: Equatable {
    public let uuid: String

    /// `text` when it is an upper-case UUID; nil otherwise (it came from outside).
    public init?(_ text: String) {
        let bytes = utf8Bytes(of: text)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F")) else { return nil }
            }
        }
        uuid = text
    }

    /// The token texts carry for this person (`$` and the id): every viewer reads their name.
    public var mention: String { "$" + uuid }

    public static func == (a: ParticipantID, b: ParticipantID) -> Bool { same(a.uuid, b.uuid) }
}

/// 16 bytes as a UUID is written in upper case (`3F9A0C1E-…`): participant and session ids.
func uuidText(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
        out.append(PercentEncoding.hexDigit(byte >> 4))
        out.append(PercentEncoding.hexDigit(byte & 0x0F))
    }
    return String(decoding: out, as: UTF8.self)
}

public enum PresentationStyle: String {
    case compact, expanded, transcript
}

/// Who is looking, where (docs/APPS-PROTOCOL.md §3.3).
public struct Context {
    public var style: PresentationStyle
    /// `messages` (in a conversation) or `home` (the app's own screen).
    public var surface: String
    public var localParticipant: ParticipantID
    public var remoteParticipants: [ParticipantID]
    /// The message of this app the person opened, if any.
    public var selectedMessage: AppMessage?
    /// The person's language, a BCP 47 tag.
    public var language: String

    init(json: JSON) throws(AppError) {
        guard let local = json["localParticipant"].string.flatMap({ ParticipantID($0) }) else {
            throw AppError(.invalidValue, "The call names no participant.")
        }
        localParticipant = local
        remoteParticipants = json["remoteParticipants"].elements.compactMap { $0.string.flatMap { ParticipantID($0) } }
        style = json["style"].string.flatMap { PresentationStyle(rawValueBytes: $0) } ?? .compact
        surface = json["surface"].string ?? "messages"
        let selected = json["selectedMessage"]
        selectedMessage = selected.isNull ? nil : AppMessage(json: selected)
        language = json["language"].string ?? "en"
    }
}

extension PresentationStyle {
    init?(rawValueBytes text: String) {
        for style in [PresentationStyle.compact, .expanded, .transcript] where same(style.rawValue, text) {
            self = style
            return
        }
        return nil
    }
}

/// A message of this app: its state in `url`, its bubble in `caption` and `image`.
public struct AppMessage {
    /// Messages of one session replace each other in place (a game, a poll).
    public var session: String?
    public var url: String?
    public var caption: String?
    public var subcaption: String?
    public var image: ImageSource?
    /// The line an older message of the session leaves in the transcript.
    public var summaryText: String?
    public var accessibilityLabel: String?
    /// Whether it answers its session (a vote, a like) rather than taking a turn: the session's
    /// bubble then stays in the name of whoever started it (`Message.answersSession`).
    public var answersSession: Bool
    /// Set by Parlor on messages it gives the app; ignored in messages the app sends.
    public var sender: ParticipantID?

    public init(
        session: String? = nil, url: String? = nil, caption: String? = nil, subcaption: String? = nil, image: ImageSource? = nil,
        summaryText: String? = nil, accessibilityLabel: String? = nil, answersSession: Bool = false
    ) {
        self.session = session
        self.url = url
        self.caption = caption
        self.subcaption = subcaption
        self.image = image
        self.summaryText = summaryText
        self.accessibilityLabel = accessibilityLabel
        self.answersSession = answersSession
    }

    public init(json: JSON) {
        session = json["session"]["id"].string
        url = json["url"].string
        let template = json["layout"]["template"].isNull ? json["layout"]["live"]["alternateLayout"] : json["layout"]["template"]
        caption = template["caption"].string
        subcaption = template["subcaption"].string
        image = template["image"]["url"].string.map { ImageSource(url: $0) } ?? template["image"]["upload"].string.map { ImageSource.upload($0) }
        summaryText = json["summaryText"].string
        accessibilityLabel = json["accessibilityLabel"].string
        answersSession = json["answersSession"].bool ?? false
        sender = json["senderParticipantIdentifier"].string.flatMap { ParticipantID($0) }
    }

    public var json: JSON {
        var template: [(String, JSON)] = []
        if let caption { template.append(("caption", .string(caption))) }
        if let subcaption { template.append(("subcaption", .string(subcaption))) }
        if let image { template.append(("image", image.json)) }
        var members: [(String, JSON)] = []
        if let session { members.append(("session", ["id": .string(session)])) }
        if let url { members.append(("url", .string(url))) }
        members.append(("layout", ["template": .object(template)]))
        if let summaryText { members.append(("summaryText", .string(summaryText))) }
        if let accessibilityLabel { members.append(("accessibilityLabel", .string(accessibilityLabel))) }
        if answersSession { members.append(("answersSession", .bool(true))) }
        return .object(members)
    }
}

/// What an answer asks Parlor to do, in order (docs/APPS-PROTOCOL.md §7).
public struct Effects {
    public private(set) var list: [JSON] = []
    /// Whether the app asked to close.
    public private(set) var dismisses = false

    /// Stages `message` in the person's compose field; they send it.
    public mutating func insert(_ message: AppMessage) { list.append(["effect": "insert", "message": message.json]) }
    /// Sends `message` at once (only right after the person used a control).
    public mutating func send(_ message: AppMessage) { list.append(["effect": "send", "message": message.json]) }
    /// Puts text in the compose field.
    public mutating func insertText(_ text: String) { list.append(["effect": "insertText", "text": .string(text)]) }
    /// Asks for the compact or expanded style.
    public mutating func requestStyle(_ style: PresentationStyle) { list.append(["effect": "requestStyle", "style": .string(style.rawValue)]) }
    /// Closes the app.
    public mutating func dismiss() {
        list.append(["effect": "dismiss"])
        dismisses = true
    }
}

/// The codes a refusal may carry (docs/APPS-PROTOCOL.md §9).
public enum ErrorCode: String {
    case actionRefused, invalidValue, malformedURLState, textExceedsMaxSize, urlExceedsMaxSize
    case sendWithoutRecentInteraction, sendWhileNotVisible, apiUnavailableInPresentationContext
    case sessionConflict, fileNotFound, unknown
    /// What `Host.fetch` fails with: a host the manifest does not allow, a request that failed.
    case hostNotAllowed, networkFailure
    /// What `Host.upload` fails with besides: not an image, or too large.
    case improperFileType, mediaExceedsMaxSize
}

/// Refuses a call: the person sees `message` in the app; for `validate`, the message is refused.
public struct AppError: Error {
    public var code: ErrorCode
    public var message: String
    /// Thrown by the hooks an app leaves to the SDK: Parlor then stops calling them.
    var isUnimplemented = false

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    static var unimplemented: AppError {
        var error = AppError(.unknown, "")
        error.isUnimplemented = true
        return error
    }
}
