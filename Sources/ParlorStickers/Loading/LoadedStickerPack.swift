import Foundation
import ParlorImages
import ParlorKit

/// A sticker that passed validation, with what its image is and where its bytes come from.
public struct LoadedSticker: Sendable, Hashable {
    /// Where a sticker's image bytes are.
    public enum Origin: Sendable, Hashable {
        /// A file on disk, used as it is.
        case file(URL)
        /// An APNG assembled from a `.stickersequence` folder's frames, held in memory.
        case assembled(Data, sequence: URL)
    }

    /// The sticker; its image is `.asset(assetName)`.
    public var sticker: Sticker
    /// The file name the image is served and imported under (`wave.png`), unique in its pack.
    public var assetName: String
    /// The image's format, size and frames, read from its bytes.
    public var image: ImageInfo
    /// Where the image's bytes are: a file, or an APNG assembled in memory.
    public var origin: Origin

    /// The image's bytes.
    /// - Throws: `MessagesError(.fileUnreadable)` when the file can no longer be read.
    public func data() throws(MessagesError) -> Data {
        switch origin {
        case .assembled(let data, _):
            return data
        case .file(let url):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw MessagesError(.fileUnreadable, "\(url.lastPathComponent) could not be read any more (\(error.localizedDescription)).")
            }
        }
    }
}

/// A sticker pack read from a folder: the pack, each valid sticker's image, and the problems
/// that kept other stickers out.
public struct LoadedStickerPack: Sendable, Hashable {
    /// The pack with its valid stickers, in the catalog's order.
    public var pack: StickerPack
    /// The pack's folder.
    public var directory: URL
    /// The valid stickers, in `pack.stickers` order.
    public var stickers: [LoadedSticker]
    /// What is wrong with the stickers left out (and with the pack's own files).
    public var problems: [StickerProblem]

    /// Creates a loaded pack; `StickerPackLoader` makes these.
    public init(pack: StickerPack, directory: URL, stickers: [LoadedSticker], problems: [StickerProblem]) {
        self.pack = pack
        self.directory = directory
        self.stickers = stickers
        self.problems = problems
    }

    /// The loaded sticker whose image is `.asset(name)`.
    public func sticker(forAsset name: String) -> LoadedSticker? {
        stickers.first { $0.assetName == name }
    }

    /// The loaded sticker with this id (`<pack-id>/<file>`).
    public func sticker(withID id: Sticker.ID) -> LoadedSticker? {
        stickers.first { $0.sticker.id == id }
    }
}
