extension ImageInspector {
    /// A WebP's size: from the VP8 frame header or the VP8L header in a simple file, from the
    /// VP8X canvas in an extended one, whose image (or each ANMF frame) must match it.
    static func webpGeometry(_ bytes: [UInt8]) throws(ImageParseError) -> ImageGeometry {
        let structure = try WebPStructure(bytes)
        guard let first = structure.chunks.first else { throw ImageParseError("is a WebP image without any chunk") }
        let info: (width: Int, height: Int, frames: Int)
        switch first.fourCC {
        case "VP8 ", "VP8L":
            let size = try bitstreamSize(first, in: bytes)
            info = (size.width, size.height, 1)
        case "VP8X":
            info = try extendedSize(structure, in: bytes)
        default:
            throw ImageParseError("is a WebP image whose first chunk is neither VP8, VP8L nor VP8X (the file is corrupt)")
        }
        return ImageGeometry(info: ImageInfo(format: .webp, width: info.width, height: info.height, frameCount: info.frames, byteCount: bytes.count))
    }

    /// The canvas and frame count of a VP8X file, checking its image or frames against it.
    private static func extendedSize(_ structure: WebPStructure, in bytes: [UInt8]) throws(ImageParseError) -> (width: Int, height: Int, frames: Int) {
        let header = structure.chunks[0].payload
        guard header.count >= 10 else { throw ImageParseError("is a WebP image with a damaged VP8X header") }
        var reader = ByteReader(bytes, offset: header.lowerBound, format: "WebP")
        let flags = try reader.uint8()
        try reader.advance(by: 3)  // reserved
        let width = Int(try reader.uint24LittleEndian()) + 1, height = Int(try reader.uint24LittleEndian()) + 1
        guard width * height <= Int(UInt32.max) else {
            throw ImageParseError("is a WebP image declaring a canvas of \(width)×\(height) pixels, more than WebP allows")
        }
        guard flags & WebPStructure.ExtendedFlag.animation != 0 else {
            guard let image = structure.chunks.first(where: { $0.fourCC == "VP8 " || $0.fourCC == "VP8L" }) else {
                throw ImageParseError("is a WebP image without image data (no VP8 or VP8L chunk)")
            }
            let size = try bitstreamSize(image, in: bytes)
            guard size.width == width, size.height == height else { throw mismatch(width, height) }
            return (width, height, 1)
        }
        var frames = 0
        for frame in structure.chunks where frame.fourCC == "ANMF" {
            try requireFrame(frame, inCanvasOf: width, height, bytes: bytes)
            frames += 1
        }
        guard frames > 0 else { throw ImageParseError("is an animated WebP without any frame (no ANMF chunk)") }
        return (width, height, frames)
    }

    /// Checks that an ANMF frame lies inside the canvas and that its bitstream is the size the
    /// frame declares.
    private static func requireFrame(_ frame: WebPStructure.Chunk, inCanvasOf width: Int, _ height: Int, bytes: [UInt8]) throws(ImageParseError) {
        guard frame.payload.count >= 16 else { throw ImageParseError("is an animated WebP with a damaged frame header (ANMF)") }
        var reader = ByteReader(bytes, offset: frame.payload.lowerBound, format: "WebP")
        let left = Int(try reader.uint24LittleEndian()) * 2, top = Int(try reader.uint24LittleEndian()) * 2
        let frameWidth = Int(try reader.uint24LittleEndian()) + 1, frameHeight = Int(try reader.uint24LittleEndian()) + 1
        guard left + frameWidth <= width, top + frameHeight <= height else {
            throw ImageParseError("is an animated WebP with a frame outside its \(width)×\(height) canvas (the file is corrupt)")
        }
        let subChunks = try WebPStructure.chunks(in: bytes, range: frame.payload.lowerBound + 16..<frame.payload.upperBound)
        guard let image = subChunks.first(where: { $0.fourCC == "VP8 " || $0.fourCC == "VP8L" }) else {
            throw ImageParseError("is an animated WebP with a frame without image data")
        }
        let size = try bitstreamSize(image, in: bytes)
        guard size.width == frameWidth, size.height == frameHeight else { throw mismatch(frameWidth, frameHeight) }
    }

    /// The size a VP8 key frame header or a VP8L header declares.
    private static func bitstreamSize(_ chunk: WebPStructure.Chunk, in bytes: [UInt8]) throws(ImageParseError) -> (width: Int, height: Int) {
        var reader = ByteReader(Array(bytes[chunk.payload].prefix(10)), format: "WebP")
        if chunk.fourCC == "VP8L" {
            guard try reader.uint8() == 0x2F else { throw ImageParseError("is a lossless WebP without the VP8L signature (the file is corrupt)") }
            let bits = try reader.uint32LittleEndian()
            guard bits >> 29 == 0 else { throw ImageParseError("is a lossless WebP of an unknown version") }
            return (Int(bits & 0x3FFF) + 1, Int(bits >> 14 & 0x3FFF) + 1)
        }
        let tag = try reader.uint24LittleEndian()
        guard tag & 1 == 0 else { throw ImageParseError("is a lossy WebP that does not start with a key frame (the file is corrupt)") }
        guard reader.hasPrefix([0x9D, 0x01, 0x2A]) else { throw ImageParseError("is a lossy WebP without the VP8 start code (the file is corrupt)") }
        try reader.advance(by: 3)
        let width = Int(try reader.uint16LittleEndian() & 0x3FFF), height = Int(try reader.uint16LittleEndian() & 0x3FFF)
        guard width > 0, height > 0 else { throw ImageParseError("is a WebP declaring a size of \(width)×\(height) pixels") }
        return (width, height)
    }

    private static func mismatch(_ width: Int, _ height: Int) -> ImageParseError {
        ImageParseError("is a WebP image whose bitstream is not the \(width)×\(height) pixels its header declares (the file is corrupt)")
    }
}
