import Foundation
import Hummingbird
import ParlorKit
import ParlorStore

/// `/api/admin/apps`: what `parlor apps` does, over HTTP, for the operator only. Off unless the
/// server has an admin token (`PARLOR_ADMIN_TOKEN`); the token goes as `Authorization: Bearer`
/// (never a cookie, so no page can send it for someone). One address makes at most 30 admin
/// requests with a token a minute, counted before the token is compared, so it cannot be
/// guessed fast.
struct AdminRoutes {
    let services: ParlorServices
    let configuration: ServerConfiguration
    let attempts = RateLimiter(limit: 30, window: .seconds(60))

    func add(to router: Router<ParlorRequestContext>) {
        let registrations = AppRegistrations(store: services.store)
        router.get("/api/admin/apps") { request, context in
            try await requireAdmin(request, context)
            var apps: [Wire.RegisteredAppInfo] = []
            for app in try await registrations.list() {
                apps.append(Wire.RegisteredAppInfo(app, connections: await services.remoteApps.connectionCount(of: app.manifest.id)))
            }
            return try JSONBody.response(apps)
        }
        router.post("/api/admin/apps") { request, context in
            try await requireAdmin(request, context)
            let manifest = try await JSONBody.decode(AppManifest.self, from: request)
            let secret = try await registrations.add(manifest, builtIn: services.directory.builtInIDs)
            try await services.remoteApps.sync()
            return try JSONBody.response(Wire.AppCredential(app: manifest.id, credential: secret), status: .created)
        }
        router.delete("/api/admin/apps/:app") { request, context in
            try await requireAdmin(request, context)
            try await registrations.remove(try appID(context))
            try await services.remoteApps.sync()
            return Response(status: .noContent)
        }
        router.post("/api/admin/apps/:app/credential") { request, context in
            try await requireAdmin(request, context)
            let id = try appID(context)
            let secret = try await registrations.rotateSecret(of: id)
            try await services.remoteApps.sync()
            return try JSONBody.response(Wire.AppCredential(app: id, credential: secret))
        }
    }

    private func appID(_ context: ParlorRequestContext) throws -> AppID {
        guard let id = context.parameters.get("app"), id.count <= AppRegistrations.maxIDLength else { throw APIError.notFound }
        return AppID(id)
    }

    /// - Throws: 404 when the admin API is off (as if it did not exist); 429 past the address's
    ///   allowance; 401 `adminOnly` for a missing or wrong token.
    private func requireAdmin(_ request: Request, _ context: ParlorRequestContext) async throws {
        guard let expected = configuration.adminTokenHash else { throw APIError.notFound }
        let refusal = APIError(.unauthorized, code: "adminOnly", "This needs the server's admin token (PARLOR_ADMIN_TOKEN) as Authorization: Bearer.")
        // No token is no guess: refused without counting.
        guard let token = SessionAuthenticator.bearerToken(in: request) else { throw refusal }
        let address = RateLimiter.networkKey(of: context.clientAddress(of: request, trustedProxies: configuration.trustedProxies))
        if let wait = await attempts.take(address) {
            throw APIError.tooMany("tooManyAttempts", "Too many admin requests from here; try again in \(wait) seconds.", retryAfter: wait)
        }
        guard Digest.constantTimeEqual(Digest.sha256Hex(token), expected) else { throw refusal }
    }
}
