/// A sticker pack: stickers and how large to draw them. Needs no code; ParlorStickers loads
/// packs from folders and Xcode `.stickerpack` catalogs.
public struct StickerPack: Sendable, Hashable, Codable, Identifiable {
    /// Unique among packs (`party`).
    public var id: String
    public var name: String
    public var author: String?
    public var gridSize: StickerGridSize
    public var stickers: [Sticker]

    public init(id: String, name: String, author: String? = nil, gridSize: StickerGridSize = .regular, stickers: [Sticker]) {
        self.id = id
        self.name = name
        self.author = author
        self.gridSize = gridSize
        self.stickers = stickers
    }
}
