import Foundation
import IconStore
import ParlorKit
import ParlorTesting
import Testing

/// The catalog both surfaces share, the icon files it names, and labels on every control.
@Suite("Icon Store: catalog, images and labels")
struct CatalogTests {
    @Test("The catalog holds the seed's 20 icons, with unique image names and Cat, Owl and Coffee featured")
    func catalogMatchesSeed() {
        let icons = IconCatalog.icons
        #expect(icons.count == 20)
        #expect(Set(icons.map(\.imageName)).count == 20)
        #expect(icons.filter(\.isFeatured).map(\.name) == ["Cat icon", "Owl icon", "Coffee icon"])
        #expect(icons.map(\.price).prefix(4) == ["$3.99", "$2.99", "$1.99", "$4.99"])
        #expect(IconCatalog.icon(imageName: "pumkin")?.price == "$0.99")
        #expect(IconCatalog.icon(imageName: "ic_vespa")?.price == "$9.99")
        #expect(IconCatalog.icon(imageName: "ic_vespa")?.priceValue == "9.99")
    }

    @Test("Every icon, and the app itself, has its own 256x256 PNG in the app's Assets folder")
    func everyIconHasADistinctImage() throws {
        let app = IconStore()
        let folder = try #require(app.assetsDirectory)
        var files: [Data] = []
        for source in IconCatalog.icons.map(\.image) + [app.manifest.icon] {
            guard case .asset(let file) = source else {
                Issue.record("\(source) is not a bundled asset")
                continue
            }
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(file) is a PNG")
            #expect(Self.pixelSize(ofPNG: data) == [256, 256], "\(file) is 256x256")
            files.append(data)
        }
        #expect(files.count == 21)
        #expect(Set(files).count == files.count, "no two icons share an image")
    }

    @Test("Every control on every screen has a label of its own")
    func everyControlIsLabelled() async throws {
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [IconStore()])
        let alice = simulator.participant("Alice"), bob = simulator.participant("Bob")
        var screens: [ViewNode] = []
        screens.append(try await alice.openApp(named: "Icon Store"))
        try await alice.tap("Ghost icon, $4.99")
        try await alice.sendStaged()
        screens.append(try await bob.tapMessage(containing: "Ghost icon"))
        screens.append(try await bob.openHome(named: "Icon Store"))
        try await bob.tapHome("Ghost icon, $4.99", in: "Icon Store")
        screens.append(await bob.homeView())

        for screen in screens {
            let labels = screen.allNodes.compactMap(\.interactiveLabel)
            #expect(!labels.isEmpty)
            #expect(labels.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
            #expect(Set(labels).count == labels.count, "labels are unique: \(labels)")
            for case .image(let image) in screen.allNodes where image.id == "detail-image" {
                #expect(image.label == "Ghost icon")
            }
        }
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pixelSize(ofPNG data: Data) -> [Int]? {
        guard data.count >= 24 else { return nil }
        let bytes = [UInt8](data.prefix(24))
        func int(at offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return [int(at: 16), int(at: 20)]
    }
}
