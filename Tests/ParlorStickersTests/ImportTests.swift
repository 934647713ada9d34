import Foundation
import ParlorKit
import Testing
@testable import ParlorStickers

@Suite("Importing packs into a normalized folder")
struct ImportTests {
    @Test("Import copies the valid stickers into <dest>/<pack-id>/ with a pack.json, and the result loads the same")
    func importNormalizes() throws {
        try TemporaryFolder.with { folder in
            let source = try folder.folder("My Pack.stickerpack")
            try folder.write(#"{"info": {"author": "Ann"}, "properties": {"grid-size": "small"}}"#, to: "My Pack.stickerpack/Contents.json")
            try folder.write(Fixtures.jpeg(width: 300, height: 300), to: "My Pack.stickerpack/Photo.sticker/photo.png")
            try folder.write(#"{"properties": {"filename": "photo.png", "accessibility-label": "A photo"}}"#, to: "My Pack.stickerpack/Photo.sticker/Contents.json")
            for index in 1...2 {
                try folder.write(Fixtures.png(width: 300, height: 300, seed: UInt8(index)), to: "My Pack.stickerpack/Spin.stickersequence/\(index).png")
            }
            try folder.write(Fixtures.png(width: 30, height: 30), to: "My Pack.stickerpack/Tiny.sticker/tiny.png")
            let destination = try folder.folder("imported")

            let imported = try StickerPackLoader.import(from: source, into: destination)
            let target = destination.appendingPathComponent("my-pack")
            #expect(imported.directory.standardizedFileURL == target.standardizedFileURL)
            let files = try FileManager.default.contentsOfDirectory(atPath: target.path).sorted()
            #expect(files == ["Photo.jpg", "Spin.png", "pack.json"])
            #expect(imported.pack.id == "my-pack" && imported.pack.name == "My Pack" && imported.pack.author == "Ann")
            #expect(imported.pack.gridSize == .small)
            #expect(imported.pack.stickers.map(\.id) == ["my-pack/Photo.jpg", "my-pack/Spin.png"])
            #expect(imported.pack.stickers.first?.localizedDescription == "A photo")
            #expect(imported.sticker(forAsset: "Spin.png")?.image.format == .apng)
            #expect(imported.problems.map(\.file) == ["Tiny.sticker/tiny.png"], "the left-out sticker is still reported")
            let reloaded = try StickerPackLoader.load(at: target)
            #expect(reloaded.pack == imported.pack)
            #expect(reloaded.problems.isEmpty)
        }
    }

    @Test("Importing again replaces the earlier import of the same pack")
    func reimportReplaces() throws {
        try TemporaryFolder.with { folder in
            let source = try folder.folder("Pack")
            try folder.write(Fixtures.png(width: 400, height: 400), to: "Pack/old.png")
            let destination = try folder.folder("out")
            try StickerPackLoader.import(from: source, into: destination)
            try FileManager.default.removeItem(at: source.appendingPathComponent("old.png"))
            try folder.write(Fixtures.gif(width: 400, height: 400), to: "Pack/new.gif")
            let second = try StickerPackLoader.import(from: source, into: destination)
            #expect(second.pack.stickers.map(\.id) == ["pack/new.gif"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == ["pack"])
        }
    }

    @Test("A pack with no valid sticker is not imported, and the error says why")
    func nothingToImport() throws {
        try TemporaryFolder.with { folder in
            let source = try folder.folder("Bad")
            try folder.write("text", to: "Bad/a.png")
            let destination = try folder.folder("out")
            let error = #expect(throws: MessagesError.self) { try StickerPackLoader.import(from: source, into: destination) }
            #expect(error?.code == .stickerFileImproperFileFormat)
            #expect(error?.message.contains("Bad has no valid sticker to import") == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path).isEmpty)
        }
    }

    @Test("The bundled sample pack imports whole")
    func sampleImports() throws {
        try TemporaryFolder.with { folder in
            let sample = try SamplePacks.pack(id: "everyday")
            let imported = try StickerPackLoader.import(from: sample.directory, into: folder.url)
            #expect(imported.pack == sample.pack)
            #expect(imported.problems.isEmpty)
            for sticker in imported.stickers {
                #expect(try sticker.data() == sample.sticker(forAsset: sticker.assetName)?.data())
            }
        }
    }
}
