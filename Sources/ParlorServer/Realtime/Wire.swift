import Foundation
import ParlorHost
import ParlorInput
@_spi(Hosting) import ParlorKit
import ParlorStore

/// A stored account (`Wire.User` is its public form).
typealias Account = User

/// The JSON shapes clients see (the namespace and the frames clients send are in ParlorInput).
/// docs/PROTOCOL.md documents them.
extension Wire {
    public struct User: Codable, Sendable, Hashable {
        public var id: UserID
        public var username: String
        public var displayName: String
        /// `/blobs/<hash>`: the profile picture, for people who share a conversation with them;
        /// absent when they have none (clients show their initials).
        public var avatarURL: String?
        /// A line they wrote about themselves, where their details show it: to themselves and in a
        /// 1:1 with them; absent elsewhere (a search, a group's members), or when they wrote none.
        public var about: String?

        /// `user` as others see them; `withAbout` where their details show what they wrote.
        init(_ user: Account, withAbout: Bool = false) {
            id = user.id
            username = user.username
            displayName = user.displayName
            avatarURL = user.avatar.map { "/blobs/\($0)" }
            about = withAbout ? user.about : nil
        }
    }

    public struct Conversation: Codable, Sendable {
        public var id: ConversationID
        public var title: String?
        public var isGroup: Bool
        public var members: [User]
        /// A group's admins (ids of members); empty for a 1:1 conversation.
        public var admins: [UserID]
        /// `/blobs/<hash>`: a group's photo, which its members may fetch; absent when it has none.
        public var photoURL: String?
        public var lastSequence: Int64
        public var unreadCount: Int
        /// A one-line preview of the newest message.
        public var preview: String?
        /// When the newest message was sent; absent when there is none.
        public var lastActivityAt: Date?
        /// Whether the viewer muted it: their clients do not alert them of its messages.
        public var isMuted: Bool
        /// How many of the unread messages mention the viewer.
        public var unreadMentions: Int
        /// When the viewer pinned it (pinned ones go at the top of their list, oldest pin first);
        /// absent when not pinned.
        public var pinnedAt: Date?
        /// Whether the viewer archived it and no message came since (or it is muted): out of
        /// their list, under Archived.
        public var isArchived: Bool
        /// Whether the viewer marked it unread: shown unread until they open it.
        public var isMarkedUnread: Bool
        /// Whether the viewer deleted it for themselves and no message came since: out of their
        /// list, its history hidden from them (a new message brings it back with only what follows).
        public var isDeleted: Bool
        /// The last sequence of the history the viewer deleted for themselves; absent when they
        /// never did. A reply quoting a message up to there reads "Deleted message" for them.
        public var deletedThrough: Int64?
    }

    public struct StickerRef: Codable, Sendable, Hashable {
        public var id: String
        public var url: String
        public var description: String
    }

    /// A message's template with its image resolved to a URL.
    public struct Template: Codable, Sendable, Hashable {
        public var imageURL: String?
        public var mediaURL: String?
        public var imageTitle: String?
        public var imageSubtitle: String?
        public var caption: String?
        public var subcaption: String?
        public var trailingCaption: String?
        public var trailingSubcaption: String?
    }

    public struct AppMessage: Codable, Sendable {
        public var appID: AppID
        public var appName: String
        public var appIconURL: String?
        /// Whether the viewer has the app; when not, the bubble offers to get it.
        public var installed: Bool
        public var sessionID: SessionID?
        /// For a message that answers its session (`Message.answersSession`): whoever sent the
        /// session's first message. When that is someone other than the sender, the session's
        /// bubble is drawn in their name, under this message's summary line.
        public var startedBy: Starter?
        public var summaryText: String?
        /// The line the message leaves once a newer message of its session replaces it
        /// (`Message.summaryLine`: its `summaryText`, else "$<sender> sent <app>").
        public var summaryLine: String
        public var accessibilityLabel: String?
        public var shouldExpire: Bool
        public var layout: Template
        /// For live layouts, the app's view drawn in the bubble for this viewer.
        public var liveView: ViewNode?
        /// The message URL when it is a web page a viewer without the app can open.
        public var webURL: String?
        /// Display names for the `$<participant id>` tokens in the texts and views.
        public var names: [String: String]
        /// Why it failed to send (`Message.error`): only on a staged message whose Send was refused.
        public var error: ErrorBody? = nil
    }

    /// Whoever started a session, by id and by name as people read it now.
    public struct Starter: Codable, Sendable, Hashable {
        public var id: UserID
        public var name: String
    }

    public struct Message: Codable, Sendable {
        public var id: MessageID
        public var conversation: ConversationID
        public var sequence: Int64
        public var sender: UserID
        public var senderName: String
        public var sentAt: Date
        /// `text`, `sticker`, `app`, `attachment`, `event` (a line about the conversation, its
        /// `text` drawn for the viewer), or `unsent` (its content is gone).
        public var kind: String
        public var text: String?
        /// The card of a web page the text links to, when its sender kept one.
        public var linkPreview: LinkPreview?
        /// People the text mentions whom it does not alert (past their sender's allowance of
        /// alerts, or added by an edit): shown as mentions, but no notification and no unread
        /// mention for them. Absent when every mention alerts.
        public var quietMentions: [UserID]?
        public var sticker: StickerRef?
        /// For a sticker placed on another message: that message and where on it.
        public var placement: StickerPlacement?
        public var attachment: Attachment?
        public var app: AppMessage?
        /// Reactions, grouped by emoji in the order each was first given; absent when none.
        public var reactions: [Reaction]?
        /// The message it replies to, quoted.
        public var replyTo: ReplyQuote?
        /// When its text was last edited; absent when never.
        public var editedAt: Date?
    }

    /// A web page's card: its title, description, image (through the image proxy) and site name,
    /// as the server read them from the page's Open Graph or Twitter card tags.
    public struct LinkPreview: Codable, Sendable, Hashable {
        public var url: String
        public var title: String
        public var description: String?
        /// The page's image, an http(s) address: clients load it through the image proxy.
        public var imageURL: String?
        public var siteName: String?

        init(_ preview: StoredLinkPreview) {
            url = preview.url
            title = preview.title
            description = preview.description
            imageURL = preview.imageURL
            siteName = preview.siteName
        }
    }

    /// A photo or file: where members fetch it (`GET /blobs/{hash}`), its name, type and size.
    public struct Attachment: Codable, Sendable, Hashable {
        public var url: String
        public var name: String
        public var contentType: String
        public var size: Int64
        /// Shown as a photo; otherwise offered as a file to download.
        public var isImage: Bool
        /// Present for a voice message: its length (milliseconds) and waveform (levels 0–100).
        public var voice: VoiceNote?

        init(_ attachment: StoredAttachment) {
            url = "/blobs/\(attachment.hash)"
            name = attachment.name
            contentType = attachment.contentType
            size = attachment.size
            isImage = attachment.isImage
            voice = attachment.voice
        }
    }

    /// The message a reply quotes: enough to show it and jump to it.
    public struct ReplyQuote: Codable, Sendable, Hashable {
        public var id: MessageID
        public var sequence: Int64
        public var senderName: String
        /// One line of it: its text (cut at 100 characters), "Sticker", "<App> message" or "Unsent message".
        public var preview: String
    }

    /// How far one member has read a conversation (only for members who share read receipts).
    public struct ReadReceipt: Codable, Sendable, Hashable {
        public var userID: UserID
        /// The sequence number of the last message they read.
        public var sequence: Int64
        /// When they read up to it; absent for marks older than read receipts.
        public var readAt: Date?

        init(_ receipt: ReadReceiptRecord) {
            userID = receipt.user
            sequence = receipt.sequence
            readAt = receipt.readAt
        }
    }

    /// One emoji on a message and who put it there, in the order they did.
    public struct Reaction: Codable, Sendable, Hashable {
        public var emoji: String
        public var users: [UserID]

        /// `records` grouped by emoji, in the order each emoji was first given.
        static func grouped(_ records: [ReactionRecord]) -> [Reaction] {
            var reactions: [Reaction] = []
            for record in records {
                if let index = reactions.firstIndex(where: { $0.emoji == record.emoji }) {
                    reactions[index].users.append(record.user)
                } else {
                    reactions.append(Reaction(emoji: record.emoji, users: [record.user]))
                }
            }
            return reactions
        }
    }

    public struct Staged: Codable, Sendable {
        public var kind: String
        public var sticker: StickerRef?
        public var app: AppMessage?
    }

    public struct AppUpdate: Codable, Sendable {
        public var appID: AppID
        public var appName: String
        public var isActive: Bool
        public var presentationStyle: PresentationStyle
        public var modal: String?
        public var view: ViewNode
        public var error: ErrorBody?
        /// Display names for `$<participant id>` tokens in the view.
        public var names: [String: String]
        /// The compact tray's height the app asks for, in points (`AppManifest.compactHeight`).
        public var compactHeight: Int?
    }

    public struct ErrorBody: Codable, Sendable {
        public var code: String
        public var message: String
        /// For a limit (429): the seconds until the request may be made again.
        public var retryAfter: Int?

        public init(code: String, message: String, retryAfter: Int? = nil) {
            self.code = code
            self.message = message
            self.retryAfter = retryAfter
        }
    }
}

extension Wire.ServerFrame {
    /// The frame as a JSON text.
    func json() -> String {
        // Every field is a plain value; encoding cannot fail.
        Wire.jsonText(self) ?? #"{"type":"error"}"#
    }
}

extension Wire {
    /// A message as the `message` and `ack` frames carry it. A message that reads the same for
    /// everyone is encoded once (`encodedOnce`) and copied into its fan-out frame and its sender's
    /// acknowledgement, each frame still written by `ServerFrame`'s own encoder.
    public struct EncodedMessage: Codable, Sendable {
        private let encoded: EncodedJSON<Message>
        public var message: Message { encoded.value }

        /// A message encoded where its frame is.
        public init(_ message: Message) {
            encoded = EncodedJSON(message)
        }

        private init(encoded: EncodedJSON<Message>) {
            self.encoded = encoded
        }

        /// The message encoded now, for every frame that carries it.
        static func encodedOnce(_ message: Message) -> EncodedMessage? {
            (try? EncodedJSON(encodingNow: message, by: .wire)).map(EncodedMessage.init(encoded:))
        }

        public func encode(to encoder: any Encoder) throws {
            try encoded.encode(to: encoder)
        }

        public init(from decoder: any Decoder) throws {
            encoded = try EncodedJSON(from: decoder)
        }
    }

    /// A value as the wire's JSON (ISO 8601 dates, slashes as they are).
    static func jsonText(_ value: some Encodable) -> String? {
        try? CompactJSONEncoder.wire.text(value)
    }
}
