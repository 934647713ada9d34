import Foundation
import ParlorKit
import Testing
@testable import ParlorStickers

@Suite("The bundled sample pack")
struct SamplePackTests {
    @Test("The Everyday pack loads from the bundle with at least 12 valid stickers and no problems")
    func everydayLoads() throws {
        let loaded = try SamplePacks.pack(id: "everyday")
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        #expect(loaded.pack.name == "Everyday")
        #expect(loaded.pack.gridSize == .regular)
        #expect(loaded.pack.stickers.count >= 12)
        #expect(loaded.stickers.map(\.sticker) == loaded.pack.stickers)
    }

    @Test("Every sample sticker is within the limits, with a distinct description and a distinct image")
    func everyStickerWithinLimits() throws {
        let loaded = try SamplePacks.pack(id: "everyday")
        var images: Set<Data> = []
        for sticker in loaded.stickers {
            let data = try sticker.data()
            images.insert(data)
            #expect(data.count <= Limits.maxStickerFileSize, "\(sticker.assetName)")
            let info = try StickerValidator.validateImage(data, file: sticker.assetName)
            #expect(info == sticker.image)
            #expect(info.width == 408 && info.height == 408, "\(sticker.assetName) suits the regular grid")
            #expect(!sticker.sticker.localizedDescription.isEmpty)
            #expect(sticker.sticker.localizedDescription.count <= Limits.maxStickerDescriptionLength)
            #expect(sticker.sticker.id == "everyday/\(sticker.assetName)")
            #expect(sticker.sticker.image == .asset(sticker.assetName))
        }
        #expect(images.count == loaded.stickers.count)
        #expect(Set(loaded.pack.stickers.map(\.localizedDescription)).count == loaded.pack.stickers.count)
    }

    @Test("The sample pack has animated stickers: the heart sequence as an APNG and the chick as a GIF")
    func animatedStickers() throws {
        let loaded = try SamplePacks.pack(id: "everyday")
        let heart = try #require(loaded.sticker(forAsset: "Heartbeat.png"))
        #expect(heart.image.format == .apng)
        #expect(heart.image.frameCount == 8)
        guard case .assembled = heart.origin else {
            Issue.record("The heartbeat should be assembled from its sequence frames")
            return
        }
        let chick = try #require(loaded.sticker(forAsset: "Chick.gif"))
        #expect(chick.image.format == .gif)
        #expect(chick.image.isAnimated)
    }
}
