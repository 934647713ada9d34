import Hummingbird

/// What only the operator may reach (`/api/admin/…`, `/metrics` on the public listener). Off
/// unless the server has an admin token (`PARLOR_ADMIN_TOKEN`), and then answered 404 as if it did
/// not exist; the token goes as `Authorization: Bearer` (never a cookie, so no page can send it
/// for someone). One address makes at most 30 requests with a token a minute, counted before the
/// token is compared, so it cannot be guessed fast.
struct AdminGate: Sendable {
    let configuration: ServerConfiguration
    let attempts = RateLimiter(limit: 30, window: .seconds(60))

    /// - Throws: 404 when there is no admin token; 429 past the address's allowance; 401
    ///   `adminOnly` for a missing or wrong token.
    func check(_ request: Request, _ context: ParlorRequestContext) async throws {
        guard let expected = configuration.adminTokenHash else { throw APIError.notFound }
        let refusal = APIError(.unauthorized, code: .adminOnly, "This needs the server's admin token (PARLOR_ADMIN_TOKEN) as Authorization: Bearer.")
        // No token is no guess: refused without counting.
        guard let token = SessionAuthenticator.bearerToken(in: request) else { throw refusal }
        let address = RateLimiter.networkKey(of: context.clientAddress(of: request, trustedProxies: configuration.trustedProxies))
        if let wait = await attempts.take(address) {
            throw APIError.tooMany(.tooManyAttempts, "Too many admin requests from here; try again in \(wait) seconds.", retryAfter: wait)
        }
        guard Digest.constantTimeEqual(Digest.sha256Hex(token), expected) else { throw refusal }
    }
}
