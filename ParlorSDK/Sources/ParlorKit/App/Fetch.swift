import Foundation

/// An HTTP request an app makes through `context.fetch(_:)`.
public struct FetchRequest: Sendable, Hashable {
    /// The address; its host must be one the manifest allows.
    public var url: URL
    /// The HTTP method (`GET`, `POST`).
    public var method: String
    /// The request's header fields, by name.
    public var headers: [String: String]
    /// The request body, if any.
    public var body: Data?
    /// How long to wait for the answer before giving up.
    public var timeout: Duration

    /// Creates a request.
    /// - Parameters:
    ///   - url: the address.
    ///   - method: the HTTP method; `GET` by default.
    ///   - headers: the header fields.
    ///   - body: the request body, if any.
    ///   - timeout: how long to wait; 10 seconds by default.
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
    /// The HTTP status code (200, 404).
    public var status: Int
    /// The response's header fields, by name.
    public var headers: [String: String]
    /// The response body; empty when there is none.
    public var body: Data

    /// Creates a response; hosts and tests make these.
    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: the header fields.
    ///   - body: the response body.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Performs HTTP requests for apps; supplied by the host (ParlorKit does no I/O of its own).
public protocol FetchClient: Sendable {
    /// Sends `request`, giving up after `request.timeout`.
    /// - Parameter request: the request to send.
    /// - Returns: the server's answer, whatever its status.
    func send(_ request: FetchRequest) async throws -> FetchResponse
}
