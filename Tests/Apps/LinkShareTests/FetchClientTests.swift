import Foundation
import ParlorHost
import ParlorKit
import Testing

@Suite("The URLSession fetch client")
struct FetchClientTests {
    /// FoundationNetworking on Linux can crash the process when a request is cancelled at the
    /// wrong moment (it once crashed a CI run). The client never cancels: a request whose calling
    /// task is cancelled still runs to its answer.
    @Test("Cancelling the calling task neither cancels the request nor crashes, 200 times over")
    func cancellationIsIgnored() async throws {
        try await FeedServer.run(answering: FeedAnswer(body: "{}", delay: .milliseconds(5))) { server in
            let client = URLSessionFetchClient()
            let request = FetchRequest(url: server.url("/ping"), timeout: .seconds(30))
            for _ in 0..<200 {
                let fetch = Task { try await client.send(request) }
                fetch.cancel()
                let answer = try await fetch.value
                #expect(answer.status == 200)
            }
            #expect(server.requestedPaths.count == 200)
        }
    }
}
