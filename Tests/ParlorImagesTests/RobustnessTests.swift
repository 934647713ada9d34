import Testing
@testable import ParlorImages

@Suite("Hostile and damaged input: refused, never a crash; cleaning is idempotent")
struct RobustnessTests {
    /// Every sample, with and without metadata, and header-only files.
    static let fixtures: [(name: String, bytes: [UInt8])] = Samples.all + [
        ("JPEG photo", MetadataFixtures.jpegPhoto()),
        ("PNG with text", MetadataFixtures.pngWithText(Samples.png)),
        ("APNG with text", MetadataFixtures.pngWithText(Samples.apng)),
        ("GIF with comments", MetadataFixtures.gifWithComments()),
        ("WebP with extras", MetadataFixtures.webp(Samples.webpLossy, adding: [("XYZW", [1, 2, 3])], trailer: [9, 9])),
        ("header JPEG", HeaderFixtures.jpeg(width: 400, height: 300)),
        ("header GIF", HeaderFixtures.gif(width: 40, height: 30, frames: 2)),
        ("header APNG", HeaderFixtures.apng(width: 40, height: 30, frames: 3)),
        ("header WebP", HeaderFixtures.webp(width: 40, height: 30, animatedFrames: 2)),
    ]

    @Test("Preparing a prepared image gives the same bytes and facts")
    func idempotent() throws {
        for (name, bytes) in Self.fixtures {
            let once = try UploadedImage.prepare(bytes)
            let twice = try UploadedImage.prepare(once.bytes)
            #expect(twice == once, "\(name)")
            #expect(try UploadedImage.checkBudget(once.bytes) == once.info, "\(name)")
        }
    }

    @Test("Every strict prefix of a cleaned image is refused; no prefix of any fixture crashes")
    func everyPrefix() throws {
        for (name, bytes) in Self.fixtures {
            let clean = try UploadedImage.prepare(bytes).bytes
            for length in 0..<clean.count {
                #expect(throws: ImageRefusal.self, "\(name) cut to \(length) bytes") { try UploadedImage.prepare(Array(clean.prefix(length))) }
            }
            for length in 0..<bytes.count {
                _ = try? UploadedImage.prepare(Array(bytes.prefix(length)))
            }
        }
    }

    @Test("Randomly damaged images never crash; what is still accepted is cleaned idempotently")
    func randomDamage() {
        var generator = SeededGenerator(seed: 0x5EED)
        var accepted = 0
        for (name, sample) in Self.fixtures {
            for round in 0..<250 {
                let bytes = Self.damaged(sample, using: &generator)
                guard let once = try? UploadedImage.prepare(bytes) else { continue }
                accepted += 1
                let twice = try? UploadedImage.prepare(once.bytes)
                #expect(twice == once, "\(name), round \(round)")
            }
        }
        #expect(accepted > 0, "no damaged input was accepted, so idempotence was never checked")
    }

    @Test("The fuzzing entry point takes every fixture and damaged ones without stopping the process")
    func fuzzEntryPoint() {
        // `fuzz` stops the process when a promise breaks, as a fuzzer wants; the tests above
        // check the same promises with expectations, so a break shows there first.
        var generator = SeededGenerator(seed: 0xF022)
        for (_, sample) in Self.fixtures {
            UploadedImage.fuzz(sample)
            for _ in 0..<20 { UploadedImage.fuzz(Self.damaged(sample, using: &generator)) }
        }
    }

    @Test("Declared lengths at their largest are refused, not trusted")
    func hugeDeclaredLengths() {
        var jpeg = HeaderFixtures.jpeg(width: 400, height: 300)
        jpeg.replaceSubrange(4..<6, with: [0xFF, 0xFF])  // the APP0 length
        var png = HeaderFixtures.png(width: 400, height: 400)
        png.replaceSubrange(33..<37, with: [0xFF, 0xFF, 0xFF, 0xFF])  // the IDAT length
        var webp = HeaderFixtures.webp(width: 40, height: 30, animatedFrames: 1)
        webp.replaceSubrange(48..<52, with: [0xFE, 0xFF, 0xFF, 0xFF])  // the ANMF size
        var gif = HeaderFixtures.gif(width: 40, height: 30)
        gif.removeLast(5)
        gif += [255, 1, 2]  // a 255-byte sub-block holding 2 bytes
        for bytes in [jpeg, png, webp, gif] {
            let refusal = try? #require(throws: ImageRefusal.self) { try UploadedImage.prepare(bytes) }
            #expect(refusal?.code == .unreadable)
        }
    }

    /// `sample` with a few random bytes changed, and sometimes cut, extended or with a run
    /// of bytes removed.
    static func damaged(_ sample: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = sample
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
        case 1: bytes += (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        case 2:
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...16, using: &generator)))
        default: break
        }
        return bytes
    }
}

@Suite("A small file cannot cost memory many times its size")
struct BlockBoundTests {
    @Test("A GIF of a hundred thousand empty extension blocks, and a JPEG of a hundred thousand markers, are refused")
    func tooManyBlocks() {
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        for _ in 0..<100_000 { gif += [0x21, 0xF9, 0x00] }  // 3 bytes each
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        #expect(throws: ImageRefusal.self) { try UploadedImage.prepare(gif) }
        var jpeg = Array(Samples.jpegBaseline.prefix(2))
        for _ in 0..<100_000 { jpeg += [0xFF, 0xD0] }  // 2 bytes each, before a real image
        jpeg += Samples.jpegBaseline.dropFirst(2)
        #expect(throws: ImageRefusal.self) { try UploadedImage.prepare(jpeg) }
        var few = Array(Samples.jpegBaseline.prefix(2))
        for _ in 0..<100 { few += [0xFF, 0xD0] }
        few += Samples.jpegBaseline.dropFirst(2)
        #expect((try? UploadedImage.prepare(few)) != nil, "a hundred are nothing unusual")
    }
}
