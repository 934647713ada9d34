import Testing
@testable import ParlorImages

@Suite("PNG and APNG: text, Exif and time chunks go, image and animation chunks stay")
struct PNGStrippingTests {
    @Test("tEXt, iTXt, zTXt, eXIf and tIME go; IDAT is unchanged; gAMA and pHYs stay; the result is a valid PNG")
    func stillPNG() throws {
        let input = MetadataFixtures.pngWithText(Samples.png)
        let prepared = try UploadedImage.prepare(input)
        let chunks = try PNGChunk.chunks(of: prepared.bytes)  // checks every CRC
        #expect(chunks.map(\.type) == ["IHDR", "gAMA", "pHYs", "IDAT", "IEND"])
        let originalData = try PNGChunk.chunks(of: Samples.png).filter { $0.type == "IDAT" }
        #expect(chunks.filter { $0.type == "IDAT" } == originalData)
        for secret in MetadataFixtures.secrets {
            #expect(!prepared.bytes.contains(text: secret), "\(secret) survived")
        }
        #expect(!prepared.bytes.contains(text: "trailing"), "bytes after IEND survived")
        #expect(prepared.info == ImageInfo(format: .png, width: 8, height: 8, byteCount: prepared.bytes.count))
    }

    @Test("A clean PNG comes back byte for byte")
    func cleanPNGUnchanged() throws {
        #expect(try UploadedImage.prepare(Samples.png).bytes == Samples.png)
        #expect(try UploadedImage.prepare(Samples.apng).bytes == Samples.apng)
    }

    @Test("An APNG keeps acTL, every fcTL and fdAT unchanged, and still plays its 3 frames")
    func animatedPNG() throws {
        let prepared = try UploadedImage.prepare(MetadataFixtures.pngWithText(Samples.apng))
        let chunks = try PNGChunk.chunks(of: prepared.bytes)
        #expect(chunks.map(\.type) == ["IHDR", "gAMA", "pHYs", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND"])
        let animation: Set<String> = ["acTL", "fcTL", "IDAT", "fdAT"]
        let original = try PNGChunk.chunks(of: Samples.apng).filter { animation.contains($0.type) }
        #expect(chunks.filter { animation.contains($0.type) } == original)
        #expect(prepared.info.format == .apng && prepared.info.frameCount == 3)
    }

    @Test("Private ancillary chunks go; an unknown critical chunk, which no browser shows, is refused")
    func unknownChunks() throws {
        let base = Samples.png
        let withPrivate = Array(base[0..<33]) + PNGChunk(type: "prVt", data: Array("Amsterdam".utf8)).encoded + base[33...]
        #expect(try UploadedImage.prepare(withPrivate).bytes == base)
        let withCritical = Array(base[0..<33]) + PNGChunk(type: "ABCD", data: [1, 2, 3]).encoded + base[33...]
        let refusal = try #require(throws: ImageRefusal.self) { try UploadedImage.prepare(withCritical) }
        #expect(refusal.code == .unreadable)
        #expect(refusal.message.contains("ABCD"))
    }
}
