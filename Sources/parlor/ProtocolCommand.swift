import ArgumentParser
import Foundation
import ParlorInput
import ParlorServer

/// `parlor protocol`: writes the WebSocket protocol's published tables (`Wire.ProtocolTable`):
/// docs/protocol.json and the browser client's js/protocol.js.
struct ProtocolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protocol",
        abstract: "Write docs/protocol.json and the browser's js/protocol.js from the server's frame tables.",
        discussion: "Run it from the package's root after changing a frame kind, and commit both files.")

    @Option(help: "The package's root.") var root: String = "."
    @Flag(help: "Change nothing; fail when a file differs from what would be written.") var check = false

    func run() throws {
        let base = URL(fileURLWithPath: root, isDirectory: true)
        var stale: [String] = []
        for file in Wire.ProtocolTable.files {
            let url = base.appendingPathComponent(file.path)
            let contents = file.contents()
            guard (try? String(contentsOf: url, encoding: .utf8)) != contents else { continue }
            if check {
                stale.append(file.path)
            } else {
                do {
                    try Data(contents.utf8).write(to: url, options: .atomic)
                } catch {
                    throw CommandFailure("Cannot write \(url.path): \(error.localizedDescription).")
                }
                print("Wrote \(file.path)")
            }
        }
        if !stale.isEmpty {
            throw CommandFailure("Out of date: \(stale.joined(separator: ", ")). Run `parlor protocol` and commit them.")
        }
    }
}
