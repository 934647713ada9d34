import Foundation
import Hummingbird
import ParlorInput
@_spi(Hosting) import ParlorKit
import ParlorStore

/// An error as the API reports it: an HTTP status, a stable code and a message a person can act on.
/// The body is `{"error": {"code": "...", "message": "..."}}`.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    /// For `sessionConflict`: the session's head now, as the client sees messages.
    public var details: [String: String]
    /// Headers the answer carries besides its JSON (`Allow` on a 405).
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, code: Wire.ErrorCode, _ message: String, details: [String: String] = [:]) {
        self.init(status, wireCode: code.rawValue, message, details: details)
    }

    /// `code` as the wire spells it: one of `Wire.ErrorCode` or a Messages code's name.
    private init(_ status: HTTPResponse.Status, wireCode code: String, _ message: String, details: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
    }

    public static let unauthorized = APIError(.unauthorized, code: .unauthorized, "Sign in first.")
    /// Used for anything a user may not see, so it does not reveal that it exists.
    public static let notFound = APIError(.notFound, code: .notFound, "There is no such thing here.")

    public static func invalid(_ message: String) -> APIError { APIError(.badRequest, code: .invalidValue, message) }

    /// A 429: `details.retryAfter` (and the `Retry-After` header) say the seconds to wait.
    public static func tooMany(_ code: Wire.ErrorCode, _ message: String, retryAfter seconds: Int) -> APIError {
        APIError(.tooManyRequests, code: code, message, details: ["retryAfter": "\(seconds)"])
    }

    /// The API form of any error: `MessagesError` keeps its code, `StoreError` maps to a status,
    /// anything else is a 500 with no detail.
    public init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as MessagesError:
            let status: HTTPResponse.Status = switch error.code {
            case .sessionConflict, .idInUse: .conflict
            case .fileNotFound: .notFound
            case .urlExceedsMaxSize, .textExceedsMaxSize, .mediaExceedsMaxSize, .stickerFileImproperFileSize: .contentTooLarge
            case .hostNotAllowed: .forbidden
            case .unknown: .internalServerError
            default: .badRequest
            }
            self.init(status, wireCode: error.code.name, error.message)
        case let error as StoreError:
            switch error.code {
            case .conflict: self.init(.conflict, code: .conflict, error.message)
            case .notFound: self = .notFound
            case .invalid: self.init(.badRequest, code: .invalidValue, error.message)
            default: self.init(.serviceUnavailable, code: .unavailable, "The server cannot save right now; try again.")
            }
        case is SessionConflict:
            self.init(.conflict, code: .sessionConflict, "Someone else updated this first.")
        default:
            self.init(.internalServerError, code: .unknown, "Something went wrong on the server.")
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Wire.ErrorReply(error: .init(code: code, message: message, details: details.isEmpty ? nil : details))
        let data = try CompactJSONEncoder.wire.encode(body)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        // A 429's wait, for clients that read the standard header rather than the body.
        if let retryAfter = details["retryAfter"] { headers[.retryAfter] = retryAfter }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
