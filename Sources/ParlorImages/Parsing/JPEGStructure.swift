/// A JPEG file cut into its parts, from SOI up to EOI: marker segments, standalone markers and
/// the entropy-coded data after each scan header. Every declared length is checked against the
/// bytes left; nothing is decoded.
package struct JPEGStructure: Sendable {
    /// One part of the file, in file order.
    package enum Part: Sendable, Hashable {
        /// A marker with a length (APPn, COM, DQT, DHT, SOFn, SOS…): `payload` is what follows
        /// the two length bytes.
        case segment(marker: UInt8, payload: Range<Int>)
        /// A marker without a length (RSTn, TEM) met between segments.
        case standalone(marker: UInt8)
        /// The entropy-coded data after an SOS header, up to the next marker, its RSTn markers
        /// and stuffed bytes included.
        case entropyCodedData(Range<Int>)
    }

    /// The start-of-scan marker, whose segment is followed by entropy-coded data.
    package static let startOfScan: UInt8 = 0xDA

    /// The parts between SOI and EOI, in file order.
    package var parts: [Part]
    /// Just past the end-of-image marker: what follows (MPF images, a motion photo's video) is
    /// not part of the image.
    package var end: Int

    /// Whether `marker` starts a frame header (SOF0 to SOF15; C4, C8 and CC are DHT, JPG and
    /// DAC).
    package static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Walks a JPEG's markers up to EOI.
    /// - Throws: `ImageParseError` for a missing SOI, a damaged marker, a segment of impossible
    ///   length, or a file that ends before EOI.
    /// The most parts a JPEG may have: a real one has tens (a progressive one with restart
    /// markers a few thousand); a bound, so two-byte markers cannot cost memory many times a
    /// file's size.
    package static let maxParts = 16_384

    package init(_ bytes: [UInt8]) throws(ImageParseError) {
        var reader = ByteReader(bytes, format: "JPEG")
        guard reader.hasPrefix([0xFF, 0xD8]) else { throw ImageParseError("does not start with the JPEG start-of-image marker") }
        try reader.advance(by: 2)
        parts = []
        while true {
            guard parts.count < Self.maxParts else {
                throw ImageParseError("is a JPEG of more than \(Self.maxParts) segments, more than any image needs")
            }
            guard try reader.uint8() == 0xFF else { throw ImageParseError("is a JPEG with a damaged marker (the file is corrupt)") }
            var marker = try reader.uint8()
            while marker == 0xFF { marker = try reader.uint8() }  // fill bytes
            switch marker {
            case 0xD9:
                end = reader.offset
                return
            case 0x00, 0xD8:
                throw ImageParseError("is a JPEG with a damaged marker (the file is corrupt)")
            case 0x01, 0xD0...0xD7:
                parts.append(.standalone(marker: marker))
            default:
                let length = Int(try reader.uint16BigEndian())
                guard length >= 2 else { throw ImageParseError("is a JPEG with a segment of impossible length") }
                let start = reader.offset
                try reader.advance(by: length - 2)
                parts.append(.segment(marker: marker, payload: start..<reader.offset))
                if marker == Self.startOfScan {
                    let dataEnd = try Self.endOfEntropyCodedData(bytes, from: reader.offset)
                    parts.append(.entropyCodedData(reader.offset..<dataEnd))
                    try reader.advance(by: dataEnd - reader.offset)
                }
            }
        }
    }

    /// Where the entropy-coded data starting at `start` ends: at the first 0xFF that is not a
    /// stuffed 0xFF 0x00 nor an RSTn marker. Entropy-coded data stuffs every 0xFF with 0x00, so
    /// this is the next real marker.
    /// - Throws: `ImageParseError.truncated` when the file ends first.
    private static func endOfEntropyCodedData(_ bytes: [UInt8], from start: Int) throws(ImageParseError) -> Int {
        var index = start
        while index < bytes.count {
            guard bytes[index] == 0xFF else {
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { break }
            let next = bytes[index + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                index += 2
            } else {
                return index
            }
        }
        throw .truncated("JPEG")
    }
}
