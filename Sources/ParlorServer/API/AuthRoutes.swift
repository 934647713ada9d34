import Foundation
import Hummingbird
import ParlorInput
import ParlorStore

/// `/api/auth/*` and `/api/me`: sign up, sign in, sign out (here or everywhere), the password
/// and the person's settings.
struct AuthRoutes {
    let accounts: Accounts
    let sessions: Sessions
    let configuration: ServerConfiguration
    let caches: ViewerCaches
    let bus: any ClusterBus

    struct SignUp: Decodable {
        let username: String
        let displayName: String
        let password: String
    }

    struct SignIn: Decodable {
        let username: String
        let password: String
    }

    func add(to router: Router<ParlorRequestContext>) {
        router.post("/api/auth/signup") { request, context in
            let body = try await JSONBody.decode(SignUp.self, from: request)
            let address = context.clientAddress(of: request, trustedProxies: configuration.trustedProxies)
            let user = try await accounts.signUp(
                username: body.username, displayName: body.displayName, password: body.password, address: address)
            let token = try await accounts.issueToken(for: user.id)
            return try JSONBody.response(Wire.Session(user: Wire.User(user), token: token), status: .created, headers: cookie(token))
        }
        router.post("/api/auth/signin") { request, context in
            let body = try await JSONBody.decode(SignIn.self, from: request)
            let address = context.clientAddress(of: request, trustedProxies: configuration.trustedProxies)
            let (user, token) = try await accounts.signIn(username: body.username, password: body.password, address: address)
            return try JSONBody.response(Wire.Session(user: Wire.User(user), token: token), headers: cookie(token))
        }
        router.get("/api/auth/notice") { _, _ in
            try JSONBody.response(Wire.AuthNotice(notice: configuration.signInNotice))
        }
        router.get("/api/rules") { _, _ in
            try JSONBody.response(Wire.Rules(configuration))
        }
        router.post("/api/auth/signout") { _, context in
            if let user = context.user, let hash = context.tokenHash { try await sessions.signOut(user: user.id, tokenHash: hash) }
            return Response(status: .noContent, headers: cookie(nil))
        }
        router.post("/api/auth/signout-everywhere") { _, context in
            let user = try context.requireUser()
            let ended = try await sessions.signOutEverywhere(user: user.id)
            return try JSONBody.response(Wire.SessionsEnded(ended: ended), headers: cookie(nil))
        }
        router.post("/api/me/password") { request, context in
            let user = try context.requireUser()
            guard let hash = context.tokenHash else { throw APIError.unauthorized }
            let change = try await JSONBody.decode(Wire.PasswordChange.self, from: request, limit: 4 * 1024)
            let address = context.clientAddress(of: request, trustedProxies: configuration.trustedProxies)
            let ended = try await sessions.changePassword(
                of: user, current: change.currentPassword, new: change.newPassword, keeping: hash, address: address)
            return try JSONBody.response(Wire.SessionsEnded(ended: ended))
        }
        router.get("/api/me") { _, context in
            let user = try context.requireUser()
            return try JSONBody.response(Wire.Me(user: Wire.User(user), sharesReadReceipts: try await accounts.store.sharesReadReceipts(user.id)))
        }
        router.patch("/api/me") { request, context in
            let user = try context.requireUser()
            let change = try await JSONBody.decode(Wire.MeChange.self, from: request, limit: 4 * 1024)
            if let shares = change.sharesReadReceipts { try await accounts.store.setSharesReadReceipts(shares, user: user.id) }
            if let avatar = change.avatar {
                try await setAvatar(avatar, of: user.id)
            }
            let now = try await accounts.store.user(id: user.id) ?? user
            return try JSONBody.response(Wire.Me(user: Wire.User(now), sharesReadReceipts: try await accounts.store.sharesReadReceipts(user.id)))
        }
    }

    /// Sets `user`'s profile picture to an image they uploaded, or clears it (nil). A photo someone
    /// else sent, which `user` can see, is not theirs to show to everyone they talk to (nor to keep
    /// showing once its sender unsent it).
    /// - Throws: `avatarNotFound` (404) for a blob that is not their upload; `improperFileType`
    ///   (400) for one that is not an image.
    func setAvatar(_ hash: String?, of user: UserID) async throws {
        if let hash {
            guard hash.count == 64, let blob = try await accounts.store.uploadInfo(hash: hash, owner: user) else {
                throw APIError(.notFound, code: "avatarNotFound", "There is no upload of yours with that hash; upload the picture first.")
            }
            guard blob.contentType.hasPrefix("image/") else {
                throw APIError(.badRequest, code: "improperFileType", "A profile picture is an image: PNG, JPEG or GIF.")
            }
        }
        try await accounts.store.setAvatar(hash, user: user)
        await caches.forgetUser(user)
        await bus.publish(.userChanged(user))
    }

    /// The session cookie: HttpOnly, SameSite=Strict; nil clears it.
    func cookie(_ token: String?) -> HTTPFields {
        let lifetime = token == nil ? 0 : configuration.sessionLifetime.components.seconds
        var value = "\(Accounts.cookieName)=\(token ?? ""); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(lifetime)"
        if configuration.cookiesAreSecure { value += "; Secure" }
        return [.setCookie: value]
    }
}
