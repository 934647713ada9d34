/// Reads big- and little-endian integers from a byte array, never past its end: every read
/// checks the bytes left and throws instead of trapping, whatever the input declares.
package struct ByteReader {
    /// All the bytes, not only those left.
    package let bytes: [UInt8]
    /// Where the next read starts.
    package private(set) var offset: Int
    /// Names the format in truncation errors ("PNG").
    package let format: String

    /// A reader at `offset` (clamped to the bytes).
    package init(_ bytes: [UInt8], offset: Int = 0, format: String) {
        self.bytes = bytes
        self.offset = min(max(offset, 0), bytes.count)
        self.format = format
    }

    /// How many bytes are left to read.
    package var remaining: Int { bytes.count - offset }

    /// Skips `count` bytes.
    package mutating func advance(by count: Int) throws(ImageParseError) {
        guard count >= 0, count <= remaining else { throw .truncated(format) }
        offset += count
    }

    /// The next `count` bytes.
    package mutating func take(_ count: Int) throws(ImageParseError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw .truncated(format) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// The next byte.
    package mutating func uint8() throws(ImageParseError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(format) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Two bytes, most significant first.
    package mutating func uint16BigEndian() throws(ImageParseError) -> UInt16 {
        let high = try uint8(), low = try uint8()
        return UInt16(high) << 8 | UInt16(low)
    }

    /// Two bytes, least significant first.
    package mutating func uint16LittleEndian() throws(ImageParseError) -> UInt16 {
        let low = try uint8(), high = try uint8()
        return UInt16(high) << 8 | UInt16(low)
    }

    /// Three bytes, least significant first (WebP's 24-bit fields).
    package mutating func uint24LittleEndian() throws(ImageParseError) -> UInt32 {
        let low = try uint16LittleEndian(), high = try uint8()
        return UInt32(high) << 16 | UInt32(low)
    }

    /// Four bytes, most significant first.
    package mutating func uint32BigEndian() throws(ImageParseError) -> UInt32 {
        let high = try uint16BigEndian(), low = try uint16BigEndian()
        return UInt32(high) << 16 | UInt32(low)
    }

    /// Four bytes, least significant first (RIFF sizes).
    package mutating func uint32LittleEndian() throws(ImageParseError) -> UInt32 {
        let low = try uint16LittleEndian(), high = try uint16LittleEndian()
        return UInt32(high) << 16 | UInt32(low)
    }

    /// Whether the bytes at `offset` start with `prefix`, without moving.
    package func hasPrefix(_ prefix: [UInt8], at position: Int? = nil) -> Bool {
        let start = position ?? offset
        guard start >= 0, start <= bytes.count, prefix.count <= bytes.count - start else { return false }
        return bytes[start..<start + prefix.count].elementsEqual(prefix)
    }
}
