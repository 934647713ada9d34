extension Array where Element == UInt8 {
    /// Appends `value` as four big-endian bytes.
    package mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// Appends `value` as two big-endian bytes.
    package mutating func appendBigEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)])
    }

    /// Appends `value` as four little-endian bytes (RIFF sizes).
    package mutating func appendLittleEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)])
    }

    /// The four ASCII bytes of a chunk or marker name ("IDAT", "VP8X").
    package static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
}
