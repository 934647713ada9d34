import Testing
@testable import ParlorImages

@Suite("GIF: comments and foreign application extensions go, looping and frames stay")
struct GIFStrippingTests {
    static let loopForever: [UInt8] = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]

    @Test("A comment, XMP, plain text, an ICC extension and a trailer go; NETSCAPE2.0 looping and the image data stay")
    func commentsAndXMP() throws {
        let input = MetadataFixtures.gifWithComments()
        let prepared = try UploadedImage.prepare(input)
        for secret in MetadataFixtures.secrets + ["Grandma"] {
            #expect(!prepared.bytes.contains(text: secret), "\(secret) survived")
        }
        #expect(prepared.bytes.occurrences(of: Self.loopForever) == 1)
        #expect(try Parts.gifImages(prepared.bytes) == Parts.gifImages(Samples.gif))
        #expect(prepared.bytes == Samples.gif, "more than the added metadata changed")
        #expect(prepared.info.frameCount == 3 && prepared.info.format == .gif)
    }

    @Test("A looping extension keeps only its loop count; ANIMEXTS1.0 is kept like NETSCAPE2.0")
    func loopingReduced() throws {
        let base = HeaderFixtures.gif(width: 10, height: 10, frames: 2)
        let netscape = try #require(base.firstRange(of: Self.loopForever))
        let buffering: [UInt8] = [5, 2, 0x10, 0, 0, 0]  // NETSCAPE buffering sub-block
        var padded = base
        padded.replaceSubrange(netscape, with: [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 7, 0] + buffering + [0])
        let output = try UploadedImage.prepare(padded).bytes
        #expect(output.occurrences(of: [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 7, 0, 0]) == 1)
        #expect(!output.contains(buffering))

        var animexts = base
        animexts.replaceSubrange(netscape, with: [0x21, 0xFF, 11] + Array("ANIMEXTS1.0".utf8) + [3, 1, 0, 0, 0])
        #expect(try UploadedImage.prepare(animexts).bytes == animexts)
    }
}
