/// A GIF file cut into its blocks, from the header to the trailer, every sub-block length
/// checked against the bytes left. Nothing is decoded: image data is only skipped.
package struct GIFStructure: Sendable {
    /// An image block: its descriptor's placement and the bytes from the 0x2C introducer to the
    /// end of its data.
    package struct Image: Sendable, Hashable {
        /// The block's placement on the logical screen, as declared.
        package var left: Int
        package var top: Int
        package var width: Int
        package var height: Int
        /// The block's bytes in the file.
        package var range: Range<Int>
    }

    /// An extension block: its label and where its first sub-blocks' data is (enough to tell a
    /// graphic control or an application extension; the rest is only counted).
    package struct Extension: Sendable, Hashable {
        /// What kind of extension: 0xF9 graphic control, 0xFF application, 0xFE comment, 0x01 plain text.
        package var label: UInt8
        /// The data ranges of the first `Extension.keptSubBlocks` sub-blocks.
        package var leadingSubBlocks: [Range<Int>]
        /// How many sub-blocks the extension has in all.
        package var subBlockCount: Int

        /// How many sub-block ranges are kept: an application extension's identifier and its
        /// first data sub-block.
        static let keptSubBlocks = 2
    }

    /// One block, in file order.
    package enum Block: Sendable, Hashable {
        case image(Image)
        case extensionBlock(Extension)
    }

    /// The size of the logical screen (the canvas).
    package var screenWidth: Int
    package var screenHeight: Int
    /// Where the header, logical screen descriptor and global colour table end.
    package var headerEnd: Int
    /// The image and extension blocks, in file order.
    package var blocks: [Block]
    /// Just past the trailer: what follows is not part of the image.
    package var end: Int

    /// Walks a GIF's blocks.
    /// - Throws: `ImageParseError` for a truncated file, an unknown block, or a GIF without the
    ///   signature.
    /// The most blocks (frames and extensions) a GIF may have: an animation of 20,000 frames
    /// fits, with their extensions.
    package static let maxBlocks = 65_536

    package init(_ bytes: [UInt8]) throws(ImageParseError) {
        var reader = ByteReader(bytes, format: "GIF")
        guard reader.hasPrefix(.ascii("GIF87a")) || reader.hasPrefix(.ascii("GIF89a")) else {
            throw ImageParseError("does not start with the GIF signature")
        }
        try reader.advance(by: 6)
        screenWidth = Int(try reader.uint16LittleEndian())
        screenHeight = Int(try reader.uint16LittleEndian())
        let flags = try reader.uint8()
        try reader.advance(by: 2)  // background colour index, pixel aspect ratio
        if flags & 0x80 != 0 { try reader.advance(by: 3 << (Int(flags & 0x07) + 1)) }
        headerEnd = reader.offset
        blocks = []
        while true {
            // A GIF ends with a trailer byte; one without it was cut short, perhaps between frames.
            let start = reader.offset
            switch try reader.uint8() {
            case 0x2C where blocks.count >= Self.maxBlocks, 0x21 where blocks.count >= Self.maxBlocks:
                // A few bytes a block, tens of bytes each to keep: a bound, so a small file cannot
                // cost memory many times its size.
                throw ImageParseError("is a GIF of more than \(Self.maxBlocks) blocks, more than any image needs")
            case 0x2C:  // image descriptor
                let left = Int(try reader.uint16LittleEndian()), top = Int(try reader.uint16LittleEndian())
                let width = Int(try reader.uint16LittleEndian()), height = Int(try reader.uint16LittleEndian())
                let imageFlags = try reader.uint8()
                if imageFlags & 0x80 != 0 { try reader.advance(by: 3 << (Int(imageFlags & 0x07) + 1)) }
                try reader.advance(by: 1)  // LZW minimum code size
                try Self.subBlocks(&reader, keeping: 0)
                blocks.append(.image(Image(left: left, top: top, width: width, height: height, range: start..<reader.offset)))
            case 0x21:  // extension: label, then sub-blocks
                let label = try reader.uint8()
                let (leading, count) = try Self.subBlocks(&reader, keeping: Extension.keptSubBlocks)
                blocks.append(.extensionBlock(Extension(label: label, leadingSubBlocks: leading, subBlockCount: count)))
            case 0x3B:  // trailer
                end = reader.offset
                return
            default:
                throw ImageParseError("is a GIF with an unknown block (the file is corrupt)")
            }
        }
    }

    /// Skips a run of sub-blocks up to its empty terminator, returning the data ranges of the
    /// first `keeping` and how many there were.
    @discardableResult
    private static func subBlocks(_ reader: inout ByteReader, keeping: Int) throws(ImageParseError) -> ([Range<Int>], Int) {
        var ranges: [Range<Int>] = []
        var count = 0
        while true {
            let size = Int(try reader.uint8())
            if size == 0 { return (ranges, count) }
            let start = reader.offset
            try reader.advance(by: size)
            if count < keeping { ranges.append(start..<reader.offset) }
            count += 1
        }
    }
}
