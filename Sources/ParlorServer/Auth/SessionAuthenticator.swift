import Hummingbird
import ParlorStore

/// Finds the signed-in user from `Authorization: Bearer <token>` (API clients) or the session
/// cookie (browsers) and puts it in the context. Routes that need a user call `requireUser()`.
struct SessionAuthenticator: RouterMiddleware {
    typealias Context = ParlorRequestContext
    let accounts: Accounts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = Self.token(in: request), let user = try await accounts.user(token: token) {
            context.user = user
            context.tokenHash = Accounts.hash(token: token)
        }
        return try await next(request, context)
    }

    static func token(in request: Request) -> String? {
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            return String(authorization.dropFirst("Bearer ".count))
        }
        return request.cookies[Accounts.cookieName]?.value
    }
}
