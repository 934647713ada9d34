import Foundation
import ParlorKit

extension StickerPackLoader {
    /// Imports the pack at `source` into `destination`: its valid stickers are copied into a
    /// normalized folder `<destination>/<pack-id>/` (one image file per sticker, sequences as
    /// APNG) with a pack.json naming the pack, its grid size and each sticker's description.
    /// An existing import of the same pack is replaced.
    ///
    /// - Returns: the imported pack, read back from its new folder; `problems` lists the
    ///   stickers of `source` that were left out.
    /// - Throws: what `load(at:)` throws; the first problem's error when no sticker is valid;
    ///   `MessagesError(.fileUnreadable)` when the destination cannot be written.
    @discardableResult
    public static func `import`(from source: URL, into destination: URL) throws(MessagesError) -> LoadedStickerPack {
        let loaded = try load(at: source)
        guard !loaded.stickers.isEmpty else {
            let first = loaded.problems.first.map { " The first problem: \($0.file): \($0.message)" } ?? ""
            throw MessagesError(
                loaded.problems.first?.code ?? .fileNotFound,
                "\(source.lastPathComponent) has no valid sticker to import (\(loaded.problems.count) problems).\(first)")
        }
        let target = destination.appendingPathComponent(loaded.pack.id, isDirectory: true)
        let staging = destination.appendingPathComponent(".\(loaded.pack.id).importing-\(UUID().uuidString)", isDirectory: true)
        let files = FileManager.default
        do {
            try files.createDirectory(at: staging, withIntermediateDirectories: true)
            for sticker in loaded.stickers {
                try sticker.data().write(to: staging.appendingPathComponent(sticker.assetName))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(PackManifest(loaded)).write(to: staging.appendingPathComponent("pack.json"))
            if files.fileExists(atPath: target.path) { try files.removeItem(at: target) }
            try files.moveItem(at: staging, to: target)
        } catch {
            try? files.removeItem(at: staging)  // best effort: the write already failed
            throw MessagesError(
                .fileUnreadable, "The pack could not be written to \(destination.path) (\(error.localizedDescription)). Check that the folder is writable.")
        }
        var imported = try load(at: target)
        imported.problems = loaded.problems + imported.problems
        return imported
    }
}

/// The pack.json of a normalized pack folder, as `StickerPackLoader.import` writes it.
struct PackManifest: Codable, Sendable {
    struct Entry: Codable, Sendable {
        var file: String
        var description: String
    }

    var id: String
    var name: String
    var author: String?
    var gridSize: StickerGridSize
    var stickers: [Entry]

    init(_ loaded: LoadedStickerPack) {
        id = loaded.pack.id
        name = loaded.pack.name
        author = loaded.pack.author
        gridSize = loaded.pack.gridSize
        stickers = loaded.stickers.map { Entry(file: $0.assetName, description: $0.sticker.localizedDescription) }
    }
}
