import Foundation
import ParlorImages

/// Real images for tests that upload them: the server reads every image's headers and cleans it
/// before storing it, so a few bytes that only start like a PNG are refused.
enum TestImages {
    /// A valid grey PNG of `width` × `height` pixels, whose bytes differ with `shade` (uploads
    /// that must not share a hash). Uncompressed: about 60 bytes plus the pixels.
    static func png(width: Int = 2, height: Int = 2, shade: UInt8 = 0x80) -> Data {
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 0, 0, 0, 0]  // 8-bit greyscale, no interlace
        var rows: [UInt8] = []
        for _ in 0..<height { rows += [0] + [UInt8](repeating: shade, count: width) }  // filter byte 0, then the row
        let chunks = [PNGChunk(type: "IHDR", data: header), PNGChunk(type: "IDAT", data: storedZlib(rows)), PNGChunk(type: "IEND", data: [])]
        return Data(PNGChunk.signature + chunks.flatMap { $0.encoded })
    }

    /// A PNG declaring `width` × `height` pixels with almost no data: a decompression bomb's header.
    static func pngDeclaring(width: Int, height: Int) -> Data {
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]
        let chunks = [PNGChunk(type: "IHDR", data: header), PNGChunk(type: "IDAT", data: storedZlib([0])), PNGChunk(type: "IEND", data: [])]
        return Data(PNGChunk.signature + chunks.flatMap { $0.encoded })
    }

    /// A GIF declaring a `width` × `height` screen and one 1×1 frame.
    static func gifDeclaring(width: Int, height: Int) -> Data {
        var bytes = Array("GIF89a".utf8)
        bytes += [UInt8(width & 0xFF), UInt8(width >> 8 & 0xFF), UInt8(height & 0xFF), UInt8(height >> 8 & 0xFF)]
        bytes += [0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]  // a global table of two colours
        bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        return Data(bytes)
    }

    /// `data` as a zlib stream of one stored (uncompressed) deflate block.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let length = UInt16(data.count)
        var stream: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + data
        stream.appendBigEndian(b << 16 | a)
        return stream
    }

    /// A 16×16 baseline JPEG (made by Pillow), with no metadata.
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAAQABADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD4/wDBfwh/1f7j9K958F/CH/V/uP0r2PwX8If9X+4/SvefBfwh/wBX+4/SjB4zbUPDzxD+D3z/2Q==") ?? Data()

    /// Where the photo says it was taken, in its Exif, and the camera that took it.
    static let camera = "PhoneMaker"

    /// `jpeg` as a phone sends it: an Exif APP1 after JFIF with the camera's make, orientation 6
    /// and a GPS IFD (52° 22′ 12.5″ N, 4° 53′ 30.2″ E), and a comment naming the street.
    static var jpegWithPosition: Data {
        var tiff: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
        let make = Array((camera + "\u{0}").utf8)
        let ifd0 = 8, gps = ifd0 + 2 + 3 * 12 + 4, data = gps + 2 + 4 * 12 + 4
        let makeAt = data, latitudeAt = makeAt + make.count, longitudeAt = latitudeAt + 24
        tiff += le16(3)
        tiff += entry(0x010F, type: 2, count: make.count, value: le32(makeAt))
        tiff += entry(0x0112, type: 3, count: 1, value: le16(6) + [0, 0])
        tiff += entry(0x8825, type: 4, count: 1, value: le32(gps))  // the GPS IFD
        tiff += le32(0)
        tiff += le16(4)
        tiff += entry(0x0001, type: 2, count: 2, value: Array("N".utf8) + [0, 0, 0])
        tiff += entry(0x0002, type: 5, count: 3, value: le32(latitudeAt))
        tiff += entry(0x0003, type: 2, count: 2, value: Array("E".utf8) + [0, 0, 0])
        tiff += entry(0x0004, type: 5, count: 3, value: le32(longitudeAt))
        tiff += le32(0)
        tiff += make
        for (numerator, denominator) in gpsRationals { tiff += le32(numerator) + le32(denominator) }
        let base = [UInt8](jpeg)
        let afterJFIF = 20  // SOI and the 16-byte JFIF APP0
        let comment = Array("Taken at Keizersgracht 123".utf8)
        return Data(base[0..<afterJFIF] + segment(0xE1, Array("Exif\u{0}\u{0}".utf8) + tiff) + segment(0xFE, comment) + base[afterJFIF...])
    }

    /// The GPS position's rationals, as they sit in the Exif: a test looks for them afterwards.
    static let gpsRationals = [(52, 1), (22, 1), (1250, 100), (4, 1), (53, 1), (3020, 100)]

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    private static func entry(_ tag: Int, type: Int, count: Int, value: [UInt8]) -> [UInt8] {
        le16(tag) + le16(type) + le32(count) + value
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
}
