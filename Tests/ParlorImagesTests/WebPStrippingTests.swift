import Testing
@testable import ParlorImages

@Suite("WebP: EXIF and XMP chunks go, their flags are cleared, the RIFF size is right")
struct WebPStrippingTests {
    @Test("A lossy VP8X WebP loses EXIF, XMP, an unknown chunk and a trailer; VP8 is unchanged")
    func extendedStill() throws {
        let input = MetadataFixtures.webp(Samples.webpLossy, adding: [("XYZW", Array("Amsterdam".utf8))], trailer: Array("Keizersgracht".utf8))
        let prepared = try UploadedImage.prepare(input)
        let output = prepared.bytes
        let chunks = try Parts.webpChunks(output)
        #expect(chunks.map(\.fourCC) == ["VP8X", "VP8 "])
        let flags = try #require(chunks.first?.payload.first)
        #expect(flags & (WebPStructure.ExtendedFlag.exif | WebPStructure.ExtendedFlag.xmp) == 0)
        #expect(try Parts.webpChunks(Samples.webpLossy)[0].payload[0] & 0x0C == 0x0C, "the sample should have had both flags")
        #expect(Array(output[4..<8]) == MetadataFixtures.littleEndian32(output.count - 8))
        #expect(chunks[1].payload == (try Parts.webpChunks(Samples.webpLossy)[1].payload))
        for secret in MetadataFixtures.secrets {
            #expect(!output.contains(text: secret), "\(secret) survived")
        }
        #expect(prepared.info == ImageInfo(format: .webp, width: 16, height: 16, byteCount: output.count))
    }

    @Test("An animated WebP keeps ANIM and its ANMF frames unchanged, and its animation flag")
    func extendedAnimation() throws {
        let prepared = try UploadedImage.prepare(Samples.webpAnimated)
        let chunks = try Parts.webpChunks(prepared.bytes)
        #expect(chunks.map(\.fourCC) == ["VP8X", "ANIM", "ANMF", "ANMF"])
        #expect(chunks[0].payload[0] == WebPStructure.ExtendedFlag.animation | WebPStructure.ExtendedFlag.alpha)
        let original = try Parts.webpChunks(Samples.webpAnimated)
        #expect(chunks[1...].map(\.payload) == original[1...3].map(\.payload))
        #expect(!prepared.bytes.contains(text: "GPSLatitude") && !prepared.bytes.contains(text: ExifFixture.make))
        #expect(Array(prepared.bytes[4..<8]) == MetadataFixtures.littleEndian32(prepared.bytes.count - 8))
        #expect(prepared.info.frameCount == 2 && prepared.info.isAnimated)
    }

    @Test("A simple WebP has nothing to strip and comes back byte for byte, minus what follows it")
    func simpleUnchanged() throws {
        #expect(try UploadedImage.prepare(Samples.webpLossless).bytes == Samples.webpLossless)
        #expect(try UploadedImage.prepare(Samples.webpLossless + Array("Keizersgracht".utf8)).bytes == Samples.webpLossless)
    }
}
