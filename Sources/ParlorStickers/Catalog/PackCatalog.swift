import Foundation
import ParlorKit

/// What a pack folder declares: an Xcode `.stickerpack` catalog (Contents.json, `.sticker` and
/// `.stickersequence` folders), or a plain folder of images with an optional pack.json. Both
/// read leniently; what cannot be read becomes a problem, not a failure, when the rest can.
struct PackCatalog: Sendable {
    var directory: URL
    var id: String
    var name: String
    var author: String?
    var gridSize: StickerGridSize
    var entries: [StickerEntry]
    var problems: [StickerProblem]

    /// Reads the pack at `url` (or the one `.stickerpack` inside an `.xcstickers` catalog).
    /// - Throws: `MessagesError(.fileNotFound)` when there is no such folder,
    ///   `.improperFileType` when it is a file, `.fileUnreadable` when it cannot be listed.
    static func read(at url: URL) throws(MessagesError) -> PackCatalog {
        let directory = try resolve(url.standardizedFileURL)
        var catalog = PackCatalog(
            directory: directory, id: "", name: "", author: nil, gridSize: .regular, entries: [], problems: [])
        let contents = catalog.readJSON("Contents.json", in: directory)
        let manifest = catalog.readJSON("pack.json", in: directory)
        let contentsProperties = contents?[CatalogKeys.properties]

        let folderName = CatalogNames.stem(directory.lastPathComponent)
        catalog.name = manifest?["name"]?.string ?? folderName
        catalog.id = CatalogNames.packID(manifest?["id"]?.string ?? folderName)
        let contentsAuthor = contents?[CatalogKeys.info]?[CatalogKeys.author]?.string
        catalog.author = manifest?[CatalogKeys.author]?.string ?? (contentsAuthor?.lowercased() == "xcode" ? nil : contentsAuthor)
        let gridValue = manifest?[CatalogKeys.gridSize] ?? contentsProperties?[CatalogKeys.gridSize] ?? contents?[CatalogKeys.gridSize]
        if let grid = gridValue?.string {
            catalog.gridSize = catalog.parseGridSize(grid, file: manifest?[CatalogKeys.gridSize] != nil ? "pack.json" : "Contents.json")
        }

        if let listed = contents?[CatalogKeys.stickers]?.array ?? manifest?[CatalogKeys.stickers]?.array {
            let listFile = contents?[CatalogKeys.stickers]?.array != nil ? "Contents.json" : "pack.json"
            for item in listed {
                let description = item[CatalogKeys.description]?.string
                guard let file = item[CatalogKeys.fileName]?.string ?? item.string else {
                    catalog.problems.append(StickerProblem(
                        file: listFile, error: MessagesError(.fileNotFound, "A sticker listed in the pack has no filename; give it one or remove it.")))
                    continue
                }
                catalog.addEntry(named: file, description: description)
            }
        } else {
            for file in catalog.listFolder(directory, relativeTo: "") { catalog.addEntry(named: file, description: nil) }
        }
        return catalog
    }

    /// The pack folder for `url`: itself, or the single `.stickerpack` inside a folder that holds
    /// no stickers of its own (an Xcode `.xcstickers` catalog).
    private static func resolve(_ url: URL) throws(MessagesError) -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw MessagesError(.fileNotFound, "There is no sticker pack at \(url.path). Check the path.")
        }
        guard isDirectory.boolValue else {
            throw MessagesError(.improperFileType, "\(url.lastPathComponent) is a file; a sticker pack is a folder of images or an Xcode .stickerpack folder.")
        }
        guard url.pathExtension.lowercased() != "stickerpack" else { return url }
        let children: [String]
        do {
            children = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw MessagesError(.fileUnreadable, "The folder \(url.lastPathComponent) could not be listed (\(error.localizedDescription)).")
        }
        let packs = children.filter { CatalogNames.pathExtension($0) == "stickerpack" }
        let ownStickers = children.contains { name in
            !name.hasPrefix(".") && CatalogNames.pathExtension(name) != "stickerpack" && name.lowercased() != "contents.json"
                && !CatalogNames.pathExtension(name).hasSuffix("iconset")
        }
        if packs.count == 1, !ownStickers, let pack = packs.first { return url.appendingPathComponent(pack, isDirectory: true) }
        return url
    }

    private mutating func parseGridSize(_ value: String, file: String) -> StickerGridSize {
        switch CatalogNames.packID(value) {
        case "small": return .small
        case "regular", "medium", "normal": return .regular
        case "large", "big": return .large
        default:
            problems.append(StickerProblem(file: file, error: MessagesError(
                .invalidValue, "The grid size '\(value.prefix(40))' is not small, regular or large; the pack uses regular. Fix the grid-size property.")))
            return .regular
        }
    }
}
