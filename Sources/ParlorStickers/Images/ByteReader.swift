/// Why an image's bytes could not be read as the format they claim to be. Internal: callers turn
/// it into a `MessagesError` that names the file.
struct ImageParseError: Error, Sendable {
    /// Completes "its content …": what is wrong with the bytes, for a person.
    let reason: String

    init(_ reason: String) { self.reason = reason }

    static func truncated(_ format: String) -> ImageParseError {
        ImageParseError("ends in the middle of its \(format) data (the file is truncated)")
    }
}

/// Reads big- and little-endian integers from a byte array, never past its end: every read
/// checks the bytes left and throws instead of trapping, whatever the input declares.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    /// Names the format in truncation errors ("PNG").
    let format: String

    init(_ bytes: [UInt8], offset: Int = 0, format: String) {
        self.bytes = bytes
        self.offset = min(max(offset, 0), bytes.count)
        self.format = format
    }

    var remaining: Int { bytes.count - offset }

    mutating func advance(by count: Int) throws(ImageParseError) {
        guard count >= 0, count <= remaining else { throw .truncated(format) }
        offset += count
    }

    mutating func take(_ count: Int) throws(ImageParseError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw .truncated(format) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint8() throws(ImageParseError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(format) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16BigEndian() throws(ImageParseError) -> UInt16 {
        let high = try uint8(), low = try uint8()
        return UInt16(high) << 8 | UInt16(low)
    }

    mutating func uint16LittleEndian() throws(ImageParseError) -> UInt16 {
        let low = try uint8(), high = try uint8()
        return UInt16(high) << 8 | UInt16(low)
    }

    mutating func uint32BigEndian() throws(ImageParseError) -> UInt32 {
        let high = try uint16BigEndian(), low = try uint16BigEndian()
        return UInt32(high) << 16 | UInt32(low)
    }

    /// Whether the bytes at `offset` start with `prefix`, without moving.
    func hasPrefix(_ prefix: [UInt8], at position: Int? = nil) -> Bool {
        let start = position ?? offset
        guard start >= 0, prefix.count <= bytes.count - start else { return false }
        return bytes[start..<start + prefix.count].elementsEqual(prefix)
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` as four big-endian bytes.
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// Appends `value` as two big-endian bytes.
    mutating func appendBigEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)])
    }
}
