import Foundation

/// An HTTP request an app makes through `context.fetch(_:)`.
public struct FetchRequest: Sendable, Hashable {
    public var url: URL
    public var method: String
    public var headers: [String: String]
    public var body: Data?
    public var timeout: Duration

    public init(url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil, timeout: Duration = .seconds(10)) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an `FetchRequest`.
public struct FetchResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Performs HTTP requests for apps; supplied by the host (ParlorKit does no I/O of its own).
public protocol FetchClient: Sendable {
    /// Sends `request`, giving up after `request.timeout`.
    func send(_ request: FetchRequest) async throws -> FetchResponse
}
