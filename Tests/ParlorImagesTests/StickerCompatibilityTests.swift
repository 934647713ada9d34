import Testing
@testable import ParlorImages

/// What the sticker module's `ImageInspectorTests` expect of the inspector it will import from
/// here, so moving it changes nothing for stickers.
@Suite("The inspector behaves as the sticker module's copy did")
struct StickerCompatibilityTests {
    @Test("PNG, GIF and JPEG dimensions; a GIF's frames; hostile sizes reported or refused")
    func dimensions() throws {
        #expect(try ImageInspector.inspect(HeaderFixtures.png(width: 320, height: 410)) == ImageInfo(format: .png, width: 320, height: 410, byteCount: 73))
        let gif = try ImageInspector.inspect(HeaderFixtures.gif(width: 500, height: 301, frames: 5))
        #expect(gif.width == 500 && gif.height == 301 && gif.frameCount == 5)
        #expect(try ImageInspector.inspect(HeaderFixtures.jpeg(width: 618, height: 300)).width == 618)
        #expect(try ImageInspector.inspect(HeaderFixtures.png(width: 1 << 30, height: 100_000)).width == 1 << 30)
        #expect(try ImageInspector.inspect(HeaderFixtures.gif(width: 65_535, height: 65_535)).width == 65_535)
        #expect(throws: ImageParseError.self) { try ImageInspector.inspect(HeaderFixtures.png(width: 0, height: 400)) }
        #expect(throws: ImageParseError.self) { try ImageInspector.inspect(HeaderFixtures.png(width: 0x8000_0000, height: 400)) }
        #expect(try ImageInspector.inspect(HeaderFixtures.apng(width: 350, height: 350, frames: 3)).frameCount == 3)
    }

    @Test("The CRC-32 matches PNG's: an empty IEND chunk always ends in AE 42 60 82")
    func crcMatchesPNG() {
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(PNGChunk(type: "IEND", data: []).encoded.suffix(4) == [0xAE, 0x42, 0x60, 0x82])
    }

    @Test("Content that is not a supported image is named for what it is, WebP no longer among them")
    func unsupportedContentNamed() {
        let cases: [(String, [UInt8])] = [
            ("text", Array("hello, I am a text file".utf8)),
            ("SVG", Array("<?xml version=\"1.0\"?><svg width=\"400\"></svg>".utf8)),
            ("WebP", Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)),
            ("HEIC", [0, 0, 0, 24] + Array("ftypheic".utf8)),
            ("not an image", [0x00, 0x01, 0x02, 0xFE, 0x90, 0x00]),
            ("empty", []),
        ]
        for (expected, bytes) in cases {
            do {
                _ = try ImageInspector.inspect(bytes)
                Issue.record("\(expected) was accepted")
            } catch {
                #expect(error.reason.contains(expected), "\(error.reason)")
            }
        }
    }
}
