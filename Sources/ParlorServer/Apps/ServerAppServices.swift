import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ParlorKit
import ParlorStore

/// An app's container for one user, kept in the store.
struct StoreContainer: AppContainer {
    let store: any ParlorStore
    let user: UserID
    let app: AppID
    static let maxValueBytes = 1024 * 1024

    func data(forKey key: String) async throws -> Data? {
        try await store.containerData(user: user, app: app, key: key)
    }

    func setData(_ data: Data?, forKey key: String) async throws {
        guard key.count <= 200, (data?.count ?? 0) <= Self.maxValueBytes else {
            throw MessagesError(.mediaExceedsMaxSize, "A stored value is limited to \(Self.maxValueBytes) bytes and its key to 200 characters.")
        }
        try await store.setContainerData(data, user: user, app: app, key: key)
    }
}

/// Apps' HTTP requests, through AsyncHTTPClient. Responses over 4 MiB are refused.
struct ServerFetchClient: FetchClient {
    let client: AsyncHTTPClient.HTTPClient
    static let maxResponseBytes = 4 * 1024 * 1024

    func send(_ request: FetchRequest) async throws -> FetchResponse {
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
