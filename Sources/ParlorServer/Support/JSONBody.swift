import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@_spi(Hosting) import ParlorKit

/// JSON in and out of routes, with a body size limit and ISO 8601 dates.
enum JSONBody {
    /// Decodes the request body as `T`.
    /// - Throws: `APIError` 413 over `limit` bytes, 400 when it is not the expected JSON.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 64 * 1024) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, code: .bodyTooLarge, "The request body is limited to \(limit) bytes.")
        }
        do {
            return try CompactJSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch {
            throw APIError(.badRequest, code: .malformedBody, "The request body is not the JSON this endpoint expects.")
        }
    }

    /// A JSON response.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try CompactJSONEncoder.wire.encode(value))))
    }
}
