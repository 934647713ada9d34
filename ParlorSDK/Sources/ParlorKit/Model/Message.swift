import Foundation

/// A session: the messages that form one transcript entry. Like `MSSession`, a value an app
/// creates once (`Session()`) and reuses for every update.
public struct Session: Sendable, Hashable, Codable {
    /// Identifies the session; every message of the session carries it.
    public let id: SessionID
    /// A session: a new one by default, or an existing one by id.
    /// - Parameter id: the session's id; a new random id by default.
    public init(id: SessionID = SessionID()) { self.id = id }
}

/// An app's message, like `MSMessage`: its data lives in `url`, its look in `layout`.
///
/// ```swift
/// var message = Message(session: conversation.selectedMessage?.session ?? Session())
/// message.url = try URLState.url(base: "https://example.org/rsvp", items: ["title": title])
/// message.layout = .template(TemplateLayout(caption: title))
/// try await conversation.insert(message)
/// ```
public struct Message: Sendable, Hashable, Codable, Identifiable {
    /// Chosen when the message is created; a retried send with the same id is not duplicated.
    public var id: MessageID
    /// The app's data: `http`, `https` or `data` scheme, at most 5,000 characters.
    public var url: URL?
    /// How the bubble looks: a template, or live with a template fallback.
    public var layout: MessageLayout?
    /// Messages sharing a session form one transcript entry.
    public var session: Session?
    /// The line left in the transcript when a later message of the session replaces this one.
    public var summaryText: String?
    /// Read by screen readers in place of the bubble's text, and used as its plain text; at most
    /// 500 characters.
    public var accessibilityLabel: String?
    /// Deleted shortly after the recipient reads it, unless the recipient keeps it.
    public var shouldExpire: Bool
    /// Whether the message answers its session rather than taking a turn in it: a like, a vote, an
    /// item added to a list someone shared. The session's bubble then stays in the name of whoever
    /// started the session, and this message leaves its summary line where it was sent ("Bob
    /// liked Cat icon"). False, the default, is Messages' own rule, right for a game's moves: the
    /// bubble becomes the newest sender's.
    public var answersSession: Bool
    /// Set by the host: who sent it, in the viewing app's participant ids.
    public var senderParticipantIdentifier: ParticipantID?
    /// Set by the host: true until the message is sent.
    public var isPending: Bool
    /// Set by the host: the app that made the message.
    public var appID: AppID?
    /// Set by the host: why the message failed to send (`MSMessage.error`), on a person's staged
    /// message whose Send was refused (see `SendFailure`); nil on every message sent.
    public var error: SendFailure?

    /// Creates a message. Its sender, `isPending` and `appID` are set for it when it is inserted
    /// or sent.
    /// - Parameters:
    ///   - id: the message's id; a new random id by default.
    ///   - session: the session it belongs to, if any.
    ///   - url: the app's data.
    ///   - layout: how the bubble looks.
    ///   - summaryText: the line left when a later message of the session replaces it.
    ///   - accessibilityLabel: what screen readers read for the bubble.
    ///   - shouldExpire: whether it is deleted shortly after it is read.
    ///   - answersSession: whether it answers its session (a like, a vote), so that the session's
    ///     bubble stays in the name of whoever started it.
    public init(
        id: MessageID = MessageID(), session: Session? = nil, url: URL? = nil, layout: MessageLayout? = nil,
        summaryText: String? = nil, accessibilityLabel: String? = nil, shouldExpire: Bool = false, answersSession: Bool = false
    ) {
        self.id = id
        self.session = session
        self.url = url
        self.layout = layout
        self.summaryText = summaryText
        self.accessibilityLabel = accessibilityLabel
        self.shouldExpire = shouldExpire
        self.answersSession = answersSession
        self.senderParticipantIdentifier = nil
        self.isPending = true
        self.appID = nil
        self.error = nil
    }

    /// Decodes a message, leniently where an app outside the host writes one: a missing `id` is a
    /// new id, missing flags are false (`isPending` true), and the fields the host sets anyway
    /// (`senderParticipantIdentifier`, `appID`) may be left out. Its URL is read exactly as
    /// written (`URL(exactly:)`): never rewritten, refused when it is not one.
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(MessageID.self, forKey: .id) ?? MessageID()
        url = try container.decodeExactURLIfPresent(forKey: .url)
        layout = try container.decodeIfPresent(MessageLayout.self, forKey: .layout)
        session = try container.decodeIfPresent(Session.self, forKey: .session)
        summaryText = try container.decodeIfPresent(String.self, forKey: .summaryText)
        accessibilityLabel = try container.decodeIfPresent(String.self, forKey: .accessibilityLabel)
        shouldExpire = try container.decodeIfPresent(Bool.self, forKey: .shouldExpire) ?? false
        answersSession = try container.decodeIfPresent(Bool.self, forKey: .answersSession) ?? false
        senderParticipantIdentifier = try container.decodeIfPresent(ParticipantID.self, forKey: .senderParticipantIdentifier)
        isPending = try container.decodeIfPresent(Bool.self, forKey: .isPending) ?? true
        appID = try container.decodeIfPresent(AppID.self, forKey: .appID)
        error = try container.decodeIfPresent(SendFailure.self, forKey: .error)
    }

    /// The line an older message of a session leaves in the transcript: its `summaryText`, else
    /// "<sender> sent <app>" (Messages' default description of a message), its sender as their
    /// `$…` token (`ParticipantID.mention`), which hosts show as the person's name. Written once:
    /// the server sends it with every app message, and the simulator's transcript reads it.
    /// - Parameter appName: the app's name.
    public func summaryLine(appName: String) -> String {
        if let summaryText, !summaryText.isEmpty { return summaryText }
        return "\(senderParticipantIdentifier?.mention ?? "Someone") sent \(appName)"
    }

    /// Whether the message shows what `expected` shows: the same URL, layout, summary text,
    /// accessibility label, and the same answer to its session (`answersSession`). An app's
    /// `validate` compares a message with the one it would have written itself for the same data,
    /// so that nothing in a bubble says other than what its URL carries.
    /// - Parameter expected: the message the app would send.
    public func showsTheSame(as expected: Message) -> Bool {
        url == expected.url && layout == expected.layout && summaryText == expected.summaryText
            && accessibilityLabel == expected.accessibilityLabel && answersSession == expected.answersSession
    }

    /// The template layout, whether the layout is a template or live.
    public var template: TemplateLayout? { layout?.template }

    /// A plain-text description for viewers and notifications that cannot draw the bubble.
    public var plainText: String {
        if let accessibilityLabel, !accessibilityLabel.isEmpty { return accessibilityLabel }
        let parts = (template?.texts ?? []).compactMap(\.value).filter { !$0.isEmpty }
        if !parts.isEmpty { return parts.joined(separator: " · ") }
        return summaryText ?? ""
    }

    /// Checks every limit of the reference: URL scheme and length, text lengths, media.
    /// - Throws: `MessagesError` with `.improperFileURL`, `.urlExceedsMaxSize`, `.textExceedsMaxSize`
    ///   or `.mediaExceedsMaxSize`.
    public func validate() throws(MessagesError) {
        if let url { try Message.validateURL(url) }
        try layout?.template.validate()
        try checkLength(summaryText, name: "summary text", limit: Limits.maxCaptionLength)
        try checkLength(accessibilityLabel, name: "accessibility label", limit: Limits.maxAccessibilityLabelLength)
    }

    /// Checks a message URL: scheme http, https or data; at most `Limits.maxURLLength` characters.
    /// - Parameter url: the URL to check.
    /// - Throws: `.improperFileURL` for another scheme or none, `.urlExceedsMaxSize` when too long.
    public static func validateURL(_ url: URL) throws(MessagesError) {
        let scheme = url.scheme?.lowercased() ?? ""
        guard Limits.urlSchemes.contains(scheme) else {
            throw MessagesError(
                .improperFileURL,
                scheme.isEmpty
                    ? "A message URL is written whole, with its scheme: not '\(url.absoluteString.prefix(40))' but https://your-app.example/\(url.absoluteString.prefix(40)) (Messages resolves a bare query against the app; Parlor keeps the URL as sent, so it names its own address)."
                    : "A message URL must use http, https or data, not '\(scheme)'.")
        }
        let length = url.absoluteString.count
        guard length <= Limits.maxURLLength else {
            throw MessagesError(
                .urlExceedsMaxSize,
                "The message URL is \(length) characters; the limit is \(Limits.maxURLLength). Carry less state in it.")
        }
    }
}
