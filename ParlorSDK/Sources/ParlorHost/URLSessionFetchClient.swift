import Foundation
@_spi(Hosting) import ParlorKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `FetchClient` on URLSession: what apps run out of process (`AppRunner`) fetch with, and what
/// tests use to run apps against real (local) servers.
///
/// On Linux, URLSession rounds timeouts to whole seconds (so the timeout is at least one second,
/// rounded up), and cancelling a request can crash the process: a cancel that lands while the
/// session consults its URL cache reaches a task already gone from the session's registry
/// ("Trying to access a behaviour for a task that is not in the registry",
/// swiftlang/swift-corelibs-foundation#3296). So this client never cancels a request: it ignores
/// task cancellation (the request ends at its own timeout), and its session has no URL cache.
/// Apps that need a sharper deadline keep their own.
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
        let (data, response) = try await Self.load(urlRequest)
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

    /// The session every request goes through: no cache, so none of the cache's background hops.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// Loads `request` to its end, whatever happens to the calling task (see the type's comment:
    /// URLSession's own async `data(for:)` cancels the request when the task is cancelled).
    private static func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }.resume()
        }
    }
}
