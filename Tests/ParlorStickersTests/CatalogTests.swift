import Foundation
import ParlorKit
import Testing
@testable import ParlorStickers

@Suite("Xcode catalogs and folder packs, read leniently")
struct CatalogTests {
    private let image = Fixtures.png(width: 408, height: 408)

    @Test("An Xcode catalog imports as it is: stickers in Contents.json order with their labels, author and grid size")
    func xcodeCatalog() throws {
        try TemporaryFolder.with { folder in
            let pack = try folder.folder("Llamas.stickerpack")
            try folder.write("""
                {"info": {"author": "com.developerName", "version": 1}, "properties": {"grid-size": "large"},
                 "stickers": [{"filename": "llamaKnows.sticker"}, {"filename": "llamaHalo.sticker"}]}
                """, to: "Llamas.stickerpack/Contents.json")
            for name in ["llamaKnows", "llamaHalo"] {
                try folder.write(Fixtures.png(width: 618, height: 618, seed: UInt8(name.count)), to: "Llamas.stickerpack/\(name).sticker/\(name).png")
                try folder.write(#"{"properties": {"accessibility-label": "The llama says \#(name)", "filename": "\#(name).png"}}"#,
                                 to: "Llamas.stickerpack/\(name).sticker/Contents.json")
            }
            let loaded = try StickerPackLoader.load(at: pack)
            #expect(loaded.problems.isEmpty)
            #expect(loaded.pack.id == "llamas" && loaded.pack.name == "Llamas" && loaded.pack.author == "com.developerName")
            #expect(loaded.pack.gridSize == .large)
            #expect(loaded.pack.stickers.map(\.id) == ["llamas/llamaKnows.png", "llamas/llamaHalo.png"])
            #expect(loaded.pack.stickers.map(\.localizedDescription) == ["The llama says llamaKnows", "The llama says llamaHalo"])
        }
    }

    @Test("Key spellings are accepted: grid-size, gridSize, grid_size, GRID-SIZE and Apple's grid-space; label variants too")
    func lenientKeys() throws {
        let spellings = [("grid-size", "small"), ("gridSize", "large"), ("grid_size", "Regular"), ("GRID-SIZE", "LARGE"), ("grid-space", "small")]
        let labels = ["accessibility-label", "accessibilityLabel", "Accessibility_Label", "ACCESSIBILITYLABEL", "accessibility label"]
        for ((key, value), label) in zip(spellings, labels) {
            try TemporaryFolder.with { folder in
                let pack = try folder.folder("P.stickerpack")
                try folder.write(#"{"Properties": {"\#(key)": "\#(value)"}, "Stickers": [{"FileName": "A.sticker"}]}"#, to: "P.stickerpack/Contents.json")
                try folder.write(image, to: "P.stickerpack/A.sticker/a.png")
                try folder.write(#"{"properties": {"\#(label)": "Waving", "file_name": "a.png"}}"#, to: "P.stickerpack/A.sticker/Contents.json")
                let loaded = try StickerPackLoader.load(at: pack)
                #expect(loaded.problems.isEmpty, "\(key), \(label)")
                #expect(loaded.pack.gridSize == StickerGridSize(rawValue: value.lowercased()), "\(key)")
                #expect(loaded.pack.stickers.first?.localizedDescription == "Waving", "\(label)")
            }
        }
    }

    @Test("Optional keys and files may be missing: no info, no properties, no sticker Contents.json, no stickers list")
    func missingOptionalKeys() throws {
        try TemporaryFolder.with { folder in
            let pack = try folder.folder("Bare.stickerpack")
            try folder.write("{}", to: "Bare.stickerpack/Contents.json")
            try folder.write(image, to: "Bare.stickerpack/happyCat.sticker/whatever.png")
            try folder.write(#"{"properties": {}}"#, to: "Bare.stickerpack/sad_dog.sticker/Contents.json")
            try folder.write(image, to: "Bare.stickerpack/sad_dog.sticker/dog.png")
            let loaded = try StickerPackLoader.load(at: pack)
            #expect(loaded.problems.isEmpty)
            #expect(loaded.pack.gridSize == .regular)
            #expect(loaded.pack.author == nil)
            #expect(loaded.pack.stickers.map(\.localizedDescription) == ["Happy cat", "Sad dog"])
            #expect(loaded.stickers.map(\.assetName) == ["happyCat.png", "sad_dog.png"])
        }
    }

    @Test("Apple's sample Contents.json, which is not valid JSON, still loads its stickers and reports the file")
    func malformedContentsFallsBackToListing() throws {
        try TemporaryFolder.with { folder in
            let pack = try folder.folder("Sample.stickerpack")
            try folder.write("""
                {"properties" : {"grid-space" : "regular"},
                   "stickers" : [ { "filename" : "llamaHalo.sticker" }, "filename" : "llamaKnows.sticker" } ] }
                """, to: "Sample.stickerpack/Contents.json")
            try folder.write(image, to: "Sample.stickerpack/llamaHalo.sticker/halo.png")
            try folder.write(image, to: "Sample.stickerpack/llamaKnows.sticker/knows.png")
            let loaded = try StickerPackLoader.load(at: pack)
            #expect(loaded.pack.stickers.count == 2)
            #expect(loaded.problems.map(\.file) == ["Contents.json"])
            #expect(loaded.problems.map(\.code) == [.fileUnreadable])
        }
    }

    @Test("A pack with some bad stickers loads the good ones and reports each bad one by file")
    func partialPack() throws {
        try TemporaryFolder.with { folder in
            let pack = try folder.folder("Mixed")
            try folder.write(Fixtures.png(width: 400, height: 400), to: "Mixed/good-one.png")
            try folder.write(Fixtures.gif(width: 400, height: 400, frames: 2), to: "Mixed/good-two.gif")
            try folder.write(Fixtures.jpeg(width: 300, height: 300), to: "Mixed/good-three.jpg")
            try folder.write(Fixtures.png(width: 100, height: 100), to: "Mixed/tiny.png")
            try folder.write("not a picture", to: "Mixed/notes.png")
            try folder.write("These are my stickers.", to: "Mixed/README.md")
            let loaded = try StickerPackLoader.load(at: pack)
            #expect(loaded.pack.stickers.map(\.id) == ["mixed/good-one.png", "mixed/good-three.jpg", "mixed/good-two.gif"])
            #expect(loaded.pack.stickers.map(\.localizedDescription) == ["Good one", "Good three", "Good two"])
            #expect(loaded.problems.map(\.file) == ["notes.png", "tiny.png"])
            #expect(loaded.problems.map(\.code) == [.stickerFileImproperFileFormat, .stickerFileImproperFileAttributes])
            #expect(StickerPackLoader.validate(at: pack) == loaded.problems)
        }
    }

    @Test("Grid size: a folder pack defaults to regular, pack.json sets it, an unknown value falls back to regular with a problem")
    func gridSizes() throws {
        try TemporaryFolder.with { folder in
            for (name, manifest, expected) in [("Plain", nil, StickerGridSize.regular), ("Small", #"{"grid-size": "small"}"#, .small),
                                               ("Large", #"{"gridSize": "large", "name": "Big Ones"}"#, .large), ("Odd", #"{"gridSize": "huge"}"#, .regular)] {
                try folder.write(image, to: "\(name)/a.png")
                if let manifest { try folder.write(manifest, to: "\(name)/pack.json") }
                let loaded = try StickerPackLoader.load(at: folder.url.appendingPathComponent(name))
                #expect(loaded.pack.gridSize == expected, "\(name)")
                #expect(loaded.problems.map(\.code) == (name == "Odd" ? [.invalidValue] : []))
            }
            #expect(try StickerPackLoader.load(at: folder.url.appendingPathComponent("Large")).pack.name == "Big Ones")
        }
    }

    @Test("A folder pack's pack.json names the pack and orders and describes its stickers")
    func folderPackManifest() throws {
        try TemporaryFolder.with { folder in
            let pack = try folder.folder("stuff")
            try folder.write(#"{"id": "party", "name": "Party", "author": "Ann", "stickers": [{"file": "b.png", "description": "Balloons"}, {"file": "a.png"}]}"#, to: "stuff/pack.json")
            try folder.write(Fixtures.png(width: 400, height: 400, seed: 1), to: "stuff/a.png")
            try folder.write(Fixtures.png(width: 400, height: 400, seed: 2), to: "stuff/b.png")
            let loaded = try StickerPackLoader.load(at: pack)
            #expect(loaded.pack.id == "party" && loaded.pack.name == "Party" && loaded.pack.author == "Ann")
            #expect(loaded.pack.stickers.map(\.id) == ["party/b.png", "party/a.png"])
            #expect(loaded.pack.stickers.map(\.localizedDescription) == ["Balloons", "A"])
        }
    }

    @Test("An .xcstickers catalog holding one .stickerpack loads that pack")
    func xcstickersCatalog() throws {
        try TemporaryFolder.with { folder in
            let catalog = try folder.folder("Stickers.xcstickers")
            try folder.write(#"{"info": {"author": "xcode", "version": 1}}"#, to: "Stickers.xcstickers/Contents.json")
            _ = try folder.folder("Stickers.xcstickers/iMessage App Icon.stickersiconset")
            try folder.write(#"{"info": {"author": "xcode", "version": 1}}"#, to: "Stickers.xcstickers/Sticker Pack.stickerpack/Contents.json")
            try folder.write(image, to: "Stickers.xcstickers/Sticker Pack.stickerpack/Wave.sticker/wave.png")
            let loaded = try StickerPackLoader.load(at: catalog)
            #expect(loaded.pack.id == "sticker-pack")
            #expect(loaded.pack.stickers.map(\.id) == ["sticker-pack/Wave.png"])
            #expect(loaded.pack.author == nil, "Xcode's placeholder author is not a person")
        }
    }
}
