/// An image format Parlor accepts, as found in the file's bytes (never from its name or
/// extension).
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A still PNG.
    case png
    /// An animated PNG: a PNG with an acTL chunk.
    case apng
    /// A GIF, still or animated.
    case gif
    /// A JPEG (baseline, progressive, or any other SOF type).
    case jpeg
    /// A WebP, lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`: alpha, animation,
    /// colour profile).
    case webp

    /// The extension a file of this format gets when Parlor writes it (`png` for APNG too, so
    /// browsers that cannot animate still show the first frame).
    public var fileExtension: String {
        switch self {
        case .png, .apng: "png"
        case .gif: "gif"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    /// The media type to serve the file with.
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .apng: "image/apng"
        case .gif: "image/gif"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }

    /// The name people know the format by ("APNG", "WebP").
    public var description: String { self == .webp ? "WebP" : rawValue.uppercased() }
}
