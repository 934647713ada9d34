import Foundation
import ParlorKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `FetchClient` on URLSession: what apps run out of process (`AppRunner`) fetch with, and what
/// tests use to run apps against real (local) servers.
///
/// On Linux, URLSession rounds timeouts to whole seconds (so the timeout is at least one second,
/// rounded up), and cancelling a request that is just completing can hang: this client does not
/// react to task cancellation, and apps that need a sharper deadline keep their own.
public struct URLSessionFetchClient: FetchClient {
    /// Responses larger than this are refused.
    public var maxResponseSize: Int

    public init(maxResponseSize: Int = 4 * 1024 * 1024) {
        self.maxResponseSize = maxResponseSize
    }

    public func send(_ request: FetchRequest) async throws -> FetchResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        let components = request.timeout.components
        urlRequest.timeoutInterval = max(1, (Double(components.seconds) + Double(components.attoseconds) / 1e18).rounded(.up))
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw MessagesError(.networkFailure, "\(request.url.host ?? "The server") did not answer over HTTP.")
        }
        guard data.count <= maxResponseSize else {
            throw MessagesError(.networkFailure, "The answer from \(request.url.host ?? "the server") is too large.")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return FetchResponse(status: http.statusCode, headers: headers, body: data)
    }
}
