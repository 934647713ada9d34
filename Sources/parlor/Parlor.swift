import ArgumentParser
import Foundation

/// `parlor`: run the server and administer it.
@main
struct Parlor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parlor",
        abstract: "Parlor: message apps inside conversations.",
        subcommands: [Serve.self, UserCommand.self, StickersCommand.self, AppsCommand.self])
}

/// Where Parlor keeps its data, shared by the commands that open the store.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "The data directory (env PARLOR_DATA_DIR).")
    var dataDirectory: String = ProcessInfo.processInfo.environment["PARLOR_DATA_DIR"] ?? "parlor-data"

    var dataURL: URL { URL(fileURLWithPath: dataDirectory, isDirectory: true) }
    var databasePath: String { dataURL.appendingPathComponent("parlor.sqlite").path }
    var stickerDirectory: URL { dataURL.appendingPathComponent("stickers", isDirectory: true) }

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
