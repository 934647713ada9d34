/// Builds the TIFF structure of an Exif segment the way phones write it: IFD0 with Make,
/// Model, Orientation and a pointer to a GPS IFD (latitude and longitude), and IFD1 pointing at
/// a thumbnail, in either byte order.
struct ExifFixture {
    var orientation: UInt16 = 6
    var bigEndian = false
    var thumbnail: [UInt8] = []

    static let make = "PhoneMaker"
    static let model = "Phone 15 Pro"

    /// The TIFF bytes (what follows "Exif\0\0" in JPEG, the whole of a PNG eXIf or WebP EXIF).
    var tiff: [UInt8] {
        let make = Array((Self.make + "\u{0}").utf8), model = Array((Self.model + "\u{0}").utf8)
        let ifd0 = 8, gps = ifd0 + 2 + 4 * 12 + 4, ifd1 = gps + 2 + 4 * 12 + 4, data = ifd1 + 2 + 2 * 12 + 4
        let makeAt = data, modelAt = makeAt + make.count, latitudeAt = modelAt + model.count
        let longitudeAt = latitudeAt + 24, thumbnailAt = longitudeAt + 24
        var writer = Writer(bigEndian: bigEndian)
        writer.bytes = Array((bigEndian ? "MM" : "II").utf8)
        writer.u16(42)
        writer.u32(ifd0)
        writer.u16(4)
        writer.entry(0x010F, type: 2, count: make.count, value: makeAt)
        writer.entry(0x0110, type: 2, count: model.count, value: modelAt)
        writer.shortEntry(0x0112, orientation)
        writer.entry(0x8825, type: 4, count: 1, value: gps)  // GPS IFD pointer
        writer.u32(ifd1)
        writer.u16(4)
        writer.asciiEntry(0x0001, "N")  // GPSLatitudeRef
        writer.entry(0x0002, type: 5, count: 3, value: latitudeAt)
        writer.asciiEntry(0x0003, "E")  // GPSLongitudeRef
        writer.entry(0x0004, type: 5, count: 3, value: longitudeAt)
        writer.u32(0)
        writer.u16(2)
        writer.entry(0x0201, type: 4, count: 1, value: thumbnailAt)  // JPEGInterchangeFormat
        writer.entry(0x0202, type: 4, count: 1, value: thumbnail.count)
        writer.u32(0)
        writer.bytes += make + model
        for (numerator, denominator) in [(52, 1), (22, 1), (1250, 100), (4, 1), (53, 1), (3020, 100)] {
            writer.u32(numerator)
            writer.u32(denominator)
        }
        return writer.bytes + thumbnail
    }

    /// The payload of a JPEG APP1 segment.
    var app1: [UInt8] { Array("Exif\u{0}\u{0}".utf8) + tiff }

    private struct Writer {
        var bigEndian: Bool
        var bytes: [UInt8] = []

        mutating func u16(_ value: Int) {
            let pair = [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            bytes += bigEndian ? pair : pair.reversed()
        }

        mutating func u32(_ value: Int) {
            let quad = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            bytes += bigEndian ? quad : quad.reversed()
        }

        mutating func entry(_ tag: Int, type: Int, count: Int, value: Int) {
            u16(tag)
            u16(type)
            u32(count)
            u32(value)
        }

        /// A SHORT entry: the value left-justified in the 4-byte field, in either byte order.
        mutating func shortEntry(_ tag: Int, _ value: UInt16) {
            u16(tag)
            u16(3)
            u32(1)
            u16(Int(value))
            u16(0)
        }

        mutating func asciiEntry(_ tag: Int, _ letter: Character) {
            u16(tag)
            u16(2)
            u32(2)
            bytes += Array(String(letter).utf8) + [0, 0, 0]
        }
    }
}
