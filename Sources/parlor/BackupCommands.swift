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
            try copyFolders(from: data.dataURL, to: target)
        } catch {
            // Nothing half made is left to be mistaken for a backup.
            for name in ["parlor.sqlite", "parlor.sqlite-journal"] + foldersBesideDatabase {
                try? FileManager.default.removeItem(at: target.appendingPathComponent(name))
            }
            if let error = error as? StoreError {
                throw CommandFailure("\(error.message) Is --data-dir right? It is \(data.dataURL.path).")
            }
            throw error
        }
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
        let target = data.dataURL
        if try !isEmptyOrMissing(target), !force {
            throw CommandFailure("\(target.path) is not empty; restore into a new directory, or add --force to replace its data (stop its server first).")
        }
        // Everything is staged beside the data first: until it is all there and checked, the old
        // data stays as it was.
        try create(target)
        let staging = target.appendingPathComponent(stagingName, isDirectory: true)
        try? FileManager.default.removeItem(at: staging)
        try create(staging)
        do {
            let database = staging.appendingPathComponent("parlor.sqlite")
            try SQLiteStore.backup(databaseAt: backup.appendingPathComponent("parlor.sqlite").path, to: database.path)
            try SQLiteStore.verify(databaseAt: database.path)
            try copyFolders(from: backup, to: staging)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            if let error = error as? StoreError {
                throw CommandFailure("\(error.message) Give the directory `parlor backup` wrote.")
            }
            throw error
        }
        do {
            // The old database's journal goes with it: a stale WAL beside the new file would be replayed into it.
            for name in ["parlor.sqlite", "parlor.sqlite-wal", "parlor.sqlite-shm"] + foldersBesideDatabase {
                try? FileManager.default.removeItem(at: target.appendingPathComponent(name))
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: staging.path) {
                try FileManager.default.moveItem(at: staging.appendingPathComponent(name), to: target.appendingPathComponent(name))
            }
            try FileManager.default.removeItem(at: staging)
        } catch {
            throw CommandFailure("The restored data could not be moved into \(target.path): \(error.localizedDescription). It is in \(staging.path).")
        }
        print("Restored \(backup.path) into \(target.path). Start it with: parlor serve --data-dir \(target.path)")
    }
}

/// Where `restore` stages the data it brings back, inside the data directory.
private let stagingName = ".parlor-restoring"

private func isEmptyOrMissing(_ folder: URL) throws -> Bool {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return true }
    guard isDirectory.boolValue else { throw CommandFailure("\(folder.path) is a file, not a directory.") }
    return (try? FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { $0 == stagingName }) ?? false
}

/// Creates `folder` when missing, readable by its owner only either way.
private func create(_ folder: URL) throws {
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
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
