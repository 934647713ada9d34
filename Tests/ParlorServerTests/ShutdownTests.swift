import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealBinaryTests {
    @Suite("Stopping the parlor server process")
    struct ShutdownTests {
        @Test("SIGTERM and SIGINT stop the server gracefully: exit status 0, and the data opens again", arguments: [SIGTERM, SIGINT])
        func gracefulStop(signal: Int32) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-shutdown-\(UUID().uuidString)", isDirectory: true)
            let data = folder.appendingPathComponent("data", isDirectory: true)
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }

            let first = try await ParlorProcess.start(dataDirectory: data, log: folder.appendingPathComponent("first.log"))
            #expect(await first.stop(with: signal) == 0)
            let second = try await ParlorProcess.start(dataDirectory: data, log: folder.appendingPathComponent("second.log"))
            #expect(await second.stop(with: signal) == 0)
        }
    }
}
