import Foundation
import ParlorKit

/// The sticker packs bundled with Parlor (Xcode-style catalogs under this module's `Packs`
/// resource folder), loaded with `StickerPackLoader`.
///
/// ```swift
/// let everyday = try SamplePacks.pack(id: "everyday")
/// let simulator = ConversationSimulator(stickerPacks: [everyday.pack])
/// ```
public enum SamplePacks {
    /// The folder holding the bundled packs.
    public static var directory: URL? {
        Bundle.module.url(forResource: "Packs", withExtension: nil)
    }

    /// Every bundled pack, in folder-name order.
    /// - Throws: `MessagesError(.fileNotFound)` when the resource folder is missing.
    public static func all() throws(MessagesError) -> [LoadedStickerPack] {
        guard let directory else {
            throw MessagesError(.fileNotFound, "The bundled sticker packs are missing from ParlorStickers' resources.")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MessagesError(.fileUnreadable, "The bundled sticker packs could not be listed (\(error.localizedDescription)).")
        }
        return try names.filter { CatalogNames.pathExtension($0) == "stickerpack" }.sorted().map { name throws(MessagesError) in
            try StickerPackLoader.load(at: directory.appendingPathComponent(name, isDirectory: true))
        }
    }

    /// The bundled pack with this id (`everyday`).
    /// - Throws: `MessagesError(.fileNotFound)` when no bundled pack has it.
    public static func pack(id: String) throws(MessagesError) -> LoadedStickerPack {
        let packs = try all()
        guard let pack = packs.first(where: { $0.pack.id == id }) else {
            throw MessagesError(.fileNotFound, "No bundled sticker pack is called '\(id)'; there are \(packs.map(\.pack.id)).")
        }
        return pack
    }
}
