/// The one Exif tag Parlor keeps: Orientation (0x0112), which says how to turn the pixels for
/// display. Read from IFD0 of the first Exif APP1 segment, the one browsers read.
enum ExifOrientation {
    /// The orientation tag.
    static let tag: UInt16 = 0x0112

    /// The orientation of the first Exif segment, when it is a valid one that turns or mirrors
    /// the image (2 to 8); nil for 1 (as stored), none, or a malformed Exif, which is dropped.
    static func first(in bytes: [UInt8], _ structure: JPEGStructure) -> UInt16? {
        for case .segment(0xE1, let payload) in structure.parts where bytes[payload].starts(with: exifHeader) {
            let value = orientation(inTIFF: Array(bytes[payload].dropFirst(exifHeader.count)))
            return value.flatMap { (2...8).contains($0) ? $0 : nil }
        }
        return nil
    }

    /// The payload of an APP1 segment holding only `orientation`: "Exif\0\0", a big-endian TIFF
    /// header, IFD0 with exactly one entry, and no next IFD (so no GPS, Exif sub-IFD, maker
    /// note or thumbnail).
    static func minimalExif(_ orientation: UInt16) -> [UInt8] {
        var bytes = exifHeader + Array.ascii("MM") + [0x00, 0x2A]
        bytes.appendBigEndian(UInt32(8))  // IFD0 right after the header
        bytes.appendBigEndian(UInt16(1))  // one entry
        bytes.appendBigEndian(tag)
        bytes.appendBigEndian(UInt16(3))  // SHORT
        bytes.appendBigEndian(UInt32(1))  // one value
        bytes.appendBigEndian(orientation)
        bytes.appendBigEndian(UInt16(0))  // value padding
        bytes.appendBigEndian(UInt32(0))  // no next IFD
        return bytes
    }

    private static let exifHeader = Array.ascii("Exif\u{0}\u{0}")

    /// The orientation in a TIFF structure's IFD0: a SHORT with one value, as browsers require.
    private static func orientation(inTIFF tiff: [UInt8]) -> UInt16? {
        let littleEndian: Bool
        if tiff.starts(with: Array.ascii("II")) {
            littleEndian = true
        } else if tiff.starts(with: Array.ascii("MM")) {
            littleEndian = false
        } else {
            return nil
        }
        var reader = ByteReader(tiff, offset: 2, format: "Exif")
        func uint16() throws(ImageParseError) -> UInt16 { littleEndian ? try reader.uint16LittleEndian() : try reader.uint16BigEndian() }
        func uint32() throws(ImageParseError) -> UInt32 {
            let first = UInt32(try uint16()), second = UInt32(try uint16())
            return littleEndian ? second << 16 | first : first << 16 | second
        }
        do {
            guard try uint16() == 42 else { return nil }
            let ifd = Int(try uint32())
            guard ifd >= 8, ifd <= tiff.count else { return nil }
            reader = ByteReader(tiff, offset: ifd, format: "Exif")
            let count = Int(try uint16())
            for _ in 0..<count {
                let entryTag = try uint16(), type = try uint16(), valueCount = try uint32()
                let value = try uint16()
                try reader.advance(by: 2)
                if entryTag == tag { return type == 3 && valueCount == 1 ? value : nil }
            }
            return nil
        } catch {
            return nil  // an IFD cut short holds no orientation a browser would read either
        }
    }
}
