import Foundation
import ParlorKit
import Testing
@testable import ParlorStickers

/// Each sticker rule with its error code, on packs written into a temporary folder.
@Suite("Sticker rules and their error codes")
struct StickerRuleTests {
    /// Loads a folder pack holding just `file` and returns its one problem (or nil).
    private func problem(for data: Data, named file: String) throws -> StickerProblem? {
        try TemporaryFolder.with { folder in
            try folder.write(data, to: "Pack/\(file)")
            let loaded = try StickerPackLoader.load(at: folder.url.appendingPathComponent("Pack"))
            #expect(loaded.problems.count + loaded.stickers.count == 1)
            return loaded.problems.first
        }
    }

    @Test("A file over 500 KB is refused with stickerFileImproperFileSize, naming the file and the limit")
    func tooLarge() throws {
        let big = Fixtures.png(width: 400, height: 400, padding: Limits.maxStickerFileSize)
        let problem = try #require(try problem(for: big, named: "big.png"))
        #expect(problem.code == .stickerFileImproperFileSize)
        #expect(problem.file == "big.png")
        #expect(problem.message.contains("big.png") && problem.message.contains("500 KB"))
        #expect(try self.problem(for: Fixtures.png(width: 400, height: 400, padding: Limits.maxStickerFileSize - 100), named: "ok.png") == nil)
    }

    @Test("A huge file is refused by its size without being read")
    func hugeFileNotRead() throws {
        try TemporaryFolder.with { folder in
            let file = try folder.write(Fixtures.png(width: 400, height: 400), to: "Pack/huge.png")
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: 8 << 30)  // a sparse 8 GB file
            try handle.close()
            let loaded = try StickerPackLoader.load(at: folder.url.appendingPathComponent("Pack"))
            #expect(loaded.problems.map(\.code) == [.stickerFileImproperFileSize])
            #expect(loaded.problems.first?.message.contains("8388608 KB") == true)
        }
    }

    @Test("Content that is not an image is refused with stickerFileImproperFileFormat, whatever its extension")
    func notAnImage() throws {
        let problem = try #require(try problem(for: Data("just some text".utf8), named: "smile.png"))
        #expect(problem.code == .stickerFileImproperFileFormat)
        #expect(problem.message.contains("smile.png is text, not an image"))
        let empty = try #require(try self.problem(for: Data(), named: "empty.gif"))
        #expect(empty.code == .stickerFileImproperFileFormat)
        #expect(empty.message.contains("empty.gif is empty"))
        let truncated = try #require(try self.problem(for: Fixtures.jpeg(width: 400, height: 400).prefix(60), named: "cut.jpg"))
        #expect(truncated.code == .stickerFileImproperFileFormat)
        #expect(truncated.message.contains("truncated"))
    }

    @Test("A JPEG named .png loads as a JPEG and is served as .jpg")
    func contentBeatsExtension() throws {
        try TemporaryFolder.with { folder in
            try folder.write(Fixtures.jpeg(width: 400, height: 400), to: "Pack/photo.png")
            try folder.write(Fixtures.png(width: 400, height: 400), to: "Pack/drawing.dat")
            let loaded = try StickerPackLoader.load(at: folder.url.appendingPathComponent("Pack"))
            #expect(loaded.problems.isEmpty)
            let photo = try #require(loaded.sticker(forAsset: "photo.jpg"))
            #expect(photo.image.format == .jpeg)
            #expect(photo.sticker.id == "pack/photo.jpg")
            #expect(loaded.sticker(forAsset: "drawing.png")?.image.format == .png)
        }
    }

    @Test("Sides of 300 and 618 px pass; 299 and 619 are refused with stickerFileImproperFileAttributes")
    func pixelRange() throws {
        #expect(try problem(for: Fixtures.png(width: 300, height: 618), named: "edge.png") == nil)
        #expect(try problem(for: Fixtures.gif(width: 618, height: 300), named: "edge.gif") == nil)
        for (width, height) in [(299, 400), (400, 619), (2000, 2000), (65_535, 65_535)] {
            let problem = try #require(try problem(for: Fixtures.jpeg(width: width, height: height), named: "odd.jpg"))
            #expect(problem.code == .stickerFileImproperFileAttributes)
            #expect(problem.message.contains("odd.jpg is \(width)×\(height) px"))
            #expect(problem.message.contains("300 to 618 px"))
        }
    }

    @Test("A description of 151 characters is refused with stickerFileImproperFileAttributes; 150 pass")
    func descriptionLength() throws {
        try TemporaryFolder.with { folder in
            let pack = try folder.folder("Pack.stickerpack")
            for (name, length) in [("Long", 151), ("Fits", 150)] {
                try folder.write(Fixtures.png(width: 400, height: 400), to: "Pack.stickerpack/\(name).sticker/image.png")
                try folder.write(
                    #"{"properties": {"filename": "image.png", "accessibility-label": "\#(String(repeating: "a", count: length))"}}"#,
                    to: "Pack.stickerpack/\(name).sticker/Contents.json")
            }
            let loaded = try StickerPackLoader.load(at: pack)
            #expect(loaded.pack.stickers.map(\.localizedDescription.count) == [150])
            #expect(loaded.problems.map(\.code) == [.stickerFileImproperFileAttributes])
            #expect(loaded.problems.first?.file == "Long.sticker/image.png")
            #expect(loaded.problems.first?.message.contains("151 characters; the limit is 150") == true)
        }
    }

    @Test("A listed file that does not exist is fileNotFound; a folder where an image should be is fileUnreadable")
    func missingAndUnreadable() throws {
        try TemporaryFolder.with { folder in
            let pack = try folder.folder("Pack")
            try folder.write(#"{"stickers": [{"file": "gone.png"}, {"file": "folder.png"}]}"#, to: "Pack/pack.json")
            _ = try folder.folder("Pack/folder.png")
            let loaded = try StickerPackLoader.load(at: pack)
            #expect(loaded.problems.map(\.code) == [.fileNotFound, .fileUnreadable])
            #expect(loaded.problems.map(\.file) == ["gone.png", "folder.png"])
            #expect(loaded.problems[0].message.contains("gone.png does not exist"))
        }
    }

    @Test("A pack path that does not exist throws fileNotFound; a file throws improperFileType; validate reports both")
    func packPathErrors() throws {
        try TemporaryFolder.with { folder in
            let missing = folder.url.appendingPathComponent("Nope")
            #expect(throws: MessagesError(.fileNotFound, "There is no sticker pack at \(missing.standardizedFileURL.path). Check the path.")) {
                try StickerPackLoader.load(at: missing)
            }
            let file = try folder.write(Fixtures.png(width: 400, height: 400), to: "single.png")
            #expect(StickerPackLoader.validate(at: file).map(\.code) == [.improperFileType])
            #expect(StickerPackLoader.validate(at: missing).map(\.code) == [.fileNotFound])
        }
    }

    @Test("Names in a catalog that point outside the pack folder are refused")
    func pathTraversalRefused() throws {
        try TemporaryFolder.with { folder in
            try folder.write(Fixtures.png(width: 400, height: 400), to: "secret.png")
            let pack = try folder.folder("Pack")
            try folder.write(#"{"stickers": [{"file": "../secret.png"}, {"file": "/etc/passwd"}]}"#, to: "Pack/pack.json")
            let loaded = try StickerPackLoader.load(at: pack)
            #expect(loaded.stickers.isEmpty)
            #expect(loaded.problems.map(\.code) == [.improperFileURL, .improperFileURL])
        }
    }
}
