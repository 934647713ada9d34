/// A sticker pack: stickers and how large to draw them. Needs no code; ParlorStickers loads
/// packs from folders and Xcode `.stickerpack` catalogs.
public struct StickerPack: Sendable, Hashable, Codable, Identifiable {
    /// Unique among packs (`party`).
    public var id: String
    /// The pack's name, as people see it.
    public var name: String
    /// Who made the pack, if known.
    public var author: String?
    /// How large a sticker browser draws the pack's stickers.
    public var gridSize: StickerGridSize
    /// The stickers, in order.
    public var stickers: [Sticker]

    /// Creates a pack.
    /// - Parameters:
    ///   - id: unique among packs.
    ///   - name: the pack's name.
    ///   - author: who made it, if known.
    ///   - gridSize: how large to draw the stickers; regular by default.
    ///   - stickers: the stickers, in order.
    public init(id: String, name: String, author: String? = nil, gridSize: StickerGridSize = .regular, stickers: [Sticker]) {
        self.id = id
        self.name = name
        self.author = author
        self.gridSize = gridSize
        self.stickers = stickers
    }
}
