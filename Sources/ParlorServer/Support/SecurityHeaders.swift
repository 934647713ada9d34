import HTTPTypes
import Hummingbird

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
        response.headers[.contentSecurityPolicy] =
            DeveloperDocs.serves(request.uri.path) ? DeveloperDocs.contentSecurityPolicy : Self.contentSecurityPolicy
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
