import Foundation
import Hummingbird
import ParlorInput
import ParlorStore

/// `/api/auth/*` and `/api/me`: sign up, sign in, sign out (here or everywhere), the password
/// and the person's settings, and whom they blocked.
struct AuthRoutes {
    let accounts: Accounts
    let sessions: Sessions
    let configuration: ServerConfiguration
    let caches: ViewerCaches
    let bus: any ClusterBus
    /// Tells the people someone talks to that their name changed.
    let conversations: Conversations

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
            return try JSONBody.response(Wire.Session(user: Wire.User(user, withAbout: true), token: token), status: .created, headers: cookie(token))
        }
        router.post("/api/auth/signin") { request, context in
            let body = try await JSONBody.decode(SignIn.self, from: request)
            let address = context.clientAddress(of: request, trustedProxies: configuration.trustedProxies)
            let (user, token) = try await accounts.signIn(username: body.username, password: body.password, address: address)
            return try JSONBody.response(Wire.Session(user: Wire.User(user, withAbout: true), token: token), headers: cookie(token))
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
            return try JSONBody.response(Wire.Me(user: Wire.User(user, withAbout: true), sharesReadReceipts: try await accounts.sharesReadReceipts(of: user.id)))
        }
        router.patch("/api/me") { request, context in
            let user = try context.requireUser()
            let change = try await JSONBody.decode(Wire.MeChange.self, from: request, limit: 4 * 1024)
            let changed = try await accounts.changeProfile(
                of: user, displayName: change.displayName, about: change.about, avatar: change.avatar,
                sharesReadReceipts: change.sharesReadReceipts)
            if changed.toldToEveryone {
                await tellEveryone(about: user.id)
            } else if changed.picture {
                await profileChanged(user.id)
            }
            let now = try await accounts.user(id: user.id) ?? user
            return try JSONBody.response(Wire.Me(user: Wire.User(now, withAbout: true), sharesReadReceipts: try await accounts.sharesReadReceipts(of: user.id)))
        }
        addBlocks(to: router)
    }

    /// `/api/me/blocked`: the people the user blocked; PUT blocks one, DELETE unblocks, both
    /// answering with the list as it is then.
    func addBlocks(to router: Router<ParlorRequestContext>) {
        router.get("/api/me/blocked") { _, context in
            let user = try context.requireUser()
            return try JSONBody.response(try await accounts.blockedPeople(of: user.id))
        }
        @Sendable func setBlocked(_ isBlocked: Bool, _ context: ParlorRequestContext) async throws -> Response {
            let user = try context.requireUser()
            guard let other = context.parameters.get("user").flatMap(UserID.init(_:)) else { throw APIError.notFound }
            try await accounts.setBlocked(isBlocked, other, by: user.id)
            return try JSONBody.response(try await accounts.blockedPeople(of: user.id))
        }
        router.put("/api/me/blocked/:user") { _, context in try await setBlocked(true, context) }
        router.delete("/api/me/blocked/:user") { _, context in try await setBlocked(false, context) }
    }

    /// `user`'s look changed (name, about): every node reads it again, and everyone in a
    /// conversation with them sees it in their list, told after the answer so that a person in
    /// many conversations does not wait for all of them.
    func tellEveryone(about user: UserID) async {
        await profileChanged(user)
        let conversations = conversations
        Task { await conversations.announceAll(of: user) }
    }

    /// What every node knows of `user` (name, picture) is read again.
    func profileChanged(_ user: UserID) async {
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
