/// What an image's headers say: its format, pixel size and frames. Read without decoding the
/// pixels.
public struct ImageInfo: Sendable, Hashable, Codable {
    /// The format found in the bytes.
    public var format: ImageFormat
    /// Width in pixels, as declared by the file's header: the PNG IHDR, the GIF logical screen,
    /// the widest JPEG frame header, the WebP canvas.
    public var width: Int
    /// Height in pixels, as declared by the file's header (see `width`).
    public var height: Int
    /// The number of frames: 1 for a still image.
    public var frameCount: Int
    /// The size of the whole file in bytes.
    public var byteCount: Int

    /// Creates image facts; `inspect(_:)` reads them from a file.
    public init(format: ImageFormat, width: Int, height: Int, frameCount: Int = 1, byteCount: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.byteCount = byteCount
    }

    /// Whether the image moves: an APNG, GIF or WebP with more than one frame.
    public var isAnimated: Bool { frameCount > 1 }

    /// Reads an image's facts from its bytes, by content (magic numbers and headers); never
    /// traps, whatever the bytes.
    ///
    /// ```swift
    /// let info = try ImageInfo.inspect(bytes)
    /// print(info.format, info.width, info.height, info.isAnimated)
    /// ```
    /// - Parameter bytes: the whole file.
    /// - Throws: an error saying what the bytes are when they are not a PNG, APNG, GIF, JPEG or
    ///   WebP, or what is wrong with them (truncated, damaged). Its `localizedDescription` is
    ///   not meant for people: use `UploadedImage` for a refusal with a message.
    public static func inspect(_ bytes: [UInt8]) throws -> ImageInfo { try ImageInspector.inspect(bytes) }
}
