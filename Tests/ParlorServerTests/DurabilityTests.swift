import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

extension RealBinaryTests {
    /// The real `parlor serve`, killed with SIGKILL while clients send: what it acknowledged must be there
    /// after a restart on the same data directory.
    @Suite("Durability of the parlor server process")
    struct DurabilityTests {
        @Test("kill -9 under load from several clients loses no acknowledged message; sequences stay gapless and ordered")
        func acknowledgedMessagesSurviveKill() async throws {
            try await withScratch("parlor-durability") { folder, client in
                let data = folder.appendingPathComponent("data", isDirectory: true)
                try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
                try await run(data: data, logs: folder, client: client)
            }
        }

        private func run(data: URL, logs: URL, client: HTTPClient) async throws {
            let (traffic, acknowledged) = try await ParlorProcess.running(dataDirectory: data, log: logs.appendingPathComponent("first.log")) { first in
                // Three people write in two conversations from six senders until 300 messages are
                // acknowledged, then the server is killed.
                let traffic = try await Traffic(port: first.port, client: client)
                try await traffic.waitForAcknowledged(300)
                await first.kill()
                #expect(first.process.terminationReason == .uncaughtSignal)
                await traffic.stop()
                #expect(await traffic.ledger.interrupted == 6, "every sender was still sending when the server was killed")
                return (traffic, await traffic.ledger.acknowledged)
            }
            try await ParlorProcess.running(dataDirectory: data, log: logs.appendingPathComponent("second.log")) { second in
                try await traffic.check(acknowledged, port: second.port, client: client)
            }
        }
    }
}
