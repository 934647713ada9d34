/// One chunk of a PNG file: a four-letter type and its data, framed by a length and a CRC.
package struct PNGChunk: Sendable, Hashable {
    /// The eight bytes every PNG file starts with.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The largest chunk length the PNG specification allows (2^31 - 1).
    package static let maxLength = 0x7FFF_FFFF

    /// The four-letter type ("IHDR").
    package var type: String
    /// The chunk's data, without length, type or CRC.
    package var data: [UInt8]

    /// A chunk of `type` holding `data`.
    package init(type: String, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    /// Whether a decoder must understand the chunk to show the image: its type starts with an
    /// upper-case letter (IHDR, PLTE, IDAT, IEND).
    package var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? false }

    /// The chunk as it sits in a file: length, type, data, CRC-32 of type and data.
    package var encoded: [UInt8] {
        let typeBytes = Array(type.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12 + data.count)
        bytes.appendBigEndian(UInt32(data.count))
        bytes.append(contentsOf: typeBytes)
        bytes.append(contentsOf: data)
        bytes.appendBigEndian(CRC32.checksum(typeBytes + data))
        return bytes
    }

    /// Splits a PNG file into its chunks, up to and including IEND, checking the signature,
    /// every length against the bytes left and every CRC. Bytes after IEND are ignored.
    /// - Throws: `ImageParseError` for a missing signature, a truncated chunk, a bad CRC or a
    ///   missing IEND.
    package static func chunks(of bytes: [UInt8]) throws(ImageParseError) -> [PNGChunk] {
        var reader = ByteReader(bytes, format: "PNG")
        guard reader.hasPrefix(signature) else { throw ImageParseError("does not start with the PNG signature") }
        try reader.advance(by: signature.count)
        var chunks: [PNGChunk] = []
        while true {
            let length = Int(try reader.uint32BigEndian())
            guard length <= maxLength else { throw ImageParseError("declares a PNG chunk of \(length) bytes, more than PNG allows") }
            let typeBytes = Array(try reader.take(4))
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw ImageParseError("has a PNG chunk with an invalid type (the file is corrupt)")
            }
            let data = Array(try reader.take(length))
            let crc = try reader.uint32BigEndian()
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard crc == CRC32.checksum(typeBytes + data) else {
                throw ImageParseError("has a damaged PNG \(type) chunk (its checksum does not match)")
            }
            chunks.append(PNGChunk(type: type, data: data))
            if type == "IEND" { return chunks }
        }
    }
}
