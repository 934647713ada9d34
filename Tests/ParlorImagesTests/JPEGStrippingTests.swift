import Testing
@testable import ParlorImages

@Suite("JPEG: metadata goes, pixels and orientation stay")
struct JPEGStrippingTests {
    /// The minimal Exif APP1 payload for orientation 6: big-endian TIFF header, IFD0 with one
    /// entry (0x0112, SHORT, one value, 6), no next IFD.
    static let orientationSix: [UInt8] = Array("Exif\u{0}\u{0}MM".utf8)
        + [0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]

    @Test("A phone photo loses Exif (GPS, make, model, thumbnail), XMP, IPTC, comments and trailers; orientation 6 stays, alone")
    func phonePhoto() throws {
        let input = MetadataFixtures.jpegPhoto(orientation: 6)
        let prepared = try UploadedImage.prepare(input)
        let output = prepared.bytes
        for secret in MetadataFixtures.secrets {
            #expect(!output.contains(text: secret), "\(secret) survived")
        }
        let segments = try Parts.jpegSegments(output)
        let exif = segments.filter { $0.marker == 0xE1 }.map(\.payload)
        #expect(exif == [Self.orientationSix])
        #expect(!Self.orientationSix.contains([0x88, 0x25]) && !Self.orientationSix.contains([0x25, 0x88]))  // no GPS IFD pointer
        #expect(output.occurrences(of: Array("Exif\u{0}\u{0}".utf8)) == 1)
        #expect(!segments.contains { $0.marker == 0xFE || $0.marker == 0xED || $0.marker == 0xEB })
        #expect(try Parts.jpegScans(output) == Parts.jpegScans(input), "the entropy-coded data changed")
        #expect(try decoderParts(output) == decoderParts(input))
        #expect(output.suffix(2) == [0xFF, 0xD9], "the trailer after EOI survived")
        #expect(prepared.info == ImageInfo(format: .jpeg, width: 16, height: 16, byteCount: output.count))
    }

    @Test("With orientation 1 (or none) no Exif is written, and the photo comes back as the camera's file byte for byte")
    func uprightPhotoIsTheOriginal() throws {
        #expect(try UploadedImage.prepare(MetadataFixtures.jpegPhoto(orientation: 1)).bytes == Samples.jpegBaseline)
        #expect(try UploadedImage.prepare(MetadataFixtures.jpegPhoto(orientation: 0)).bytes == Samples.jpegBaseline)
        #expect(try UploadedImage.prepare(Samples.jpegBaseline).bytes == Samples.jpegBaseline)
    }

    @Test("Orientation is read in either byte order and written back big-endian", arguments: [false, true])
    func orientationByteOrder(bigEndian: Bool) throws {
        for orientation in UInt16(2)...8 {
            let output = try UploadedImage.prepare(MetadataFixtures.jpegPhoto(orientation: orientation, bigEndianExif: bigEndian)).bytes
            let exif = try Parts.jpegSegments(output).filter { $0.marker == 0xE1 }.map(\.payload)
            #expect(exif == [ExifOrientation.minimalExif(orientation)])
            #expect(exif.first?[24...25] == [0, UInt8(orientation)][...])
        }
    }

    @Test("A malformed Exif segment is dropped without an orientation and without a refusal")
    func malformedExif() throws {
        var broken = ExifFixture(orientation: 6).app1
        broken.replaceSubrange(10..<14, with: [0xFF, 0xFF, 0xFF, 0x7F])  // IFD0 offset far past the end
        let base = Samples.jpegBaseline
        let input = Array(base[0..<20]) + MetadataFixtures.jpegSegment(0xE1, broken) + base[20...]
        #expect(try UploadedImage.prepare(input).bytes == base)
    }

    @Test("JFIF loses its thumbnail, JFXX (a thumbnail) goes; ICC profile and Adobe colour transform stay unchanged")
    func colourSegmentsKept() throws {
        let base = Samples.jpegBaseline
        let jfifWithThumbnail = Array("JFIF\u{0}".utf8) + [1, 1, 0, 0, 1, 0, 1, 2, 1] + [UInt8](repeating: 0x99, count: 6)
        let jfxx = Array("JFXX\u{0}".utf8) + [0x13, 1, 1] + [UInt8](repeating: 0x77, count: 3)
        let icc = Array("ICC_PROFILE\u{0}".utf8) + [1, 1] + [UInt8](repeating: 0x55, count: 40)
        let adobe = Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1]
        var input: [UInt8] = [0xFF, 0xD8] + MetadataFixtures.jpegSegment(0xE0, jfifWithThumbnail) + MetadataFixtures.jpegSegment(0xE0, jfxx)
        input += MetadataFixtures.jpegSegment(0xE2, icc) + MetadataFixtures.jpegSegment(0xEE, adobe) + base[20...]
        let segments = try Parts.jpegSegments(try UploadedImage.prepare(input).bytes)
        let original = try Parts.jpegSegments(base)
        #expect(segments.filter { $0.marker == 0xE0 }.map(\.payload) == [original[0].payload])
        #expect(segments.filter { $0.marker == 0xE2 }.map(\.payload) == [icc])
        #expect(segments.filter { $0.marker == 0xEE }.map(\.payload) == [adobe])
    }

    @Test("A progressive JPEG keeps every scan and the tables between them; a comment between scans goes")
    func progressive() throws {
        let base = Samples.jpegProgressive
        let firstScan = try #require(base.firstRange(of: [0xFF, 0xDA]))
        let secondTable = try #require(base[firstScan.upperBound...].firstRange(of: [0xFF, 0xC4]))
        let input = Array(base[..<secondTable.lowerBound]) + MetadataFixtures.jpegSegment(0xFE, Array("Amsterdam".utf8))
            + base[secondTable.lowerBound...]
        let prepared = try UploadedImage.prepare(input)
        #expect(prepared.bytes == base)
        #expect(prepared.info.width == 16 && prepared.info.format == .jpeg)
    }

    /// Everything a decoder reads: each segment but APPn and COM, and each run of
    /// entropy-coded data, in order.
    private func decoderParts(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let structure = try JPEGStructure(bytes)
        return structure.parts.compactMap { part in
            switch part {
            case .segment(let marker, let payload):
                (0xE0...0xEF).contains(marker) || marker == 0xFE ? nil : [marker] + bytes[payload]
            case .standalone(let marker):
                [marker]
            case .entropyCodedData(let range):
                Array(bytes[range])
            }
        }
    }
}
