/// A WebP file's RIFF container cut into its chunks: the RIFF size checked against the file,
/// and every chunk's size (with its padding byte) against the RIFF size.
package struct WebPStructure: Sendable {
    /// One RIFF chunk: its four-character code and where its payload is (padding excluded).
    package struct Chunk: Sendable, Hashable {
        /// The chunk's name ("VP8X", "EXIF").
        package var fourCC: String
        /// Where its payload is in the file, padding excluded.
        package var payload: Range<Int>
    }

    /// Top-level chunks after "WEBP", in file order.
    package var chunks: [Chunk]
    /// Just past the RIFF chunk: what follows is not part of the image.
    package var end: Int

    /// The flags of a VP8X header.
    package enum ExtendedFlag {
        /// An ICCP chunk holds a colour profile.
        package static let iccProfile: UInt8 = 0x20
        /// The image has transparency.
        package static let alpha: UInt8 = 0x10
        /// An EXIF chunk follows the image.
        package static let exif: UInt8 = 0x08
        /// An XMP chunk follows the image.
        package static let xmp: UInt8 = 0x04
        /// The image is an animation of ANMF frames.
        package static let animation: UInt8 = 0x02
    }

    /// Reads the RIFF header and the chunks in it.
    /// - Throws: `ImageParseError` for a missing header, a RIFF size the file does not hold,
    ///   or a chunk reaching past it.
    package init(_ bytes: [UInt8]) throws(ImageParseError) {
        var reader = ByteReader(bytes, format: "WebP")
        guard reader.hasPrefix(.ascii("RIFF")), reader.hasPrefix(.ascii("WEBP"), at: 8) else {
            throw ImageParseError("does not start with a WebP RIFF header")
        }
        try reader.advance(by: 4)
        let riffSize = Int(try reader.uint32LittleEndian())
        guard riffSize >= 12 else {
            throw ImageParseError("is a WebP image whose RIFF header declares \(riffSize) bytes, too few for an image (the file is corrupt)")
        }
        guard riffSize <= bytes.count - 8 else { throw .truncated("WebP") }
        end = 8 + riffSize
        chunks = try Self.chunks(in: bytes, range: 12..<end)
    }

    /// The chunks filling `range` exactly (the top level, or the frame data of an ANMF chunk).
    /// - Throws: `ImageParseError` for a chunk header or payload reaching past `range`.
    package static func chunks(in bytes: [UInt8], range: Range<Int>) throws(ImageParseError) -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard range.upperBound - offset >= 8 else { throw damagedChunk }
            // Eight bytes a chunk, tens of bytes each to keep: a bound on what a small file costs.
            guard chunks.count < 65_536 else { throw ImageParseError("is a WebP of more than 65536 chunks, more than any image needs") }
            var reader = ByteReader(bytes, offset: offset, format: "WebP")
            let fourCC = String(decoding: try reader.take(4), as: UTF8.self)
            let size = Int(try reader.uint32LittleEndian())
            let payloadStart = offset + 8
            let padded = size + (size & 1)
            guard padded <= range.upperBound - payloadStart else { throw damagedChunk }
            chunks.append(Chunk(fourCC: fourCC, payload: payloadStart..<payloadStart + size))
            offset = payloadStart + padded
        }
        return chunks
    }

    private static var damagedChunk: ImageParseError {
        ImageParseError("is a WebP image with a chunk larger than the file says it holds (the file is corrupt or truncated)")
    }
}
