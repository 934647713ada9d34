import ArgumentParser
import Foundation
import ParlorKit

/// `parlor`: run the server and administer it.
@main
struct Parlor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parlor",
        abstract: "Parlor: message apps inside conversations.",
        subcommands: [
            Serve.self, UserCommand.self, StickersCommand.self, AppsCommand.self, Backup.self, Restore.self, ProtocolCommand.self,
        ])
}

/// Where Parlor keeps its data, shared by the commands that open the store.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "The data directory (env PARLOR_DATA_DIR).")
    var dataDirectory: String = ProcessInfo.processInfo.environment["PARLOR_DATA_DIR"] ?? "parlor-data"

    var dataURL: URL { URL(fileURLWithPath: dataDirectory, isDirectory: true) }
    var databasePath: String { dataURL.appendingPathComponent("parlor.sqlite").path }
    var stickerDirectory: URL { dataURL.appendingPathComponent("stickers", isDirectory: true) }

    /// Writes an app's credential to `<data>/apps/<id>.credential`, readable by its owner only.
    /// - Returns: the file's path.
    func writeCredential(_ secret: String, of app: AppID) throws -> String {
        let folder = dataURL.appendingPathComponent("apps", isDirectory: true)
        let file = folder.appendingPathComponent("\(app.rawValue).credential")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CommandFailure("Cannot create \(file.path).")
            }
            try Data(secret.utf8).write(to: file)
        } catch {
            throw CommandFailure("Cannot write \(file.path): \(error.localizedDescription).")
        }
        return file.path
    }

    /// Creates the data directory when missing.
    /// - Throws: a `CommandFailure` that says what to do.
    func prepare() throws {
        do {
            try FileManager.default.createDirectory(at: dataURL, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("Cannot create the data directory \(dataDirectory): \(error.localizedDescription). Choose another with --data-dir.")
        }
    }
}

/// A command that could not do its job: ArgumentParser prints the sentence (no usage) and exits 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
