import Foundation

/// The standard bubble: one media item on top, then up to four lines of caption text.
///
/// Like `MSMessageTemplateLayout`: `image` wins over `mediaFileURL`; captions are left-aligned,
/// trailing captions right-aligned on the same two lines. With no caption text at all the
/// caption bar is not drawn.
public struct TemplateLayout: Sendable, Hashable, Codable {
    /// The image on top of the bubble; shown instead of `mediaFileURL` when both are set.
    public var image: ImageSource?
    /// An image, video or audio file; used only when `image` is nil.
    public var mediaFileURL: URL?
    /// A title shown on the media item.
    public var imageTitle: String?
    /// A subtitle shown on the media item, under `imageTitle`.
    public var imageSubtitle: String?
    /// The first line of the caption bar, left-aligned.
    public var caption: String?
    /// The second line of the caption bar, left-aligned.
    public var subcaption: String?
    /// Right-aligned text on the caption's line.
    public var trailingCaption: String?
    /// Right-aligned text on the subcaption's line.
    public var trailingSubcaption: String?

    /// Creates a template layout; every part is optional. Each text is at most
    /// `Limits.maxCaptionLength` characters.
    /// - Parameters:
    ///   - image: the image on top.
    ///   - mediaFileURL: an image, video or audio file, used when `image` is nil.
    ///   - imageTitle: a title over the media item.
    ///   - imageSubtitle: a subtitle over the media item.
    ///   - caption: the first caption line.
    ///   - subcaption: the second caption line.
    ///   - trailingCaption: right-aligned text on the first line.
    ///   - trailingSubcaption: right-aligned text on the second line.
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

extension TemplateLayout {
    /// Decodes a template; its media file's URL is read exactly as written (`URL(exactly:)`).
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            image: try container.decodeIfPresent(ImageSource.self, forKey: .image),
            mediaFileURL: try container.decodeExactURLIfPresent(forKey: .mediaFileURL),
            imageTitle: try container.decodeIfPresent(String.self, forKey: .imageTitle),
            imageSubtitle: try container.decodeIfPresent(String.self, forKey: .imageSubtitle),
            caption: try container.decodeIfPresent(String.self, forKey: .caption),
            subcaption: try container.decodeIfPresent(String.self, forKey: .subcaption),
            trailingCaption: try container.decodeIfPresent(String.self, forKey: .trailingCaption),
            trailingSubcaption: try container.decodeIfPresent(String.self, forKey: .trailingSubcaption))
    }
}

/// A layout in which the app draws the bubble itself (transcript style), like `MSMessageLiveLayout`.
/// Viewers who cannot run the app see `alternateLayout`.
public struct LiveLayout: Sendable, Hashable, Codable {
    /// The template shown to viewers who cannot run the app.
    public var alternateLayout: TemplateLayout

    /// A live layout with its fallback.
    /// - Parameter alternateLayout: the template shown to viewers who cannot run the app.
    public init(alternateLayout: TemplateLayout) {
        self.alternateLayout = alternateLayout
    }
}

/// A message's layout: a template, or live with a template fallback.
public enum MessageLayout: Sendable, Hashable, Codable {
    /// A standard bubble.
    case template(TemplateLayout)
    /// A bubble the app draws itself, with a template fallback.
    case live(LiveLayout)

    /// The template shown to a viewer that does not run the app.
    public var template: TemplateLayout {
        switch self {
        case .template(let layout): layout
        case .live(let live): live.alternateLayout
        }
    }

    private enum CodingKeys: String, CodingKey { case template, live }

    /// Decodes a layout from `{"template": …}` or `{"live": …}`.
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let live = try container.decodeIfPresent(LiveLayout.self, forKey: .live) {
            self = .live(live)
        } else {
            self = .template(try container.decode(TemplateLayout.self, forKey: .template))
        }
    }

    /// Encodes the layout as `{"template": …}` or `{"live": …}`.
    /// - Parameter encoder: the encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .template(let layout): try container.encode(layout, forKey: .template)
        case .live(let live): try container.encode(live, forKey: .live)
        }
    }
}

/// Checks an app's text against `limit`, counted as people read it (`Limits.readLength(of:)`:
/// each participant's `$…` token is one character, since it shows as a name).
func checkLength(_ value: String?, name: String, limit: Int) throws(MessagesError) {
    guard let value else { return }
    let length = Limits.readLength(of: value)
    guard length > limit else { return }
    throw MessagesError(.textExceedsMaxSize, "The \(name) is \(length) characters (a participant's token counting as one); the limit is \(limit).")
}
