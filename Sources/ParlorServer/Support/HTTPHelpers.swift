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
            throw APIError(.contentTooLarge, code: "bodyTooLarge", "The request body is limited to \(limit) bytes.")
        }
        do {
            return try CompactJSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch {
            throw APIError(.badRequest, code: "malformedBody", "The request body is not the JSON this endpoint expects.")
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

/// Security headers on every response: a strict Content-Security-Policy (no inline scripts or
/// styles), no MIME sniffing, no referrers, no framing of Parlor itself. Errors a route throws
/// become API error bodies here (`APIError(_:)`), so a `MessagesError` keeps its code and status.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        // Remote images go through /images/proxy; video and audio load directly, over https only. Frames: https pages, and http on the viewer's own
        // computer (development); the client frames nothing else (widgets.js `frameable`). The web app's manifest and its
        // service worker (WebAppRoutes) are Parlor's own.
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' https:; "
            + "frame-src https: http://127.0.0.1:* http://localhost:*; connect-src 'self'; manifest-src 'self'; worker-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            let apiError = APIError(error)
            if apiError.status == .internalServerError {
                context.logger.error("A request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            }
            response = try apiError.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        return response
    }
}

extension HTTPField.Name {
    static var referrerPolicy: Self { Self("Referrer-Policy")! }
    static var xForwardedFor: Self { Self("X-Forwarded-For")! }
    static var secFetchSite: Self { Self("Sec-Fetch-Site")! }
}

extension Router {
    /// Answers a method a path does not take with 405 and `Allow` listing those it does, instead
    /// of the unknown-route 404. Call once every route is registered. `staticPaths` are served
    /// by the file middleware (GET and HEAD).
    func answerOtherMethodsWith405(staticPaths: [String]) {
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace]
            + ["QUERY"].compactMap { HTTPRequest.Method($0) }
        var allowedByPath = Dictionary(grouping: routes, by: { $0.path.description }).mapValues { $0.map(\.method) }
        for path in staticPaths { allowedByPath[path, default: []] += [.get, .head] }
        for (path, allowed) in allowedByPath {
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            for method in methods where !allowed.contains(method) {
                self.on(RouterPath(path), method: method) { _, _ -> Response in
                    var error = APIError(.methodNotAllowed, code: "methodNotAllowed", "This address takes \(allow), not \(method.rawValue).")
                    error.headers[.allow] = allow
                    throw error
                }
            }
        }
    }
}
