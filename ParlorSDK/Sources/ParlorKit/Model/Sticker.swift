import Foundation

/// A sticker: an image and its description for accessibility, like `MSSticker`.
public struct Sticker: Sendable, Hashable, Codable, Identifiable {
    /// Stable within its pack (`<pack>/<file name>`).
    public var id: String
    /// The sticker's image.
    public var image: ImageSource
    /// At most 150 characters; read by screen readers.
    public var localizedDescription: String

    /// Creates a sticker, checking the description's length.
    /// - Parameters:
    ///   - id: stable within its pack.
    ///   - image: the sticker's image.
    ///   - localizedDescription: what screen readers read, at most `Limits.maxStickerDescriptionLength`
    ///     characters.
    /// - Throws: `MessagesError(.stickerFileImproperFileAttributes)` when the description is too long.
    public init(id: String, image: ImageSource, localizedDescription: String) throws(MessagesError) {
        self.id = id
        self.image = image
        self.localizedDescription = localizedDescription
        try validate()
    }

    /// Checks the description's length and the image source.
    public func validate() throws(MessagesError) {
        let length = Limits.length(of: localizedDescription)
        guard length <= Limits.maxStickerDescriptionLength else {
            throw MessagesError(
                .stickerFileImproperFileAttributes,
                "The sticker description is \(length) characters; the limit is \(Limits.maxStickerDescriptionLength).")
        }
        try image.validate()
    }
}

/// How large a sticker browser draws its stickers.
public enum StickerGridSize: String, Sendable, Hashable, Codable, CaseIterable {
    /// A sticker size: small (300 px), regular (408 px) or large (618 px).
    case small, regular, large

    /// The pixel size of the stickers this grid shows: 300, 408 or 618 (drawn at a third of it).
    public var pixelSize: Int {
        switch self {
        case .small: 300
        case .regular: 408
        case .large: 618
        }
    }
}
