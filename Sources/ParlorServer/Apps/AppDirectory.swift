import Foundation
import ParlorHost
import ParlorKit
import ParlorStickers
import Synchronization

/// A sticker pack the server offers: the pack and each sticker's image bytes (a file, or an APNG
/// assembled from a sticker sequence).
public struct StickerPackEntry: Sendable {
    public var loaded: LoadedStickerPack
    public var pack: StickerPack { loaded.pack }

    public init(_ loaded: LoadedStickerPack) {
        self.loaded = loaded
    }
}

/// The apps and sticker packs this server offers: the store users install from. The apps given
/// at start (in process) stay; apps outside the server come and go while it runs (`register`,
/// `unregister`), and every service sees the change at once.
public final class AppDirectory: Sendable {
    private struct Table {
        var apps: [AnyMessagesApp]
        var packs: [StickerPackEntry]
        var appsByID: [AppID: AnyMessagesApp]
        var packsByID: [String: StickerPackEntry]
        /// Imported pack folders already read, with the modification date they had then.
        var importedFolders: [String: Date] = [:]

        init(apps: [AnyMessagesApp], packs: [StickerPackEntry]) {
            self.apps = []
            self.packs = packs
            appsByID = [:]
            packsByID = Dictionary(packs.map { ($0.pack.id, $0) }, uniquingKeysWith: { first, _ in first })
            for app in apps where appsByID[app.manifest.id] == nil {
                self.apps.append(app)
                appsByID[app.manifest.id] = app
            }
        }
    }

    private let table: Mutex<Table>
    /// The ids of the apps given at start: an app outside the server cannot take one.
    public let builtInIDs: Set<AppID>
    /// Asset folders this server has for apps that run outside it (a seed app run out of
    /// process: `parlor serve --out-of-process`), served as if the app were in process.
    private let assetFolders: [AppID: URL]
    /// Where `parlor stickers import` puts packs.
    private let stickerDirectory: URL?
    /// The packs given at start: an import cannot replace one.
    private let bundledPackIDs: Set<String>
    /// Apps the store offers that a new person's drawer leaves out (a developers' example).
    private let storeOnly: Set<AppID>

    public var apps: [AnyMessagesApp] { table.withLock { $0.apps } }
    /// The manifests of the apps given at start: an app outside the server cannot look like one.
    public var builtInManifests: [AppManifest] { apps.map(\.manifest).filter { builtInIDs.contains($0.id) } }
    public var packs: [StickerPackEntry] { table.withLock { $0.packs } }

    /// - Parameter storeOnly: apps the store offers that a new person's drawer leaves out.
    public init(
        apps: [AnyMessagesApp], packs: [StickerPackEntry], assetFolders: [AppID: URL] = [:], stickerDirectory: URL? = nil,
        storeOnly: Set<AppID> = []
    ) {
        let table = Table(apps: apps, packs: packs)
        self.storeOnly = storeOnly
        builtInIDs = Set(table.appsByID.keys)
        bundledPackIDs = Set(table.packsByID.keys)
        self.table = Mutex(table)
        self.assetFolders = assetFolders
        self.stickerDirectory = stickerDirectory
    }

    /// The asset folder this server has for `app` when it runs outside the server.
    public func assetFolder(of app: AppID) -> URL? { assetFolders[app] }

    /// Adds an app outside the server, or replaces it (a new manifest). An id of an app given at
    /// start is refused.
    /// - Returns: whether it was added or replaced.
    @discardableResult
    public func register(_ app: AnyMessagesApp) -> Bool {
        let id = app.manifest.id
        guard !builtInIDs.contains(id) else { return false }
        table.withLock { table in
            if let index = table.apps.firstIndex(where: { $0.manifest.id == id }) {
                table.apps[index] = app
            } else {
                table.apps.append(app)
            }
            table.appsByID[id] = app
        }
        return true
    }

    /// Removes an app outside the server.
    public func unregister(_ id: AppID) {
        guard !builtInIDs.contains(id) else { return }
        table.withLock { table in
            table.apps.removeAll { $0.manifest.id == id }
            table.appsByID[id] = nil
        }
    }

    /// The store of `apps`, the bundled sticker packs, and the packs imported into
    /// `stickerDirectory` (`parlor stickers import`); a folder there that is not a valid pack is
    /// skipped. Packs imported later are offered by `refreshImportedPacks()`.
    /// - Throws: when a bundled pack cannot be read (a broken build).
    public convenience init(
        apps: [AnyMessagesApp], stickerDirectory: URL?, assetFolders: [AppID: URL] = [:], storeOnly: Set<AppID> = []
    ) throws {
        self.init(
            apps: apps, packs: try SamplePacks.all().map(StickerPackEntry.init), assetFolders: assetFolders,
            stickerDirectory: stickerDirectory, storeOnly: storeOnly)
        refreshImportedPacks()
    }

    /// Offers the packs imported into the sticker directory since the last look (a running server
    /// calls this every few seconds, so `parlor stickers import` needs no restart).
    /// - Returns: the ids of the packs added.
    @discardableResult
    public func refreshImportedPacks() -> [String] {
        guard let stickerDirectory, let folders = try? FileManager.default.contentsOfDirectory(
            at: stickerDirectory, includingPropertiesForKeys: [.contentModificationDateKey], options: [.skipsHiddenFiles])
        else { return [] }
        var added: [String] = []
        for folder in folders.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            let stamp = (try? folder.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            guard table.withLock({ $0.importedFolders[folder.lastPathComponent] != stamp }) else { continue }
            let loaded = try? StickerPackLoader.load(at: folder)
            table.withLock { table in
                table.importedFolders[folder.lastPathComponent] = stamp
                guard let loaded else { return }
                let entry = StickerPackEntry(loaded)
                if let index = table.packs.firstIndex(where: { $0.pack.id == loaded.pack.id }) {
                    // A pack imported again replaces the old one; a bundled pack keeps its id.
                    guard !bundledPackIDs.contains(loaded.pack.id) else { return }
                    table.packs[index] = entry
                } else {
                    table.packs.append(entry)
                    added.append(loaded.pack.id)
                }
                table.packsByID[loaded.pack.id] = entry
            }
        }
        return added
    }

    public func app(_ id: AppID) -> AnyMessagesApp? { table.withLock { $0.appsByID[id] } }
    public func pack(_ id: String) -> StickerPackEntry? { table.withLock { $0.packsByID[id] } }

    /// The drawer item id of a sticker pack.
    public static func drawerID(ofPack id: String) -> String { "sticker:" + id }

    /// Every app and pack, in directory order, but the store-only apps: a new user's drawer.
    public var defaultDrawer: [String] {
        table.withLock { table in
            table.apps.map(\.manifest.id).filter { !storeOnly.contains($0) }.map(\.rawValue)
                + table.packs.map { Self.drawerID(ofPack: $0.pack.id) }
        }
    }

    /// Whether `item` names an app or pack of this directory.
    public func contains(drawerItem item: String) -> Bool {
        if item.hasPrefix("sticker:") { return pack(String(item.dropFirst("sticker:".count))) != nil }
        return app(AppID(item)) != nil
    }

    /// The sticker with id `<pack>/<file>`, if a pack has it.
    public func sticker(id: String) -> Sticker? {
        guard let packID = id.split(separator: "/", maxSplits: 1).first.map(String.init), let entry = pack(packID) else { return nil }
        return entry.pack.stickers.first { $0.id == id }
    }

    /// The bytes and media type of a sticker pack's image.
    public func packImage(pack: String, name: String) -> (data: Data, mediaType: String)? {
        guard let sticker = self.pack(pack)?.loaded.sticker(forAsset: name), let data = try? sticker.data() else { return nil }
        return (data, sticker.image.format.mimeType)
    }

    /// Where a client loads an image from: app assets under /assets/apps, inline and web images as they are.
    public static func imageURL(_ source: ImageSource?, app: AppID) -> String? {
        switch source {
        case .asset(let name)?: "/assets/apps/\(pathComponent(app.rawValue))/\(pathComponent(name))"
        case .url(let url)?: url.absoluteString
        case .upload(let id)?: uploadURL(id)
        case nil: nil
        }
    }

    /// Where an uploaded image is fetched (`GET /blobs/:hash`, for who may see it).
    public static func uploadURL(_ id: String) -> String { "/blobs/\(pathComponent(id))" }

    /// Where a client loads a sticker's image from.
    public static func stickerURL(_ sticker: Sticker) -> String {
        switch sticker.image {
        case .asset(let name):
            let pack = sticker.id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
            return "/assets/stickers/\(pathComponent(pack))/\(pathComponent(name))"
        case .url(let url):
            return url.absoluteString
        case .upload(let id):
            return uploadURL(id)
        }
    }

    static func pathComponent(_ text: String) -> String {
        PercentEncoding.encode(text)
    }
}
