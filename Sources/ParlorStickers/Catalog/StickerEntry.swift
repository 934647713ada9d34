import Foundation

/// One sticker as a pack's catalog describes it, before its image is read and checked.
struct StickerEntry: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        /// One image file.
        case image(URL)
        /// A `.stickersequence`: PNG frames in order and how they play.
        case sequence(folder: URL, frames: [URL], timing: SequenceTiming)
    }

    /// Where the sticker is, relative to the pack folder, for messages
    /// ("Cat.sticker/cat.png", "Wave.stickersequence").
    var path: String
    /// The stem of the sticker's asset name ("Cat").
    var stem: String
    var description: String
    var content: Content
}

/// The keys each value may go by. Keys are compared folded (case, dashes and underscores
/// ignored), so these list only the spellings that differ in letters, Apple's own misspellings
/// ("grid-space", "repetions") among them.
enum CatalogKeys {
    static let gridSize = ["grid-size", "grid-space", "size"]
    static let fileName = ["filename", "file", "name", "path"]
    static let description = ["accessibility-label", "accessibility", "localized-description", "description", "label", "title"]
    static let stickers = ["stickers", "sticker"]
    static let frames = ["frames", "frame", "images"]
    static let properties = ["properties", "property", "props"]
    static let info = ["info"]
    static let author = ["author"]
    static let duration = ["duration"]
    static let durationType = ["duration-type", "duration-kind"]
    static let repetitions = ["repetitions", "repetions", "repetition", "repeats", "repeat-count", "loops"]
}
