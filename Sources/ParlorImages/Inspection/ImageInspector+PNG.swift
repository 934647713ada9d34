extension ImageInspector {
    /// A PNG's size from its IHDR; an APNG's frames from its acTL, each fcTL checked to lie
    /// inside the canvas.
    static func pngGeometry(_ bytes: [UInt8]) throws(ImageParseError) -> ImageGeometry {
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
            return ImageGeometry(info: ImageInfo(format: .png, width: width, height: height, byteCount: bytes.count))
        }
        guard control < firstData, chunks[control].data.count == 8 else {
            throw ImageParseError("is an APNG whose animation control chunk (acTL) is misplaced or malformed")
        }
        var controlReader = ByteReader(chunks[control].data, format: "APNG")
        let frameCount = Int(try controlReader.uint32BigEndian())
        let frameControls = chunks.filter { $0.type == "fcTL" }
        guard frameCount >= 1, frameCount == frameControls.count else {
            throw ImageParseError("is an APNG declaring \(frameCount) frames but holding \(frameControls.count)")
        }
        for frameControl in frameControls {
            try requireInsideCanvas(frameControl, width: width, height: height)
        }
        let info = ImageInfo(format: .apng, width: width, height: height, frameCount: frameCount, byteCount: bytes.count)
        return ImageGeometry(info: info)
    }

    /// Checks that an fcTL's frame is not empty and lies inside the canvas, as the APNG
    /// specification requires (decoders refuse it otherwise).
    private static func requireInsideCanvas(_ frameControl: PNGChunk, width: Int, height: Int) throws(ImageParseError) {
        guard frameControl.data.count == 26 else {
            throw ImageParseError("is an APNG with a malformed frame control chunk (fcTL)")
        }
        var reader = ByteReader(frameControl.data, offset: 4, format: "APNG")
        let frameWidth = Int(try reader.uint32BigEndian()), frameHeight = Int(try reader.uint32BigEndian())
        let left = Int(try reader.uint32BigEndian()), top = Int(try reader.uint32BigEndian())
        guard frameWidth > 0, frameHeight > 0, left + frameWidth <= width, top + frameHeight <= height else {
            throw ImageParseError("is an APNG with a frame outside its \(width)×\(height) canvas (the file is corrupt)")
        }
    }
}
