import Testing
@testable import ParlorImages

@Suite("Reading image headers by content")
struct InspectorTests {
    @Test("WebP sizes come from the VP8 frame header, the VP8L header and the VP8X canvas; ANMF chunks count the frames")
    func webpSizes() throws {
        #expect(try ImageInfo.inspect(Samples.webpLossy) == ImageInfo(format: .webp, width: 16, height: 16, byteCount: Samples.webpLossy.count))
        #expect(try ImageInfo.inspect(Samples.webpLossless) == ImageInfo(format: .webp, width: 8, height: 8, byteCount: 54))
        let animated = try ImageInfo.inspect(Samples.webpAnimated)
        #expect(animated.width == 8 && animated.frameCount == 2 && animated.isAnimated)
        let widest = try ImageInfo.inspect(HeaderFixtures.simpleWebP(width: 16_384, height: 9_999))
        #expect(widest.width == 16_384 && widest.height == 9_999)
        let canvas = try ImageInfo.inspect(HeaderFixtures.webp(width: 100_000, height: 3, animatedFrames: 2))
        #expect(canvas.width == 100_000 && canvas.height == 3 && canvas.frameCount == 2)
        #expect(ImageFormat.webp.mimeType == "image/webp" && ImageFormat.webp.fileExtension == "webp")
    }

    /// Ways to damage the lossy WebP sample.
    enum WebPDamage: String, CaseIterable, Sendable {
        case riffSizePastTheEnd, riffSizeTooSmall, chunkPastTheRIFFSize, canvasNotTheImageSize, frameOutsideTheCanvas, lossyWithoutKeyFrame

        var bytes: [UInt8] {
            var bytes = Samples.webpLossy
            switch self {
            case .riffSizePastTheEnd: bytes.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
            case .riffSizeTooSmall: bytes.replaceSubrange(4..<8, with: [4, 0, 0, 0])
            case .chunkPastTheRIFFSize: bytes.replaceSubrange(16..<20, with: [0xF0, 0xFF, 0xFF, 0x7F])  // the VP8X size
            case .canvasNotTheImageSize: bytes[24] = 9  // canvas width - 1
            case .frameOutsideTheCanvas:
                bytes = HeaderFixtures.webp(width: 1, height: 1, animatedFrames: 1)
                bytes[52] = 5  // the ANMF x offset / 2
            case .lossyWithoutKeyFrame: bytes[38] |= 1  // the VP8 frame tag's inter-frame bit
            }
            return bytes
        }
    }

    @Test("Damaged WebP files are refused as unreadable, with a reason naming WebP", arguments: WebPDamage.allCases)
    func damagedWebP(damage: WebPDamage) {
        let bytes = damage.bytes
        do {
            _ = try ImageInspector.inspect(bytes)
            Issue.record("\(damage) was accepted")
        } catch {
            #expect(error.reason.contains("WebP"), "\(damage): \(error.reason)")
        }
        let refusal = try? #require(throws: ImageRefusal.self) { try UploadedImage.prepare(bytes) }
        #expect(refusal?.code == .unreadable, "\(damage)")
    }

    @Test("Every JPEG frame header type is read: SOF0–SOF3, SOF5–SOF7, SOF9–SOF11, SOF13–SOF15")
    func everySOFType() throws {
        let types: [UInt8] = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]
        for type in types {
            let info = try ImageInfo.inspect(HeaderFixtures.jpeg(width: 321, height: 123, sof: type))
            #expect(info.width == 321 && info.height == 123, "SOF \(type)")
        }
        // DHT (C4) in a frame header's place is a table, not a frame: no size is read from it.
        #expect(throws: ImageParseError.self) { try ImageInspector.inspect(HeaderFixtures.jpeg(width: 321, height: 123, sof: 0xC4)) }
    }

    @Test("Content that is none of the formats is refused as unsupported, saying what it is")
    func unsupportedContent() throws {
        let cases: [(String, [UInt8])] = [
            ("HEIC", [0, 0, 0, 24] + Array("ftypheic".utf8)),
            ("AVIF", [0, 0, 0, 24] + Array("ftypavif".utf8)),
            ("SVG", Array("<?xml version=\"1.0\"?><svg width=\"400\"></svg>".utf8)),
            ("text", Array("hello, I am a text file".utf8)),
            ("PDF", Array("%PDF-1.7".utf8)),
            ("not an image", [0x00, 0x01, 0x02, 0xFE, 0x90, 0x00]),
            ("empty", []),
        ]
        for (expected, bytes) in cases {
            let refusal = try #require(throws: ImageRefusal.self) { try UploadedImage.prepare(bytes) }
            #expect(refusal.code == .unsupportedFormat || expected == "empty", "\(expected)")
            #expect(refusal.message.contains(expected), "\(refusal.message)")
            #expect(refusal.message.hasPrefix("This file is"))
        }
    }
}
