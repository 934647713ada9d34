/// An image format a sticker may use, as found in the file's bytes (never from its extension).
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A still PNG.
    case png
    /// An animated PNG: a PNG with an acTL chunk.
    case apng
    /// A GIF, still or animated.
    case gif
    /// A JPEG (baseline or progressive).
    case jpeg

    /// The extension a file of this format gets when Parlor writes it (`png` for APNG too, so
    /// browsers that cannot animate still show the first frame).
    public var fileExtension: String {
        switch self {
        case .png, .apng: "png"
        case .gif: "gif"
        case .jpeg: "jpg"
        }
    }

    /// The media type to serve the file with.
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .apng: "image/apng"
        case .gif: "image/gif"
        case .jpeg: "image/jpeg"
        }
    }

    /// The name people know the format by ("APNG").
    public var description: String { rawValue.uppercased() }
}

/// What a sticker image's headers say: its format, pixel size and frames. Read without decoding
/// the pixels.
public struct ImageInfo: Sendable, Hashable, Codable {
    /// The format found in the bytes.
    public var format: ImageFormat
    /// Width in pixels, as declared by the file's header.
    public var width: Int
    /// Height in pixels, as declared by the file's header.
    public var height: Int
    /// The number of frames: 1 for a still image.
    public var frameCount: Int
    /// The size of the whole file in bytes.
    public var byteCount: Int

    /// Creates image facts; `StickerValidator.validateImage` reads them from a file.
    public init(format: ImageFormat, width: Int, height: Int, frameCount: Int = 1, byteCount: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.byteCount = byteCount
    }

    /// Whether the image moves: an APNG or GIF with more than one frame.
    public var isAnimated: Bool { frameCount > 1 }

    /// Reads an image's facts from its bytes (`ImageInspector`); never traps, whatever the bytes.
    /// - Throws: an error saying what the bytes are when they are not a PNG, APNG, GIF or JPEG.
    public static func inspect(_ bytes: [UInt8]) throws -> ImageInfo { try ImageInspector.inspect(bytes) }
}
