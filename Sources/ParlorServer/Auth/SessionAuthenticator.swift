import Foundation
import Hummingbird
import ParlorStore

/// Finds the signed-in user from `Authorization: Bearer <token>` (API clients) or the session
/// cookie (browsers) and puts it in the context. Routes that need a user call `requireUser()`.
///
/// Every credential a request carries must hold, for the same person: a bearer token or a cookie
/// that signs someone else in or no one makes the request anonymous rather than being passed
/// over. `Authorization` headers of other schemes (a proxy's `Basic`) are not Parlor's: ignored.
struct SessionAuthenticator: RouterMiddleware {
    typealias Context = ParlorRequestContext
    let accounts: Accounts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let tokens = Self.tokens(in: request)
        if let first = tokens.first, let user = try await accounts.user(token: first) {
            var agree = true
            for other in tokens.dropFirst() where other != first {
                if try await accounts.user(token: other)?.id != user.id { agree = false }
            }
            if agree {
                context.user = user
                context.tokenHash = Accounts.hash(token: first)
                // Who asked, in every line this request logs (the id, never the token).
                context.logger[metadataKey: "user"] = "\(user.id)"
            }
        }
        return try await next(request, context)
    }

    /// The bearer token and the session cookie's, those present, in that order.
    static func tokens(in request: Request) -> [String] {
        [bearerToken(in: request), sessionCookie(in: request)].compactMap { $0 }
    }

    /// The token of an `Authorization: Bearer` header (the scheme in any case); nil for none or
    /// another scheme (a proxy's `Basic` credentials are not Parlor's).
    static func bearerToken(in request: Request) -> String? {
        guard let parts = request.headers[.authorization]?.split(separator: " ", maxSplits: 1), parts.count == 2,
              parts[0].lowercased() == "bearer"
        else { return nil }
        return String(parts[1])
    }

    /// The session cookie's value, an empty one included (it is a credential that does not hold,
    /// not an absent one).
    static func sessionCookie(in request: Request) -> String? {
        let prefix = Accounts.cookieName + "="
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces)
                if pair.hasPrefix(prefix) { return String(pair.dropFirst(prefix.count)) }
            }
        }
        return nil
    }
}
