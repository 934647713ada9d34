import ArgumentParser
import Foundation
import ParlorStore
import ParlorStoreSQLite

/// What a data directory holds beside the database, copied by backups and restores as they are:
/// imported sticker packs, and the credential files of seed apps run outside the server.
private let foldersBesideDatabase = ["stickers", "apps"]

/// `parlor backup DEST`: a consistent copy of a server's data, taken while it runs.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a consistent snapshot of the data directory (SQLite) while the server runs.",
        discussion: """
            The database is copied with SQLite's online backup: every message the server acknowledged before the \
            backup began is in the copy. Sticker packs and app credentials are copied beside it. For PostgreSQL, \
            use pg_dump (see the README's "Operating Parlor").
            """)

    @OptionGroup var data: DataOptions

    @Argument(help: "A new or empty directory to write the backup to.")
    var destination: String

    func run() async throws {
        let target = URL(fileURLWithPath: destination, isDirectory: true)
        guard try isEmptyOrMissing(target) else {
            throw CommandFailure("\(target.path) is not empty; choose a new directory (a backup never overwrites another).")
        }
        try create(target)
        do {
            try SQLiteStore.backup(databaseAt: data.databasePath, to: target.appendingPathComponent("parlor.sqlite").path)
        } catch let error as StoreError {
            throw CommandFailure("\(error.message) Is --data-dir right? It is \(data.dataURL.path).")
        }
        try copyFolders(from: data.dataURL, to: target)
        print("Backed up \(data.dataURL.path) to \(target.path). Restore it with: parlor restore \(target.path) --data-dir DIR")
    }
}

/// `parlor restore SRC`: a backup made by `parlor backup` becomes a data directory.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make a data directory from a backup made by `parlor backup`.")

    @OptionGroup var data: DataOptions

    @Argument(help: "The backup's directory.")
    var source: String

    @Flag(help: "Replace what the data directory holds (stop its server first).")
    var force = false

    func run() async throws {
        let backup = URL(fileURLWithPath: source, isDirectory: true)
        let database = backup.appendingPathComponent("parlor.sqlite")
        do {
            try SQLiteStore.verify(databaseAt: database.path)
        } catch let error as StoreError {
            throw CommandFailure("\(error.message) Give the directory `parlor backup` wrote.")
        }
        let target = data.dataURL
        if try !isEmptyOrMissing(target) {
            guard force else {
                throw CommandFailure("\(target.path) is not empty; restore into a new directory, or add --force to replace its data (stop its server first).")
            }
            // The old database's journal must go with it: a stale WAL beside the new file would be replayed into it.
            for name in ["parlor.sqlite", "parlor.sqlite-wal", "parlor.sqlite-shm"] + foldersBesideDatabase {
                try? FileManager.default.removeItem(at: target.appendingPathComponent(name))
            }
        }
        try create(target)
        do {
            let incoming = target.appendingPathComponent("parlor.sqlite.restoring")
            try? FileManager.default.removeItem(at: incoming)
            try FileManager.default.copyItem(at: database, to: incoming)
            // Moved into place in one step, so a failed copy never leaves half a database.
            try FileManager.default.moveItem(at: incoming, to: target.appendingPathComponent("parlor.sqlite"))
        } catch {
            throw CommandFailure("The database could not be copied to \(target.path): \(error.localizedDescription).")
        }
        try copyFolders(from: backup, to: target)
        print("Restored \(backup.path) into \(target.path). Start it with: parlor serve --data-dir \(target.path)")
    }
}

private func isEmptyOrMissing(_ folder: URL) throws -> Bool {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return true }
    guard isDirectory.boolValue else { throw CommandFailure("\(folder.path) is a file, not a directory.") }
    return (try? FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty) ?? false
}

private func create(_ folder: URL) throws {
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
        throw CommandFailure("Cannot create \(folder.path): \(error.localizedDescription).")
    }
}

/// Copies `foldersBesideDatabase` that exist in `source` into `target`, keeping their permissions.
private func copyFolders(from source: URL, to target: URL) throws {
    for name in foldersBesideDatabase {
        let folder = source.appendingPathComponent(name, isDirectory: true)
        guard FileManager.default.fileExists(atPath: folder.path) else { continue }
        do {
            try FileManager.default.copyItem(at: folder, to: target.appendingPathComponent(name, isDirectory: true))
        } catch {
            throw CommandFailure("\(folder.path) could not be copied: \(error.localizedDescription).")
        }
    }
}
