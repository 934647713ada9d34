import AsyncHTTPClient
import Foundation
import Testing

extension RealBinaryTests {
    /// `parlor backup` and `parlor restore` on the real executable, while a server writes.
    @Suite("Backing up a running server and restoring it")
    struct BackupTests {
        @Test("A backup taken during a stream of sends, restored into a new directory, has every message acknowledged before it began; restore refuses a non-empty directory")
        func backupDuringSends() async throws {
            try await withScratch("parlor-backup") { folder, client in
                let (data, backup, restored) = (folder.appendingPathComponent("data"), folder.appendingPathComponent("backup"), folder.appendingPathComponent("restored"))
                try FileManager.default.createDirectory(at: data.appendingPathComponent("apps"), withIntermediateDirectories: true)
                try Data("parlor_app_kept".utf8).write(to: data.appendingPathComponent("apps/org.example.kept.credential"))
                try await run(data: data, backup: backup, restored: restored, logs: folder, client: client)
            }
        }

        private func run(data: URL, backup: URL, restored: URL, logs folder: URL, client: HTTPClient) async throws {
            let (traffic, before) = try await ParlorProcess.running(dataDirectory: data, log: folder.appendingPathComponent("first.log")) { server in
                let traffic = try await Traffic(port: server.port, client: client)
                try await traffic.waitForAcknowledged(100)
                let before = await traffic.ledger.acknowledged
                let made = try await ParlorProcess.command(["backup", backup.path, "--data-dir", data.path])
                #expect(made.status == 0, "\(made.output)")
                #expect(made.output.contains("Backed up"), "\(made.output)")
                let database = try FileManager.default.attributesOfItem(atPath: backup.appendingPathComponent("parlor.sqlite").path)
                let folder = try FileManager.default.attributesOfItem(atPath: backup.path)
                #expect((database[.posixPermissions] as? Int) == 0o600 && (folder[.posixPermissions] as? Int) == 0o700,
                        "a backup holds private messages: its owner's only")
                // Sends went on during the backup and go on after it.
                let during = await traffic.ledger.count
                try await traffic.waitForAcknowledged(during + 50)
                await traffic.stop()
                let again = try await ParlorProcess.command(["backup", backup.path, "--data-dir", data.path])
                #expect(again.status != 0 && again.output.contains("not empty"), "a backup never overwrites another: \(again.output)")
                return (traffic, before)
            }

            let refused = try await ParlorProcess.command(["restore", backup.path, "--data-dir", data.path])
            #expect(refused.status != 0, "the old data directory is not empty")
            #expect(refused.output.contains("--force"), "the refusal says how to overwrite: \(refused.output)")
            let restore = try await ParlorProcess.command(["restore", backup.path, "--data-dir", restored.path])
            try #require(restore.status == 0, "\(restore.output)")
            #expect(try String(contentsOf: restored.appendingPathComponent("apps/org.example.kept.credential"), encoding: .utf8) == "parlor_app_kept",
                    "files beside the database come back too")
            try await ParlorProcess.running(dataDirectory: restored, log: folder.appendingPathComponent("restored.log")) { server in
                try await traffic.check(before, port: server.port, client: client)
            }
            // With --force, the backup replaces the old directory's data, stale journal and all.
            let forced = try await ParlorProcess.command(["restore", backup.path, "--data-dir", data.path, "--force"])
            #expect(forced.status == 0, "\(forced.output)")
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent(".parlor-restoring").path), "nothing staged is left")
            try await ParlorProcess.running(dataDirectory: data, log: folder.appendingPathComponent("forced.log")) { server in
                try await traffic.check(before, port: server.port, client: client)
            }
        }
    }
}
