import Foundation

/// The standard bubble: one media item on top, then up to four lines of caption text.
///
/// Like `MSMessageTemplateLayout`: `image` wins over `mediaFileURL`; captions are left-aligned,
/// trailing captions right-aligned on the same two lines. With no caption text at all the
/// caption bar is not drawn.
public struct TemplateLayout: Sendable, Hashable, Codable {
    public var image: ImageSource?
    /// An image, video or audio file; used only when `image` is nil.
    public var mediaFileURL: URL?
    public var imageTitle: String?
    public var imageSubtitle: String?
    public var caption: String?
    public var subcaption: String?
    public var trailingCaption: String?
    public var trailingSubcaption: String?

    public init(
        image: ImageSource? = nil, mediaFileURL: URL? = nil,
        imageTitle: String? = nil, imageSubtitle: String? = nil,
        caption: String? = nil, subcaption: String? = nil,
        trailingCaption: String? = nil, trailingSubcaption: String? = nil
    ) {
        self.image = image
        self.mediaFileURL = mediaFileURL
        self.imageTitle = imageTitle
        self.imageSubtitle = imageSubtitle
        self.caption = caption
        self.subcaption = subcaption
        self.trailingCaption = trailingCaption
        self.trailingSubcaption = trailingSubcaption
    }

    /// The media item shown: `image` if set, else `mediaFileURL`.
    public var media: ImageSource? {
        if let image { return image }
        return mediaFileURL.map(ImageSource.url)
    }

    /// Whether the caption bar is drawn (some caption text is present).
    public var hasCaptionBar: Bool {
        [caption, subcaption, trailingCaption, trailingSubcaption].contains { !($0 ?? "").isEmpty }
    }

    /// The text fields and their names, for validation and plain-text fallbacks.
    var texts: [(name: String, value: String?)] {
        [("imageTitle", imageTitle), ("imageSubtitle", imageSubtitle), ("caption", caption),
         ("subcaption", subcaption), ("trailingCaption", trailingCaption), ("trailingSubcaption", trailingSubcaption)]
    }

    /// Checks every text against `Limits.maxCaptionLength` and the media against its rules.
    public func validate() throws(MessagesError) {
        for (name, value) in texts {
            try checkLength(value, name: name, limit: Limits.maxCaptionLength)
        }
        try image?.validate()
        if let mediaFileURL { try ImageSource.url(mediaFileURL).validate() }
    }
}

/// A layout in which the app draws the bubble itself (transcript style), like `MSMessageLiveLayout`.
/// Viewers who cannot run the app see `alternateLayout`.
public struct LiveLayout: Sendable, Hashable, Codable {
    public var alternateLayout: TemplateLayout

    public init(alternateLayout: TemplateLayout) {
        self.alternateLayout = alternateLayout
    }
}

/// A message's layout: a template, or live with a template fallback.
public enum MessageLayout: Sendable, Hashable, Codable {
    case template(TemplateLayout)
    case live(LiveLayout)

    /// The template shown to a viewer that does not run the app.
    public var template: TemplateLayout {
        switch self {
        case .template(let layout): layout
        case .live(let live): live.alternateLayout
        }
    }

    private enum CodingKeys: String, CodingKey { case template, live }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let live = try container.decodeIfPresent(LiveLayout.self, forKey: .live) {
            self = .live(live)
        } else {
            self = .template(try container.decode(TemplateLayout.self, forKey: .template))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .template(let layout): try container.encode(layout, forKey: .template)
        case .live(let live): try container.encode(live, forKey: .live)
        }
    }
}

func checkLength(_ value: String?, name: String, limit: Int) throws(MessagesError) {
    guard let value, Limits.length(of: value) > limit else { return }
    throw MessagesError(.textExceedsMaxSize, "The \(name) is \(Limits.length(of: value)) characters; the limit is \(limit).")
}
