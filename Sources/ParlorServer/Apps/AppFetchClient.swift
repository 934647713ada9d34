import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ParlorKit
import ParlorStore

/// A fetch client that can also connect to an address given in advance instead of resolving the
/// host again.
protocol AddressPinningFetchClient: FetchClient {
    /// `request`, connecting to `address` whatever `host` resolves to by then.
    func send(_ request: FetchRequest, connectingTo address: String, for host: String) async throws -> FetchResponse
}

/// Apps' HTTP requests, through AsyncHTTPClient (redirects are not followed: a redirect could
/// lead past the manifest's hosts). Responses over 4 MiB are refused.
struct ServerFetchClient: AddressPinningFetchClient {
    let client: AsyncHTTPClient.HTTPClient
    static let maxResponseBytes = 4 * 1024 * 1024

    func send(_ request: FetchRequest) async throws -> FetchResponse {
        try await send(request, through: client)
    }

    /// `request`, connecting to `address` whatever `host` resolves to by then (an address checked
    /// to be public; the name is still sent, for TLS and virtual hosts).
    func send(_ request: FetchRequest, connectingTo address: String, for host: String) async throws -> FetchResponse {
        let pinned = PublicHosts.client(connectingTo: address, for: host, connectTimeout: .seconds(5), readTimeout: .seconds(10))
        defer { pinned.shutdown { _ in } }
        return try await send(request, through: pinned)
    }

    private func send(_ request: FetchRequest, through client: HTTPClient) async throws -> FetchResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(outgoing, timeout: TimeAmount(request.timeout))
            let body = try await response.body.collect(upTo: Self.maxResponseBytes)
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            return FetchResponse(status: Int(response.status.code), headers: headers, body: Data(buffer: body))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw MessagesError(.networkFailure, "\(request.url.host ?? "The server") did not answer in time.")
        }
    }
}

/// One app's HTTP requests, through the server's client.
///
/// - A host the manifest names (not only through `*`: any host) is reached as it resolves: the
///   operator added an app that names it.
/// - A host allowed only through `*` must resolve to public addresses only, and the request goes
///   to the address checked: a person cannot aim an app at the server's own network (a feed on
///   `localhost`, or on a public name that resolves to a private address).
/// - Each failure is logged at warning level: the app, the host (never the path, query or
///   credentials of the URL) and the reason (the HTTP status, or why the request failed).
///   Successful requests are not logged.
struct AppFetchClient: FetchClient {
    let client: any AddressPinningFetchClient
    let manifest: AppManifest
    /// Private addresses allowed for every host (tests, and servers on a private network).
    let allowPrivateHosts: Bool
    let logger: Logger

    var app: AppID { manifest.id }

    func send(_ request: FetchRequest) async throws -> FetchResponse {
        let response: FetchResponse
        do {
            response = try await pinnedIfNeeded(request)
        } catch {
            let reason = (error as? MessagesError)?.message ?? String(describing: error)
            logFailure(of: request, reason: String(reason.prefix(300)))
            throw error
        }
        if !(200..<300).contains(response.status) {
            logFailure(of: request, reason: "HTTP \(response.status)")
        }
        return response
    }

    private func pinnedIfNeeded(_ request: FetchRequest) async throws -> FetchResponse {
        guard let host = request.url.host, !allowPrivateHosts, !manifest.names(host: host) else {
            return try await client.send(request)
        }
        let address = try await PublicHosts.address(of: host, allowPrivate: false, for: .appRequest)
        return try await client.send(request, connectingTo: address, for: host)
    }

    private func logFailure(of request: FetchRequest, reason: String) {
        logger.warning("An app's fetch failed", metadata: [
            "app": "\(app)", "host": "\(request.url.host ?? "(none)")", "method": "\(request.method)", "reason": "\(reason)",
        ])
    }
}
