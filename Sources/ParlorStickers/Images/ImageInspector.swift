/// Reads an image's format, pixel size and frame count from its bytes, by magic numbers and
/// headers (PNG IHDR and acTL, the GIF logical screen and image blocks, JPEG SOFn markers),
/// without decoding pixels. Never traps: truncated, empty or hostile input throws.
enum ImageInspector {
    /// The format and geometry of `bytes`.
    /// - Throws: `ImageParseError` saying what the content is when it is not a supported image,
    ///   or what is wrong with it.
    static func inspect(_ bytes: [UInt8]) throws(ImageParseError) -> ImageInfo {
        let reader = ByteReader(bytes, format: "image")
        if bytes.isEmpty { throw ImageParseError("is empty (0 bytes)") }
        if reader.hasPrefix(PNGChunk.signature) { return try inspectPNG(bytes) }
        if reader.hasPrefix(Array("GIF87a".utf8)) || reader.hasPrefix(Array("GIF89a".utf8)) { return try inspectGIF(bytes) }
        if reader.hasPrefix([0xFF, 0xD8, 0xFF]) { return try inspectJPEG(bytes) }
        throw ImageParseError(unsupportedContent(reader))
    }

    /// Says what a file that is not PNG, GIF or JPEG seems to be.
    private static func unsupportedContent(_ reader: ByteReader) -> String {
        let ascii = { (text: String, offset: Int) in reader.hasPrefix(Array(text.utf8), at: offset) }
        if ascii("RIFF", 0), ascii("WEBP", 8) { return "is a WebP image, which stickers cannot use" }
        if ascii("ftyp", 4) { return "is a HEIC/HEIF or video file, which stickers cannot use" }
        if ascii("BM", 0) { return "is a BMP image, which stickers cannot use" }
        if ascii("II*\u{0}", 0) || ascii("MM\u{0}*", 0) { return "is a TIFF image, which stickers cannot use" }
        if ascii("%PDF", 0) { return "is a PDF document, not an image" }
        let head = reader.bytes.prefix(512)
        if head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) || $0 >= 0x80 }) {
            let text = String(decoding: head, as: UTF8.self).lowercased()
            return text.contains("<svg") ? "is an SVG drawing, which stickers cannot use" : "is text, not an image"
        }
        return "is not an image (neither PNG, APNG, GIF nor JPEG)"
    }

    // MARK: PNG and APNG

    private static func inspectPNG(_ bytes: [UInt8]) throws(ImageParseError) -> ImageInfo {
        let chunks = try PNGChunk.chunks(of: bytes)
        guard let header = chunks.first, header.type == "IHDR", header.data.count == 13 else {
            throw ImageParseError("is a PNG without a valid IHDR header first")
        }
        var reader = ByteReader(header.data, format: "PNG")
        let width = Int(try reader.uint32BigEndian())
        let height = Int(try reader.uint32BigEndian())
        guard width > 0, height > 0, width <= PNGChunk.maxLength, height <= PNGChunk.maxLength else {
            throw ImageParseError("is a PNG declaring an impossible size of \(width)×\(height) pixels")
        }
        guard let firstData = chunks.firstIndex(where: { $0.type == "IDAT" }) else {
            throw ImageParseError("is a PNG without image data (no IDAT chunk)")
        }
        guard let control = chunks.firstIndex(where: { $0.type == "acTL" }) else {
            return ImageInfo(format: .png, width: width, height: height, byteCount: bytes.count)
        }
        guard control < firstData, chunks[control].data.count == 8 else {
            throw ImageParseError("is an APNG whose animation control chunk (acTL) is misplaced or malformed")
        }
        var controlReader = ByteReader(chunks[control].data, format: "APNG")
        let frameCount = Int(try controlReader.uint32BigEndian())
        let frameControls = chunks.count { $0.type == "fcTL" }
        guard frameCount >= 1, frameCount == frameControls else {
            throw ImageParseError("is an APNG declaring \(frameCount) frames but holding \(frameControls)")
        }
        return ImageInfo(format: .apng, width: width, height: height, frameCount: frameCount, byteCount: bytes.count)
    }

    // MARK: GIF

    private static func inspectGIF(_ bytes: [UInt8]) throws(ImageParseError) -> ImageInfo {
        var reader = ByteReader(bytes, offset: 6, format: "GIF")
        let width = Int(try reader.uint16LittleEndian())
        let height = Int(try reader.uint16LittleEndian())
        let flags = try reader.uint8()
        try reader.advance(by: 2)  // background colour index, pixel aspect ratio
        if flags & 0x80 != 0 { try reader.advance(by: 3 << (Int(flags & 0x07) + 1)) }
        var frames = 0
        walk: while true {
            // A GIF ends with a trailer byte; one without it was cut short, perhaps between frames.
            switch try reader.uint8() {
            case 0x2C:  // image descriptor
                try reader.advance(by: 8)
                let imageFlags = try reader.uint8()
                if imageFlags & 0x80 != 0 { try reader.advance(by: 3 << (Int(imageFlags & 0x07) + 1)) }
                try reader.advance(by: 1)  // LZW minimum code size
                try skipSubBlocks(&reader)
                frames += 1
            case 0x21:  // extension: label, then sub-blocks
                try reader.advance(by: 1)
                try skipSubBlocks(&reader)
            case 0x3B:  // trailer
                break walk
            default:
                throw ImageParseError("is a GIF with an unknown block (the file is corrupt)")
            }
        }
        guard frames > 0 else { throw ImageParseError("is a GIF without any image in it") }
        guard width > 0, height > 0 else { throw ImageParseError("is a GIF declaring a size of \(width)×\(height) pixels") }
        return ImageInfo(format: .gif, width: width, height: height, frameCount: frames, byteCount: bytes.count)
    }

    private static func skipSubBlocks(_ reader: inout ByteReader) throws(ImageParseError) {
        while true {
            let size = Int(try reader.uint8())
            if size == 0 { return }
            try reader.advance(by: size)
        }
    }

    // MARK: JPEG

    private static func inspectJPEG(_ bytes: [UInt8]) throws(ImageParseError) -> ImageInfo {
        var reader = ByteReader(bytes, offset: 2, format: "JPEG")
        while true {
            guard try reader.uint8() == 0xFF else { throw ImageParseError("is a JPEG with a damaged marker (the file is corrupt)") }
            var marker = try reader.uint8()
            while marker == 0xFF { marker = try reader.uint8() }  // fill bytes
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // markers without a length
            case 0xD9, 0xDA:
                throw ImageParseError("is a JPEG without a frame header (no SOF marker before its image data)")
            default:
                let length = Int(try reader.uint16BigEndian())
                guard length >= 2 else { throw ImageParseError("is a JPEG with a segment of impossible length") }
                let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
                guard isFrameHeader else {
                    try reader.advance(by: length - 2)
                    continue
                }
                try reader.advance(by: 1)  // sample precision
                let height = Int(try reader.uint16BigEndian())
                let width = Int(try reader.uint16BigEndian())
                guard width > 0, height > 0 else {
                    throw ImageParseError("is a JPEG declaring a size of \(width)×\(height) pixels")
                }
                // Entropy-coded data stuffs every 0xFF with 0x00, so 0xFF 0xD9 is only ever the
                // end-of-image marker: without it the file was cut short.
                let rest = bytes[reader.offset...]
                guard zip(rest, rest.dropFirst()).contains(where: { $0 == 0xFF && $1 == 0xD9 }) else {
                    throw .truncated("JPEG")
                }
                return ImageInfo(format: .jpeg, width: width, height: height, byteCount: bytes.count)
            }
        }
    }
}
