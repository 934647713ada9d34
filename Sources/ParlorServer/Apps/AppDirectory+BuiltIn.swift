import Foundation
import Hello
import IconStore
import LinkShare
import ParlorHost
import ParlorStickers
import RSVP
import TicTacToe
import Todo

extension AppDirectory {
    /// The seed apps, the example app and the bundled sticker packs, plus packs imported into
    /// `stickerDirectory` (`parlor stickers import`).
    /// - Parameter feedURL: the feed LinkShare reads (Reddit's r/programming by default).
    public static func builtIn(feedURL: URL? = nil, stickerDirectory: URL? = nil) throws -> AppDirectory {
        let linkShare = feedURL.map { LinkShare(feedURL: $0) } ?? LinkShare()
        let apps = [
            AnyMessagesApp(IconStore()), AnyMessagesApp(TicTacToe()), AnyMessagesApp(RSVP()), AnyMessagesApp(linkShare),
            AnyMessagesApp(Todo()), AnyMessagesApp(Hello()),
        ]
        var packs = try SamplePacks.all().map(StickerPackEntry.init)
        if let stickerDirectory, let folders = try? FileManager.default.contentsOfDirectory(
            at: stickerDirectory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        {
            for folder in folders.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
                if let loaded = try? StickerPackLoader.load(at: folder), !packs.contains(where: { $0.pack.id == loaded.pack.id }) {
                    packs.append(StickerPackEntry(loaded))
                }
            }
        }
        return AppDirectory(apps: apps, packs: packs)
    }
}
