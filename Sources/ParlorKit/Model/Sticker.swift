import Foundation

/// A sticker: an image and its description for accessibility, like `MSSticker`.
public struct Sticker: Sendable, Hashable, Codable, Identifiable {
    /// Stable within its pack (`<pack>/<file name>`).
    public var id: String
    public var image: ImageSource
    /// At most 150 characters; read by screen readers.
    public var localizedDescription: String

    /// Creates a sticker, checking the description's length.
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
    case small, regular, large

    /// The cell size in points: 300, 408 or 618 px stickers drawn at a third of their size.
    public var pixelSize: Int {
        switch self {
        case .small: 300
        case .regular: 408
        case .large: 618
        }
    }
}
