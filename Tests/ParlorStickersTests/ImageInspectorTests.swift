import Foundation
import ParlorImages
import ParlorKit
import Testing
@testable import ParlorStickers

@Suite("Reading image headers by content")
struct ImageInspectorTests {
    @Test("PNG, GIF and JPEG dimensions come from the IHDR, the logical screen and the SOF marker")
    func dimensionsFromHeaders() throws {
        let png = try ImageInspector.inspect(Fixtures.pngBytes(width: 320, height: 410))
        #expect(png == ImageInfo(format: .png, width: 320, height: 410, byteCount: png.byteCount))
        let gif = try ImageInspector.inspect([UInt8](Fixtures.gif(width: 500, height: 301)))
        #expect(gif.format == .gif && gif.width == 500 && gif.height == 301 && !gif.isAnimated)
        let jpeg = try ImageInspector.inspect([UInt8](Fixtures.jpeg(width: 618, height: 300)))
        #expect(jpeg.format == .jpeg && jpeg.width == 618 && jpeg.height == 300)
    }

    @Test("A GIF with several images is animated and counts its frames")
    func animatedGIF() throws {
        let info = try ImageInspector.inspect([UInt8](Fixtures.gif(width: 400, height: 400, frames: 5)))
        #expect(info.frameCount == 5)
        #expect(info.isAnimated)
    }

    @Test("A PNG with an acTL chunk is an APNG with the declared number of frames")
    func apngDetected() throws {
        let frames = (0..<3).map { APNGAssembler.Frame(name: "f\($0).png", bytes: Fixtures.pngBytes(width: 350, height: 350, seed: UInt8($0))) }
        let bytes = try APNGAssembler.assemble(frames, timing: .standard, sequenceName: "Wave.stickersequence")
        let info = try ImageInspector.inspect(bytes)
        #expect(info.format == .apng)
        #expect(info.frameCount == 3)
        #expect(info.width == 350)
    }

    @Test("The CRC-32 matches PNG's: an empty IEND chunk always ends in AE 42 60 82")
    func crcMatchesPNG() {
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(PNGChunk(type: "IEND", data: []).encoded.suffix(4) == [0xAE, 0x42, 0x60, 0x82])
    }

    @Test("Every truncation of a PNG, GIF or JPEG is refused as a bad format, including zero bytes")
    func truncatedFilesRefused() {
        let samples: [(String, [UInt8])] = [
            ("PNG", Fixtures.pngBytes(width: 400, height: 400)),
            ("GIF", [UInt8](Fixtures.gif(width: 400, height: 400, frames: 2))),
            ("JPEG", [UInt8](Fixtures.jpeg(width: 400, height: 400))),
        ]
        for (format, bytes) in samples {
            for length in 0..<bytes.count {
                #expect(throws: ImageParseError.self, "\(format) cut to \(length) bytes") {
                    try ImageInspector.inspect(Array(bytes.prefix(length)))
                }
            }
        }
    }

    @Test("Hostile declared sizes are refused or reported, never trusted: chunk lengths, block sizes, dimensions")
    func hostileDeclaredSizes() throws {
        var hugeChunk = Fixtures.pngBytes(width: 400, height: 400)
        hugeChunk.replaceSubrange(33..<37, with: [0xFF, 0xFF, 0xFF, 0xFF])  // the IDAT length
        #expect(throws: ImageParseError.self) { try ImageInspector.inspect(hugeChunk) }

        var bigSubBlock = [UInt8](Fixtures.gif(width: 400, height: 400))
        bigSubBlock.removeLast(5)  // cut the last image's data and trailer…
        bigSubBlock += [255, 1, 2]  // …and declare a 255-byte sub-block holding 2 bytes
        #expect(throws: ImageParseError.self) { try ImageInspector.inspect(bigSubBlock) }

        let huge = try ImageInspector.inspect(Fixtures.pngBytes(width: 1 << 30, height: 100_000))
        #expect(huge.width == 1 << 30)
        #expect(throws: ImageParseError.self) { try ImageInspector.inspect(Fixtures.pngBytes(width: 0, height: 400)) }
        #expect(throws: ImageParseError.self) { try ImageInspector.inspect(Fixtures.pngBytes(width: 0x8000_0000, height: 400)) }
        let gif = try ImageInspector.inspect([UInt8](Fixtures.gif(width: 65_535, height: 65_535)))
        #expect(gif.width == 65_535)
    }

    @Test("Randomly damaged images never crash the reader, and a damaged PNG is caught by its checksums")
    func damagedBytesNeverCrash() {
        var generator = SeededGenerator(seed: 42)
        let samples = [
            Fixtures.pngBytes(width: 400, height: 400), [UInt8](Fixtures.gif(width: 400, height: 400, frames: 3)),
            [UInt8](Fixtures.jpeg(width: 400, height: 400)),
        ]
        for sample in samples {
            for _ in 0..<400 {
                var bytes = sample
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                _ = try? ImageInspector.inspect(bytes)
            }
        }
        var png = Fixtures.pngBytes(width: 400, height: 400)
        png[42] ^= 0xFF  // inside the IDAT data
        #expect(throws: ImageParseError.self) { try ImageInspector.inspect(png) }
    }

    @Test("Content that is not PNG, GIF or JPEG is named for what it is")
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

/// A small deterministic random number generator (SplitMix64), so a failure reproduces.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
