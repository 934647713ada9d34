import Foundation
import ParlorKit

/// A photo or file sent in a conversation: an uploaded blob, by its hash, with the name it was
/// sent under. Members of the conversation may fetch the blob while the message is there.
public struct StoredAttachment: Sendable, Hashable, Codable {
    /// Lowercase hex SHA-256 of the bytes (the blob's address).
    public var hash: String
    public var name: String
    /// An image type for the images the server recognises, an audio type for the recordings it
    /// recognises, else `application/octet-stream`.
    public var contentType: String
    public var size: Int64
    /// Present when it was sent as a voice message: shown as one, with its length and waveform.
    public var voice: VoiceNote?

    public init(hash: String, name: String, contentType: String, size: Int64, voice: VoiceNote? = nil) {
        self.hash = hash
        self.name = name
        self.contentType = contentType
        self.size = size
        self.voice = voice
    }

    /// Whether it is shown as a photo (else offered as a file to download).
    public var isImage: Bool { contentType.hasPrefix("image/") }
}

/// What makes a recording a voice message, as the recorder measured it: how long it plays and its
/// loudness over time, drawn as its waveform before anyone plays it.
public struct VoiceNote: Sendable, Hashable, Codable {
    /// Milliseconds, from 1 to `maxDuration`.
    public var duration: Int
    /// Loudness from 0 to `maxLevel` at evenly spaced moments: 1 to `maxWaveformLength` of them.
    public var waveform: [Int]

    public init(duration: Int, waveform: [Int]) {
        self.duration = duration
        self.waveform = waveform
    }

    /// The longest voice message, in milliseconds (15 minutes).
    public static let maxDuration = 15 * 60 * 1000
    /// The most moments a waveform holds.
    public static let maxWaveformLength = 100
    /// The loudest moment.
    public static let maxLevel = 100

    /// Why this note cannot be sent, in a sentence, or nil when it can.
    public var problem: String? {
        guard (1...Self.maxDuration).contains(duration) else {
            return "A voice message lasts at most \(Self.maxDuration / 60_000) minutes; 'duration' is its length in milliseconds."
        }
        guard (1...Self.maxWaveformLength).contains(waveform.count) else {
            return "A voice message's waveform has from 1 to \(Self.maxWaveformLength) levels."
        }
        guard waveform.allSatisfy({ (0...Self.maxLevel).contains($0) }) else {
            return "Each level of a voice message's waveform is from 0 to \(Self.maxLevel)."
        }
        return nil
    }
}

/// Where a sticker was placed on another message, as Messages lets people peel a sticker onto a
/// bubble: the message, and the sticker's centre as fractions of that bubble's width and height.
public struct StickerPlacement: Sendable, Hashable, Codable {
    public var message: MessageID
    /// 0 is the bubble's left edge, 1 its right edge.
    public var x: Double
    /// 0 is the bubble's top edge, 1 its bottom edge.
    public var y: Double

    public init(message: MessageID, x: Double, y: Double) {
        self.message = message
        self.x = x
        self.y = y
    }

    /// Whether the centre lies on the bubble (both fractions finite, from 0 to 1).
    public var isOnTheBubble: Bool { (0...1).contains(x) && (0...1).contains(y) }
}

/// The card a text shows for a web page it links to, as the server read it from the page's
/// Open Graph or Twitter card tags (or its title): kept with the message, so everyone sees what
/// the sender saw, and the page is not fetched again.
public struct StoredLinkPreview: Sendable, Hashable, Codable {
    /// The link in the text the card is for.
    public var url: String
    public var title: String
    public var description: String?
    /// The page's image (an absolute http or https address), shown through the image proxy.
    public var imageURL: String?
    public var siteName: String?

    public init(url: String, title: String, description: String? = nil, imageURL: String? = nil, siteName: String? = nil) {
        self.url = url
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.siteName = siteName
    }
}

/// What a message holds.
public enum StoredContent: Sendable, Hashable, Codable {
    /// A text, with the card of a page it links to when its sender kept one. `quiet`: people it
    /// mentions whom the mention does not alert (past `mentionAlertsPerMinute` from its sender,
    /// or added by an edit): shown as mentions, not counted, no notification through a mute.
    case text(String, preview: StoredLinkPreview? = nil, quiet: [UserID] = [])
    /// A sticker sent on its own (`placement` nil) or placed on another message.
    case sticker(Sticker, placement: StickerPlacement? = nil)
    case app(Message)
    case attachment(StoredAttachment)
    /// A line about the conversation itself (`ConversationEvent`): who added whom, a new name.
    case event(ConversationEvent)

    private enum CodingKeys: String, CodingKey { case kind, text, preview, quiet, sticker, placement, message, attachment, event }

    /// The uploads the message shows, which its conversation's members may then fetch: an
    /// attachment's file, the uploaded image of an app message's template, or of a sticker an app made.
    public var blobHashes: [String] {
        switch self {
        case .attachment(let attachment): [attachment.hash]
        case .app(let message):
            if case .upload(let id)? = message.template?.image { [id] } else { [] }
        case .sticker(let sticker, _):
            if case .upload(let id) = sticker.image { [id] } else { [] }
        case .text, .event: []
        }
    }

    /// This text with `newText` instead: its link preview stays while its link is still in the
    /// text; a mention the text had stays quiet if it was, and those in `quieting` (mentions the
    /// edit adds past their sender's allowance of alerts) are quiet too.
    public func edited(to newText: String, quieting: [UserID] = []) -> StoredContent {
        guard case .text(_, let preview, let quiet) = self else { return .text(newText) }
        let silent = Set(quiet + quieting)
        return .text(
            newText, preview: preview.flatMap { newText.contains($0.url) ? $0 : nil },
            quiet: MentionTokens.users(in: newText).filter(silent.contains))
    }

    /// Where the sticker was placed, when this is a sticker placed on another message.
    public var placement: StickerPlacement? {
        if case .sticker(_, let placement) = self { return placement }
        return nil
    }

    public var kind: String {
        switch self {
        case .text: "text"
        case .sticker: "sticker"
        case .app: "app"
        case .attachment: "attachment"
        case .event: "event"
        }
    }

    /// Whether this is a line about the conversation itself: people read it, and nobody replies to
    /// it, reacts to it, places a sticker on it or unsends it.
    public var isEvent: Bool {
        if case .event = self { return true }
        return false
    }

    public var appMessage: Message? {
        if case .app(let message) = self { return message }
        return nil
    }

    /// The one key of an event's object: its kind.
    private struct EventKind: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "text":
            self = .text(
                try container.decode(String.self, forKey: .text),
                preview: try container.decodeIfPresent(StoredLinkPreview.self, forKey: .preview),
                quiet: try container.decodeIfPresent([UserID].self, forKey: .quiet) ?? [])
        case "sticker":
            self = .sticker(
                try container.decode(Sticker.self, forKey: .sticker),
                placement: try container.decodeIfPresent(StickerPlacement.self, forKey: .placement))
        case "app": self = .app(try container.decode(Message.self, forKey: .message))
        case "attachment": self = .attachment(try container.decode(StoredAttachment.self, forKey: .attachment))
        case "event":
            // A newer node's kind of line (a rolling upgrade) is read as one this node can show; a
            // known kind that cannot be read is an error, as any damaged message is.
            let names = try container.nestedContainer(keyedBy: EventKind.self, forKey: .event).allKeys.map(\.stringValue)
            if names.count == 1, !ConversationEvent.kinds.contains(names[0]) {
                self = .event(.unknown)
            } else {
                self = .event(try container.decode(ConversationEvent.self, forKey: .event))
            }
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "Unknown message kind '\(other)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .text(let text, let preview, let quiet):
            try container.encode(text, forKey: .text)
            try container.encodeIfPresent(preview, forKey: .preview)
            if !quiet.isEmpty { try container.encode(quiet, forKey: .quiet) }
        case .sticker(let sticker, let placement):
            try container.encode(sticker, forKey: .sticker)
            try container.encodeIfPresent(placement, forKey: .placement)
        case .app(let message): try container.encode(message, forKey: .message)
        case .attachment(let attachment): try container.encode(attachment, forKey: .attachment)
        case .event(let event): try container.encode(event, forKey: .event)
        }
    }
}

/// A committed message.
public struct StoredMessage: Sendable, Hashable, Codable, TranscriptItem {
    /// Chosen by the sending client; unique in its conversation.
    public var id: MessageID
    public var conversationID: ConversationID
    /// Gapless, from 1, per conversation.
    public var sequence: Int64
    public var sender: UserID
    public var content: StoredContent
    public var sentAt: Date
    /// The message this one replies to, in the same conversation.
    public var replyTo: MessageID?
    /// When its text was last edited (earlier texts are its versions).
    public var editedAt: Date?
    /// When its sender unsent it: its content is gone.
    public var unsentAt: Date?

    /// A message as a store committed or read it.
    public init(
        id: MessageID, conversationID: ConversationID, sequence: Int64, sender: UserID, content: StoredContent, sentAt: Date,
        replyTo: MessageID? = nil, editedAt: Date? = nil, unsentAt: Date? = nil
    ) {
        self.id = id
        self.conversationID = conversationID
        self.sequence = sequence
        self.sender = sender
        self.content = content
        self.sentAt = sentAt
        self.replyTo = replyTo
        self.editedAt = editedAt
        self.unsentAt = unsentAt
    }

    public var transcriptSessionID: SessionID? { content.appMessage?.session?.id }
    public var transcriptSender: UserID { sender }
    public var answersSession: Bool { content.appMessage?.answersSession ?? false }
}

/// A message to append.
public struct NewMessage: Sendable {
    public var id: MessageID
    public var conversationID: ConversationID
    public var sender: UserID
    public var content: StoredContent
    /// For a message in a session: the head it replaces (nil when it starts the session).
    public var replacing: MessageID?
    /// The message it replies to (the caller has checked it is in the conversation).
    public var replyTo: MessageID?

    public init(
        id: MessageID, conversationID: ConversationID, sender: UserID, content: StoredContent, replacing: MessageID? = nil,
        replyTo: MessageID? = nil
    ) {
        self.id = id
        self.conversationID = conversationID
        self.sender = sender
        self.content = content
        self.replacing = replacing
        self.replyTo = replyTo
    }
}

/// A text a message had before an edit replaced it (also what `GET …/versions` answers).
public struct MessageVersion: Sendable, Hashable, Codable {
    public var text: String
    /// When the edit replaced it.
    public var replacedAt: Date

    public init(text: String, replacedAt: Date) {
        self.text = text
        self.replacedAt = replacedAt
    }
}
