import Foundation
import ParlorInput
import ParlorKit
import ParlorStore

/// The JSON bodies of the HTTP API (docs/openapi.yaml) that are not also WebSocket shapes.
extension Wire {
    /// Sign-up and sign-in's answer.
    public struct Session: Codable, Sendable {
        public var user: User
        /// For API clients: send it as `Authorization: Bearer <token>`. Browsers use the cookie.
        public var token: String
    }

    /// `GET /api/auth/notice`: what the sign-in page says to everyone, when the operator set it.
    public struct AuthNotice: Codable, Sendable {
        public var notice: String?
    }

    /// `GET /api/search`: what a search found, best match first.
    public struct SearchResults: Codable, Sendable {
        public var query: String
        public var results: [SearchResult]
    }

    /// One message a search found, in the conversation it is in.
    public struct SearchResult: Codable, Sendable {
        public var conversation: ConversationID
        public var message: Message
        /// Its text (or a long text's part around the first word found), in pieces: the words
        /// found are the pieces with `match`.
        public var excerpt: [ExcerptPiece]
    }

    public struct ExcerptPiece: Codable, Sendable, Hashable {
        public var text: String
        public var match: Bool
    }

    /// `GET /api/me`, and what `PATCH /api/me` answers.
    public struct Me: Codable, Sendable {
        public var user: User
        /// Whether others see how far this user has read (their read receipts).
        public var sharesReadReceipts: Bool
    }

    /// `GET /api/rules`: the limits and windows a client follows, from the server's configuration,
    /// so that an operator who changes one changes it for the browser too.
    public struct Rules: Codable, Sendable, Equatable {
        /// How long after sending a text its sender may edit it, in seconds; and how many times.
        public var editWindowSeconds: Int
        public var maxEdits: Int
        /// How long after sending a message its sender may unsend it, in seconds.
        public var unsendWindowSeconds: Int
        /// The largest upload, in bytes.
        public var maxUploadBytes: Int
        /// The largest message a client sends on the WebSocket, in bytes of UTF-8 JSON: a larger
        /// one closes the connection (1009), so a client refuses it before sending.
        public var maxFrameBytes: Int
        /// The longest text message, in characters as people count them.
        public var maxTextLength: Int
        public var usernameLength: ClosedRangeBounds
        public var maxDisplayNameLength: Int
        /// What a person writes about themselves, in characters.
        public var maxAboutLength: Int
        public var maxTitleLength: Int
        public var minPasswordLength: Int
        /// The longest search, in characters.
        public var maxSearchLength: Int
        /// The most messages one history page holds.
        public var maxPageSize: Int
        /// How often a typing notice is relayed, in seconds: clients send one about as often.
        public var typingIntervalSeconds: Int
        /// The most conversations one message is forwarded (or one share sent) to at once.
        public var maxForwardTargets: Int
        /// A voice message's bounds (`VoiceNote`).
        public var voice: VoiceBounds

        /// The longest voice message, in seconds; the most levels its waveform holds, and the loudest.
        public struct VoiceBounds: Codable, Sendable, Equatable {
            public var maxSeconds: Int
            public var maxLevels: Int
            public var maxLevel: Int
        }

        /// A closed range as JSON: `{"min": 3, "max": 32}`.
        public struct ClosedRangeBounds: Codable, Sendable, Equatable {
            public var min: Int
            public var max: Int
        }
    }

    /// `POST /api/me/password`: the current password (asked again, as at sign-in) and the new one.
    public struct PasswordChange: Codable, Sendable {
        public var currentPassword: String
        public var newPassword: String

        public init(currentPassword: String, newPassword: String) {
            self.currentPassword = currentPassword
            self.newPassword = newPassword
        }
    }

    /// How many sign-ins a password change or "sign out everywhere" ended.
    public struct SessionsEnded: Codable, Sendable {
        public var ended: Int
    }

    /// `PATCH /api/me`: the settings to change; a setting left out stays as it is, and `null` is
    /// not a value.
    public struct MeChange: Codable, Sendable {
        public var sharesReadReceipts: Bool?
        /// Absent: unchanged; `null`: no profile picture; a hash: that upload of the person's.
        public var avatar: String??
        /// Absent: unchanged; else the name the person shows to others.
        public var displayName: String?
        /// Absent: unchanged; `null` or blank: none; else a line about themselves.
        public var about: String??

        private enum CodingKeys: String, CodingKey { case sharesReadReceipts, avatar, displayName, about }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.sharesReadReceipts) {
                sharesReadReceipts = try container.decode(Bool.self, forKey: .sharesReadReceipts)
            }
            if container.contains(.avatar) {
                avatar = .some(try container.decodeNil(forKey: .avatar) ? nil : try container.decode(String.self, forKey: .avatar))
            }
            displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
            if container.contains(.about) {
                about = .some(try container.decodeNil(forKey: .about) ? nil : try container.decode(String.self, forKey: .about))
            }
        }
    }

    /// `GET /api/conversations/{id}/staged`: `staged` is absent when the compose field is empty.
    public struct StagedReply: Codable, Sendable {
        public var staged: Staged?
    }

    /// An app as the App Store and the drawer list it.
    public struct AppInfo: Codable, Sendable {
        public var id: AppID
        public var name: String
        public var summary: String
        public var iconURL: String?
        public var hasHomeSurface: Bool
        /// What the app may do, in plain words (`AppManifest.permissions`), shown before it is added.
        public var permissions: [String]
        public var installed: Bool
        /// Whether the app runs outside the server (added by its operator with `parlor apps add`).
        public var isOutside: Bool
        /// Who made it, as its manifest says; absent when it does not say.
        public var publisher: String?
    }

    /// A sticker pack as the drawer lists it.
    public struct PackInfo: Codable, Sendable {
        public var id: String
        /// The pack's drawer item: `sticker:<id>`.
        public var drawerID: String
        public var name: String
        public var author: String?
        public var gridSize: StickerGridSize
        public var stickers: [StickerRef]
        public var installed: Bool
    }

    /// `GET /api/apps`: every app and pack, and the user's drawer.
    public struct Directory: Codable, Sendable {
        public var apps: [AppInfo]
        public var packs: [PackInfo]
        /// The user's drawer, in order: app ids and `sticker:<pack>` ids.
        public var drawer: [String]
    }

    /// `PUT /api/drawer`'s body.
    public struct DrawerOrder: Codable, Sendable {
        public var items: [String]
    }

    /// An uploaded file: its content hash and where it is served.
    public struct Blob: Codable, Sendable {
        public var hash: String
        public var url: String
        /// An image type, an audio type for a recording, or `application/octet-stream` for another file.
        public var contentType: String
        public var size: Int64
    }

    /// Every HTTP error's body: `{"error": {"code": ..., "message": ..., "details": ...}}`.
    public struct ErrorReply: Codable, Sendable {
        public struct Inner: Codable, Sendable {
            public var code: String
            public var message: String
            /// Per-field explanations, when there are any.
            public var details: [String: String]?
        }

        public var error: Inner
    }

    /// An app registered to dial in, as `GET /api/admin/apps` lists it.
    public struct RegisteredAppInfo: Codable, Sendable {
        public var id: AppID
        public var name: String
        public var summary: String
        public var addedAt: Date
        /// How many copies of it are connected to this node.
        public var connections: Int
        /// The SHA-256 of its WebAssembly module, when Parlor runs it itself (docs/APPS-WASM.md).
        public var moduleHash: String?

        init(_ app: RegisteredApp, connections: Int) {
            id = app.manifest.id
            name = app.manifest.name
            summary = app.manifest.summary
            addedAt = app.addedAt
            self.connections = connections
            moduleHash = app.moduleHash
        }
    }

    /// A new app credential, shown once.
    public struct AppCredential: Codable, Sendable {
        public var app: AppID
        public var credential: String
    }
}

extension Wire.Rules {
    /// The rules a server with `configuration` enforces, each from the one place it is defined.
    init(_ configuration: ServerConfiguration) {
        self.init(
            editWindowSeconds: Int(configuration.editWindow.components.seconds), maxEdits: configuration.maxEdits,
            unsendWindowSeconds: Int(configuration.unsendWindow.components.seconds), maxUploadBytes: configuration.maxBlobBytes,
            maxFrameBytes: configuration.maxClientMessageBytes,
            maxTextLength: Limits.maxTextLength,
            usernameLength: .init(min: Accounts.usernameLength.lowerBound, max: Accounts.usernameLength.upperBound),
            maxDisplayNameLength: Accounts.maxDisplayNameLength, maxAboutLength: Accounts.maxAboutLength, maxTitleLength: Conversations.maxTitleLength,
            minPasswordLength: Accounts.minPasswordLength, maxSearchLength: SearchTerms.maxQueryLength,
            maxPageSize: ConversationRoutes.maxPage, typingIntervalSeconds: max(1, Int(configuration.typingInterval.components.seconds)),
            maxForwardTargets: Messaging.maxForwardTargets,
            voice: .init(maxSeconds: VoiceNote.maxDuration / 1000, maxLevels: VoiceNote.maxWaveformLength, maxLevel: VoiceNote.maxLevel))
    }
}
