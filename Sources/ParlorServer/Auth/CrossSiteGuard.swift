import Hummingbird

/// Refuses cross-site writes signed by the session cookie. A request that changes state (any
/// method but GET, HEAD and OPTIONS) and is signed by the cookie rather than a bearer token must
/// come from the server's own pages: `Sec-Fetch-Site` says `same-origin` (or `none`: the person
/// typed it), or else `Origin` names this server. And it must not carry one of the content types
/// an HTML form sends to any site without asking (`text/plain`, `application/x-www-form-urlencoded`,
/// `multipart/form-data`). Browsers never attach a bearer token on their own, so those requests
/// pass as they are.
struct CrossSiteGuard: RouterMiddleware {
    typealias Context = ParlorRequestContext
    /// The origin people open behind a proxy (`ServerConfiguration.publicURL`), also accepted.
    let publicOrigin: String?

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options]
    static let formContentTypes: Set<String> = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Signed by the cookie: a bearer token takes precedence (SessionAuthenticator), any other
        // Authorization (a proxy's Basic credentials, which browsers attach themselves) does not.
        let bearer = SessionAuthenticator.bearerToken(in: request) != nil
        if !Self.safeMethods.contains(request.method), !bearer, SessionAuthenticator.sessionCookie(in: request) != nil {
            try Self.check(request, publicOrigin: publicOrigin)
        }
        return try await next(request, context)
    }

    /// - Throws: 403 `crossSiteRequest` unless the request comes from the server's own pages.
    static func check(_ request: Request, publicOrigin: String?) throws {
        let refusal = APIError(
            .forbidden, code: .crossSiteRequest, "This request came from another site; Parlor takes changes only from its own pages.")
        if let site = request.headers[.secFetchSite] {
            guard site == "same-origin" || site == "none" else { throw refusal }
        } else if request.headers[.origin] != nil {
            guard ParlorServer.isSameOrigin(request, publicOrigin: publicOrigin) else { throw refusal }
        }
        if let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased(),
           formContentTypes.contains(type)
        {
            throw refusal
        }
    }
}
