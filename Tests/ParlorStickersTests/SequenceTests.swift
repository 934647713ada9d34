import Foundation
import ParlorImages
import ParlorKit
import Testing
@testable import ParlorStickers

@Suite("Sticker sequences assembled into APNG")
struct SequenceTests {
    /// The chunks of an APNG, in order.
    private func chunks(_ data: Data) throws -> [PNGChunk] { try PNGChunk.chunks(of: [UInt8](data)) }

    private func writeSequence(in folder: TemporaryFolder, frames: [Data], contents: String?) throws -> URL {
        let pack = try folder.folder("Anim.stickerpack")
        for (index, frame) in frames.enumerated() {
            try folder.write(frame, to: "Anim.stickerpack/Wave.stickersequence/\(index + 1).png")
        }
        if let contents { try folder.write(contents, to: "Anim.stickerpack/Wave.stickersequence/Contents.json") }
        return pack
    }

    @Test("A .stickersequence becomes one animated APNG sticker: acTL frame count, fcTL per frame, IDAT then fdAT in sequence")
    func sequenceBecomesAPNG() throws {
        try TemporaryFolder.with { folder in
            let frames = (1...4).map { Fixtures.png(width: 408, height: 408, seed: UInt8($0)) }
            let contents = """
                {"properties": {"accessibility-label": "Waving hello", "duration": 8, "duration-type": "fps", "repetitions": 2},
                 "frames": [{"filename": "1.png"}, {"filename": "2.png"}, {"filename": "3.png"}, {"filename": "4.png"}]}
                """
            let loaded = try StickerPackLoader.load(at: writeSequence(in: folder, frames: frames, contents: contents))
            #expect(loaded.problems.isEmpty)
            let wave = try #require(loaded.sticker(forAsset: "Wave.png"))
            #expect(wave.sticker.localizedDescription == "Waving hello")
            #expect(wave.image.format == .apng && wave.image.frameCount == 4 && wave.image.isAnimated)

            let chunks = try chunks(wave.data())
            #expect(chunks.map(\.type) == ["IHDR", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND"])
            let control = chunks[1].data
            #expect(control == [0, 0, 0, 4, 0, 0, 0, 3], "4 frames, played once and repeated twice")
            var sequenceNumbers: [UInt32] = []
            for chunk in chunks where chunk.type == "fcTL" || chunk.type == "fdAT" {
                var reader = ByteReader(chunk.data, format: "APNG")
                sequenceNumbers.append(try reader.uint32BigEndian())
            }
            #expect(sequenceNumbers == Array(0..<7))
            let firstControl = chunks[2].data
            #expect(Array(firstControl[20..<24]) == [0, 125, 3, 232], "125/1000 s per frame at 8 fps")
            // Each frame's image data is copied unchanged, behind its sequence number.
            let secondFrame = try PNGChunk.chunks(of: [UInt8](frames[1])).first { $0.type == "IDAT" }
            #expect(Array(chunks[5].data.dropFirst(4)) == secondFrame?.data)
        }
    }

    @Test("Without a Contents.json the folder's frames play in natural order at 15 fps, forever; fixed durations split evenly")
    func sequenceDefaultsAndFixedDuration() throws {
        let forever = SequenceTiming.standard
        #expect(forever.frameDelayMilliseconds(frameCount: 10) == 67 && forever.playCount == 0)
        #expect(SequenceTiming(duration: 2, durationType: .fixed, repetitions: 0).frameDelayMilliseconds(frameCount: 4) == 500)
        #expect(SequenceTiming(duration: 0, durationType: .fps, repetitions: 0).frameDelayMilliseconds(frameCount: 4) == 67)
        try TemporaryFolder.with { folder in
            let pack = try folder.folder("Anim.stickerpack")
            for index in [1, 2, 10] {
                try folder.write(Fixtures.png(width: 400, height: 400, seed: UInt8(index)), to: "Anim.stickerpack/Blink.stickersequence/frame\(index).png")
            }
            let loaded = try StickerPackLoader.load(at: pack)
            let blink = try #require(loaded.stickers.first)
            #expect(blink.sticker.localizedDescription == "Blink")
            #expect(blink.image.frameCount == 3)
            let idat = try PNGChunk.chunks(of: [UInt8](Fixtures.png(width: 400, height: 400, seed: 10))).first { $0.type == "IDAT" }
            let last = try chunks(blink.data()).last { $0.type == "fdAT" }
            #expect(last.map { Array($0.data.dropFirst(4)) } == idat?.data, "frame10 plays last, not after frame1")
        }
    }

    @Test("Apple's misspelled 'repetions' key is read")
    func misspelledRepetitions() throws {
        try TemporaryFolder.with { folder in
            let frames = (1...2).map { Fixtures.png(width: 400, height: 400, seed: UInt8($0)) }
            let pack = try writeSequence(in: folder, frames: frames, contents: #"{"properties": {"repetions": 1, "duration-type": "fixed", "duration": 1}}"#)
            let wave = try #require(try StickerPackLoader.load(at: pack).stickers.first)
            let chunks = try chunks(wave.data())
            #expect(chunks[1].data == [0, 0, 0, 2, 0, 0, 0, 2])
            #expect(Array(chunks[2].data[20..<24]) == [1, 244, 3, 232], "500 ms per frame")
        }
    }

    @Test("Bad frames are reported by name: another format, another size, a missing frame, no frames at all")
    func badFrames() throws {
        let cases: [(String, [Data], String?, MessagesError.Code, String)] = [
            ("gif frame", [Fixtures.png(width: 400, height: 400), Fixtures.gif(width: 400, height: 400)], nil,
             .stickerFileImproperFileFormat, "Wave.stickersequence/2.png is a GIF image"),
            ("size", [Fixtures.png(width: 400, height: 400), Fixtures.png(width: 410, height: 400)], nil,
             .stickerFileImproperFileAttributes, "is 410×400 px but Wave.stickersequence/1.png is 400×400 px"),
            ("palette", [Fixtures.png(width: 400, height: 400), Fixtures.png(width: 400, height: 400, colorType: 3)], nil,
             .stickerFileImproperFileFormat, "another pixel format"),
            ("missing", [Fixtures.png(width: 400, height: 400)], #"{"frames": [{"filename": "1.png"}, {"filename": "7.png"}]}"#,
             .fileNotFound, "Wave.stickersequence/7.png does not exist"),
            ("empty", [], #"{"frames": []}"#, .fileNotFound, "Wave.stickersequence has no frames"),
        ]
        for (name, frames, contents, code, message) in cases {
            try TemporaryFolder.with { folder in
                let loaded = try StickerPackLoader.load(at: writeSequence(in: folder, frames: frames, contents: contents))
                #expect(loaded.stickers.isEmpty, "\(name)")
                #expect(loaded.problems.map(\.code) == [code], "\(name)")
                #expect(loaded.problems.first?.message.contains(message) == true, "\(name): \(loaded.problems)")
            }
        }
    }

    @Test("The assembled APNG is validated like any sticker: frames that add up to more than 500 KB are refused")
    func assembledTooLarge() throws {
        try TemporaryFolder.with { folder in
            let frames = (1...3).map { Fixtures.png(width: 400, height: 400, padding: 200 * 1024, seed: UInt8($0)) }
            let loaded = try StickerPackLoader.load(at: writeSequence(in: folder, frames: frames, contents: nil))
            #expect(loaded.stickers.isEmpty)
            #expect(loaded.problems.map(\.code) == [.stickerFileImproperFileSize])
            #expect(loaded.problems.first?.file == "Wave.stickersequence")
        }
    }
}
