import Foundation

/// The limits of the Messages model. Each is enforced with a `MessagesError` whose code says which.
///
/// Text lengths count characters as a person does (`length(of:)`); a character stuffed with
/// combining marks counts one per 8 Unicode scalars, so text that shows one character cannot
/// carry megabytes past a limit.
public enum Limits {
    /// A message URL is at most 5,000 characters (Apple's limit; `urlExceedsMaxSize`).
    public static let maxURLLength = 5_000
    /// The schemes a message URL may use (`improperFileURL` otherwise).
    public static let urlSchemes: Set<String> = ["http", "https", "data"]
    /// A sticker's description is at most 150 characters (`stickerFileImproperFileAttributes`).
    public static let maxStickerDescriptionLength = 150
    /// A sticker file is at most 500 KB (`stickerFileImproperFileSize`).
    public static let maxStickerFileSize = 500 * 1024
    /// Sticker images are 300 to 618 pixels on each side (`stickerFileImproperFileAttributes`).
    public static let stickerPixelRange = 300...618
    /// Captions, titles and summary text: at most 500 characters each (`textExceedsMaxSize`).
    public static let maxCaptionLength = 500
    /// An accessibility label: at most 500 characters (`textExceedsMaxSize`).
    public static let maxAccessibilityLabelLength = 500
    /// A plain text message: at most 10,000 characters (`textExceedsMaxSize`).
    public static let maxTextLength = 10_000
    /// An image carried inline as a `data:` URL in a layout: at most 256 KiB (`mediaExceedsMaxSize`).
    public static let maxInlineImageLength = 256 * 1024

    /// How long `text` is against a text limit: its characters as a person counts them (an emoji
    /// with a skin tone or a family emoji is one), except that text stuffed with combining marks
    /// counts one per 8 Unicode scalars, so a single "character" cannot carry megabytes.
    @_spi(Hosting) public static func length(of text: String) -> Int {
        max(text.count, (text.unicodeScalars.count + scalarsPerCharacter - 1) / scalarsPerCharacter)
    }

    /// An app text's length toward its limit (captions, summary text, accessibility labels):
    /// as `length(of:)`, with each participant's `$…` token (`ParticipantID.mention`, 37
    /// characters) counted as one character, for it is shown as that person's name (at most 64
    /// characters) and an app cannot know how long that is.
    public static func readLength(of text: String) -> Int {
        let opening = ParticipantID.mentionOpening
        guard text.contains(opening) else { return length(of: text) }
        var collapsed = ""
        collapsed.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let found = rest.range(of: opening) {
            collapsed += rest[..<found.lowerBound]
            let candidate = rest[found.upperBound...].prefix(36)
            if candidate.count == 36, candidate.uppercased() == candidate, UUID(uuidString: String(candidate)) != nil {
                collapsed += "@"
                rest = rest[candidate.endIndex...]
            } else {
                collapsed += opening
                rest = rest[found.upperBound...]
            }
        }
        collapsed += rest
        return length(of: collapsed)
    }

    /// The most Unicode scalars one counted character may average.
    @_spi(Hosting) public static let scalarsPerCharacter = 8
}
