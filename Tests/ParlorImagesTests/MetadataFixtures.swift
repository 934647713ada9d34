import ParlorImages

/// The samples with metadata added the way cameras, phones and editors write it: location in
/// Exif, XMP and IPTC, comments, text chunks, thumbnails, trailers.
enum MetadataFixtures {
    /// An XMP packet with a location in it.
    static let xmp = Array(("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
        + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:exif=\"http://ns.adobe.com/exif/1.0/\""
        + " exif:GPSLatitude=\"52,22.2N\" exif:GPSLongitude=\"4,53.5E\"/></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>").utf8)
    static let comment = "Taken at Grandma's, Keizersgracht 123"
    /// Text that must not survive stripping, from every kind of metadata the fixtures add.
    static let secrets = [
        ExifFixture.make, ExifFixture.model, "ns.adobe.com", "GPSLatitude", "Keizersgracht", "Amsterdam", "Photoshop 3.0",
        "MotionPhoto", "MPF", "c2pa", "XMP DataXMP", "ICCRGBG1", "MGKIPTC",
    ]

    // MARK: JPEG

    /// The baseline sample as a phone sends it: an Exif APP1 (Make, Model, `orientation`, a GPS
    /// IFD, a thumbnail), XMP and extended XMP APP1s, an MPF APP2, a C2PA APP11, an IPTC APP13
    /// with a city, a comment, and after EOI a second image and a motion-photo trailer.
    static func jpegPhoto(orientation: UInt16 = 6, bigEndianExif: Bool = false) -> [UInt8] {
        let base = Samples.jpegBaseline
        let afterJFIF = 20  // SOI and the 16-byte JFIF APP0
        var bytes = Array(base[0..<afterJFIF])
        bytes += jpegSegment(0xE1, ExifFixture(orientation: orientation, bigEndian: bigEndianExif, thumbnail: base).app1)
        bytes += jpegSegment(0xE1, ascii("http://ns.adobe.com/xap/1.0/\u{0}") + xmp)
        let guid = ascii("0123456789ABCDEF0123456789ABCDEF")
        bytes += jpegSegment(0xE1, ascii("http://ns.adobe.com/xmp/extension/\u{0}") + guid + bigEndian32(xmp.count) + bigEndian32(0) + xmp)
        bytes += jpegSegment(0xE2, ascii("MPF\u{0}MM\u{0}*") + [0, 0, 0, 8, 0, 0])
        bytes += jpegSegment(0xEB, ascii("JP") + [0, 0, 0, 0, 0, 1] + ascii("jumbc2pa manifest"))
        let iptc: [UInt8] = [0x1C, 0x02, 0x5A, 0x00, 0x09] + ascii("Amsterdam")
        bytes += jpegSegment(0xED, ascii("Photoshop 3.0\u{0}8BIM") + [0x04, 0x04, 0, 0] + bigEndian32(iptc.count) + iptc)
        bytes += jpegSegment(0xFE, ascii(comment))
        bytes += base[afterJFIF...]
        return bytes + base + ascii("MotionPhoto_Data") + [UInt8](repeating: 0x42, count: 64)
    }

    /// A marker segment with its length.
    static func jpegSegment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    // MARK: PNG

    /// `sample` with tEXt, iTXt (XMP), zTXt, eXIf and tIME after IHDR, plus gAMA and pHYs
    /// (kept), and another tEXt after the image data.
    static func pngWithText(_ sample: [UInt8]) -> [UInt8] {
        let afterHeader = 8 + 25
        var bytes = Array(sample[0..<afterHeader])
        bytes += PNGChunk(type: "tEXt", data: ascii("Location\u{0}Keizersgracht 123, Amsterdam")).encoded
        bytes += PNGChunk(type: "iTXt", data: ascii("XML:com.adobe.xmp\u{0}\u{0}\u{0}\u{0}\u{0}") + xmp).encoded
        bytes += PNGChunk(type: "zTXt", data: ascii("Comment\u{0}") + [0] + storedZlib(ascii(comment))).encoded
        bytes += PNGChunk(type: "eXIf", data: ExifFixture().tiff).encoded
        bytes += PNGChunk(type: "tIME", data: [0x07, 0xE8, 5, 17, 12, 34, 56]).encoded
        bytes += PNGChunk(type: "gAMA", data: [0, 0, 0xB1, 0x8F]).encoded
        bytes += PNGChunk(type: "pHYs", data: [0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1]).encoded
        let end = sample.count - 12  // IEND
        bytes += sample[afterHeader..<end]
        bytes += PNGChunk(type: "tEXt", data: ascii("Author\u{0}Grandma from Amsterdam")).encoded
        return bytes + sample[end...] + ascii("trailing Keizersgracht")
    }

    /// `data` as a zlib stream of one stored (uncompressed) deflate block.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let length = UInt16(data.count)
        return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + data + bigEndian32(Int(b << 16 | a))
    }

    // MARK: GIF

    /// The GIF sample with a comment, an XMP application extension (with its magic trailer),
    /// a plain-text extension, an ICC profile application extension and one shaped like a loop
    /// count before its frames, and text after the trailer.
    static func gifWithComments() -> [UInt8] {
        let base = Samples.gif
        let afterColourTable = 13 + 48
        var bytes = Array(base[0..<afterColourTable])
        bytes += [0x21, 0xFE] + subBlocks(ascii(comment))
        let magicTrailer: [UInt8] = [0x01] + (0...255).reversed().map { UInt8($0) } + [0x00]
        bytes += [0x21, 0xFF, 11] + ascii("XMP DataXMP") + xmp + magicTrailer
        bytes += [0x21, 0x01, 12] + [UInt8](repeating: 0, count: 12) + subBlocks(ascii("Amsterdam"))
        bytes += [0x21, 0xFF, 11] + ascii("ICCRGBG1012") + subBlocks([UInt8](repeating: 0x37, count: 300))
        bytes += [0x21, 0xFF, 11] + ascii("MGKIPTC0000") + [3, 1, 0x41, 0x42, 0]  // shaped like a loop count
        bytes += base[afterColourTable...]
        return bytes + ascii("Keizersgracht")
    }

    /// `data` cut into GIF sub-blocks of at most 255 bytes, with the terminator.
    static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        stride(from: 0, to: data.count, by: 255).flatMap { start in
            let block = data[start..<min(start + 255, data.count)]
            return [UInt8(block.count)] + block
        } + [0]
    }

    // MARK: WebP

    /// `sample` (a RIFF WebP) with `chunks` added at the end of its RIFF chunk, the RIFF size
    /// fixed, and `trailer` after it.
    static func webp(_ sample: [UInt8], adding chunks: [(String, [UInt8])], trailer: [UInt8] = []) -> [UInt8] {
        var bytes = sample
        for (fourCC, payload) in chunks {
            bytes += ascii(fourCC) + littleEndian32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        bytes.replaceSubrange(4..<8, with: littleEndian32(bytes.count - 8))
        return bytes + trailer
    }

    // MARK: Bytes

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func littleEndian32(_ value: Int) -> [UInt8] { bigEndian32(value).reversed() }
}
