import Foundation
import Hummingbird
import ParlorInput

/// `/api/me/push`: the devices that receive notifications with Parlor closed (Web Push).
struct PushRoutes {
    let subscriptions: PushSubscriptions

    func add(to router: Router<ParlorRequestContext>) {
        router.get("/api/me/push") { _, context in
            let user = try context.requireUser()
            return try JSONBody.response(try await subscriptions.settings(of: user.id, thisSignIn: context.tokenHash))
        }
        router.post("/api/me/push") { request, context in
            let user = try context.requireUser()
            guard let hash = context.tokenHash else { throw APIError.unauthorized }
            let body = try await JSONBody.decode(Wire.PushSubscriptionRequest.self, from: request, limit: 8 * 1024)
            try await subscriptions.subscribe(body, user: user.id, tokenHash: hash)
            return try JSONBody.response(try await subscriptions.settings(of: user.id, thisSignIn: hash), status: .created)
        }
        router.patch("/api/me/push") { request, context in
            let user = try context.requireUser()
            let body = try await JSONBody.decode(Wire.PushSettingsChange.self, from: request, limit: 1024)
            try await subscriptions.setShowsText(body.showsText, user: user.id)
            return try JSONBody.response(try await subscriptions.settings(of: user.id, thisSignIn: context.tokenHash))
        }
        router.delete("/api/me/push/:device") { _, context in
            let user = try context.requireUser()
            try await subscriptions.remove(context.parameters.get("device") ?? "", user: user.id)
            return try JSONBody.response(try await subscriptions.settings(of: user.id, thisSignIn: context.tokenHash))
        }
    }
}
