import Foundation
import ParlorKit

/// Loads, validates and imports sticker packs. A pack needs no code: a folder of images (with an
/// optional pack.json), or an Xcode `.stickerpack` catalog as Xcode writes it. Every sticker is
/// checked by content with `StickerValidator`; a pack with some bad stickers loads the good ones
/// and reports the rest as `StickerProblem`s.
///
/// ```swift
/// let loaded = try StickerPackLoader.load(at: URL(fileURLWithPath: "Party.stickerpack"))
/// print(loaded.pack.stickers.count, "stickers")
/// for problem in loaded.problems { print(problem) }
///
/// let imported = try StickerPackLoader.import(from: source, into: packsFolder)  // <packsFolder>/party/
/// ```
public enum StickerPackLoader {
    /// Reads the pack at `url` and checks every sticker.
    ///
    /// Sticker ids are `<pack-id>/<asset>`; each sticker's image is `.asset(<asset>)`, whose bytes
    /// `LoadedSticker.data()` reads. Asset names come from the file or folder name with the
    /// extension of the format found in the bytes (`Wave.stickersequence` → `Wave.png`).
    /// - Throws: `MessagesError(.fileNotFound)` when there is no folder at `url`,
    ///   `.improperFileType` when it is a file, `.fileUnreadable` when it cannot be listed.
    ///   Problems with single stickers are not thrown: they are in `problems`.
    public static func load(at url: URL) throws(MessagesError) -> LoadedStickerPack {
        let catalog = try PackCatalog.read(at: url)
        var problems = catalog.problems
        var loaded: [LoadedSticker] = []
        var assetNames: Set<String> = []
        for entry in catalog.entries {
            let problemsBefore = problems.count
            do throws(MessagesError) {
                try StickerValidator.validateDescription(entry.description, file: entry.path)
            } catch {
                problems.append(StickerProblem(file: entry.path, error: error))
            }
            do throws(MessagesError) {
                let (data, origin) = try imageData(of: entry)
                let image = try StickerValidator.validateImage(data, file: entry.path, gridSize: catalog.gridSize)
                guard problems.count == problemsBefore else { continue }  // its description is too long
                let assetName = unique("\(CatalogNames.assetStem(entry.stem)).\(image.format.fileExtension)", in: &assetNames)
                let sticker = try Sticker(id: "\(catalog.id)/\(assetName)", image: .asset(assetName), localizedDescription: entry.description)
                loaded.append(LoadedSticker(sticker: sticker, assetName: assetName, image: image, origin: origin))
            } catch {
                problems.append(StickerProblem(file: entry.path, error: error))
            }
        }
        let pack = StickerPack(
            id: catalog.id, name: catalog.name, author: catalog.author, gridSize: catalog.gridSize, stickers: loaded.map(\.sticker))
        return LoadedStickerPack(pack: pack, directory: catalog.directory, stickers: loaded, problems: problems)
    }

    /// Every problem of the pack at `url`, or none when every sticker is valid. Never throws: a
    /// pack that cannot be read at all is one problem.
    public static func validate(at url: URL) -> [StickerProblem] {
        do throws(MessagesError) {
            return try load(at: url).problems
        } catch {
            return [StickerProblem(file: url.lastPathComponent, error: error)]
        }
    }

    /// The image bytes of `entry`: its file, or the APNG assembled from its sequence's frames.
    private static func imageData(of entry: StickerEntry) throws(MessagesError) -> (Data, LoadedSticker.Origin) {
        switch entry.content {
        case .image(let url):
            return (try StickerValidator.readFile(at: url, name: entry.path), .file(url))
        case .sequence(let folder, let frameURLs, let timing):
            let frames = try frameURLs.map { url throws(MessagesError) in
                let name = "\(entry.path)/\(url.lastPathComponent)"
                return APNGAssembler.Frame(name: name, bytes: [UInt8](try StickerValidator.readFile(at: url, name: name)))
            }
            let bytes = try APNGAssembler.assemble(frames, timing: timing, sequenceName: entry.path)
            let data = Data(bytes)
            return (data, .assembled(data, sequence: folder))
        }
    }

    /// `name`, or `name` with `-2`, `-3`… before its extension when taken.
    private static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var counter = 2
        while taken.contains(candidate.lowercased()) {
            candidate = "\(CatalogNames.stem(name))-\(counter).\(CatalogNames.pathExtension(name))"
            counter += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }
}
