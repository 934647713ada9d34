/// Reads an image's format, pixel size and frame count from its bytes, by magic numbers and
/// headers (PNG IHDR, acTL and fcTL; the GIF logical screen and image blocks; JPEG SOFn
/// markers; the WebP RIFF chunks), without decoding pixels. Never traps: truncated, empty or
/// hostile input throws.
package enum ImageInspector {
    /// The format and geometry of `bytes`.
    /// - Throws: `ImageParseError` saying what the content is when it is not a supported image,
    ///   or what is wrong with it.
    package static func inspect(_ bytes: [UInt8]) throws(ImageParseError) -> ImageInfo {
        try geometry(of: bytes).info
    }

    /// The format and geometry of `bytes`, with the area a decoder may paint.
    /// - Throws: `ImageParseError`, as `inspect(_:)`.
    package static func geometry(of bytes: [UInt8]) throws(ImageParseError) -> ImageGeometry {
        try geometry(of: bytes, format: format(of: bytes))
    }

    /// The format `bytes` start like, by magic number only.
    /// - Throws: `ImageParseError` saying what the content seems to be when it is none of
    ///   Parlor's formats.
    package static func format(of bytes: [UInt8]) throws(ImageParseError) -> ImageFormat {
        let reader = ByteReader(bytes, format: "image")
        if bytes.isEmpty { throw ImageParseError("is empty (0 bytes)") }
        if reader.hasPrefix(PNGChunk.signature) { return .png }
        if reader.hasPrefix(.ascii("GIF87a")) || reader.hasPrefix(.ascii("GIF89a")) { return .gif }
        if reader.hasPrefix([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if reader.hasPrefix(.ascii("RIFF")), reader.hasPrefix(.ascii("WEBP"), at: 8) { return .webp }
        throw ImageParseError(unsupportedContent(reader), unsupportedFormat: true)
    }

    /// The geometry of `bytes`, read as `format` (`.png` reads APNG too).
    package static func geometry(of bytes: [UInt8], format: ImageFormat) throws(ImageParseError) -> ImageGeometry {
        switch format {
        case .png, .apng: try pngGeometry(bytes)
        case .gif: try gifGeometry(bytes)
        case .jpeg: try jpegGeometry(bytes)
        case .webp: try webpGeometry(bytes)
        }
    }

    /// Says what a file that is not PNG, GIF, JPEG or WebP seems to be.
    private static func unsupportedContent(_ reader: ByteReader) -> String {
        let ascii = { (text: String, offset: Int) in reader.hasPrefix(.ascii(text), at: offset) }
        if ascii("ftyp", 4) {
            let brand = ascii("avif", 8) || ascii("avis", 8) ? "an AVIF image" : "a HEIC/HEIF image or a video"
            return "is \(brand), which Parlor does not take"
        }
        if ascii("BM", 0) { return "is a BMP image, which Parlor does not take" }
        if ascii("II*\u{0}", 0) || ascii("MM\u{0}*", 0) { return "is a TIFF image, which Parlor does not take" }
        if ascii("%PDF", 0) { return "is a PDF document, not an image" }
        if ascii("RIFF", 0) { return "is a RIFF file (audio or video), not an image" }
        let head = reader.bytes.prefix(512)
        if head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) || $0 >= 0x80 }) {
            let text = String(decoding: head, as: UTF8.self).lowercased()
            return text.contains("<svg") ? "is an SVG drawing, which Parlor does not take" : "is text, not an image"
        }
        return "is not an image (neither PNG, APNG, GIF, JPEG nor WebP)"
    }
}
