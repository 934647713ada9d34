import Foundation
import Hummingbird
import ParlorKit
import ParlorStore

/// `/api/users`, `/api/conversations/*`: people, conversations, members, history and sending.
struct ConversationRoutes {
    let services: ParlorServices

    struct NewConversation: Decodable {
        let title: String?
        /// Usernames of the other members.
        let members: [String]
    }

    struct TitleChange: Decodable { let title: String? }
    struct NewMember: Decodable { let username: String }

    struct NewMessage: Decodable {
        let id: MessageID
        let text: String?
        let sticker: String?
    }

    func add(to router: Router<ParlorRequestContext>) {
        let (conversations, messaging, renderer) = (services.conversations, services.messaging, services.renderer)
        router.get("/api/users") { request, context in
            _ = try context.requireUser()
            return try JSONBody.response(try await conversations.people(matching: request.uri.queryParameters.get("query") ?? ""))
        }
        router.get("/api/conversations") { _, context in
            let user = try context.requireUser()
            return try JSONBody.response(try await conversations.list(for: user.id))
        }
        router.post("/api/conversations") { request, context in
            let user = try context.requireUser()
            let body = try await JSONBody.decode(NewConversation.self, from: request)
            let conversation = try await conversations.create(title: body.title, with: body.members, by: user.id)
            return try JSONBody.response(try await conversations.summary(conversation, for: user.id), status: .created)
        }
        router.get("/api/conversations/:id") { _, context in
            let user = try context.requireUser()
            let record = try await services.membership.requireMember(user.id, of: try conversationID(context))
            return try JSONBody.response(try await conversations.summary(record.id, for: user.id))
        }
        router.patch("/api/conversations/:id") { request, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            let body = try await JSONBody.decode(TitleChange.self, from: request)
            try await conversations.rename(conversation, to: body.title, by: user.id)
            return try JSONBody.response(try await conversations.summary(conversation, for: user.id))
        }
        router.post("/api/conversations/:id/members") { request, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            let body = try await JSONBody.decode(NewMember.self, from: request)
            try await conversations.addMember(named: body.username, to: conversation, by: user.id)
            return try JSONBody.response(try await conversations.summary(conversation, for: user.id))
        }
        router.delete("/api/conversations/:id/members/:user") { _, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            guard let removed = context.parameters.get("user").flatMap(UserID.init) else { throw APIError.notFound }
            try await conversations.removeMember(removed, from: conversation, by: user.id)
            return Response(status: .noContent)
        }
        @Sendable func setAdmin(_ isAdmin: Bool, _ context: ParlorRequestContext) async throws -> Response {
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            guard let member = context.parameters.get("user").flatMap(UserID.init) else { throw APIError.notFound }
            try await conversations.setAdmin(member, isAdmin, in: conversation, by: user.id)
            return try JSONBody.response(try await conversations.summary(conversation, for: user.id))
        }
        router.put("/api/conversations/:id/admins/:user") { _, context in try await setAdmin(true, context) }
        router.delete("/api/conversations/:id/admins/:user") { _, context in try await setAdmin(false, context) }
        router.get("/api/conversations/:id/messages") { request, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            let query = request.uri.queryParameters
            let after = try query.get("after").map { text in
                guard let after = Int64(text), after >= 0 else { throw APIError.invalid("'after' is a sequence number: a whole number, 0 or more.") }
                return after
            }
            let limit = try query.get("limit").map { text in
                guard let limit = Int(text), (1...Self.maxPage).contains(limit) else {
                    throw APIError.invalid("'limit' is a whole number from 1 to \(Self.maxPage).")
                }
                return limit
            } ?? 100
            var result: [Wire.Message] = []
            for message in try await messaging.visibleMessages(user: user.id, conversation: conversation, after: after, limit: limit) {
                result.append(await renderer.render(message, for: user.id))
            }
            return try JSONBody.response(result)
        }
        router.post("/api/conversations/:id/messages") { request, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            let body = try await JSONBody.decode(NewMessage.self, from: request, limit: 128 * 1024)
            let sent = switch (body.text, body.sticker) {
            case (let text?, nil): try await messaging.sendText(text, id: body.id, from: user.id, in: conversation)
            case (nil, let sticker?): try await messaging.sendSticker(sticker, id: body.id, from: user.id, in: conversation)
            default: throw APIError.invalid("Send either 'text' or 'sticker'.")
            }
            return try JSONBody.response(await messaging.wire(sent, for: user.id), status: .created)
        }
        router.get("/api/conversations/:id/staged") { _, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            try await services.membership.requireMember(user.id, of: conversation)
            let staged = try await services.store.staged(user: user.id, conversation: conversation)
            return try JSONBody.response(Wire.StagedReply(staged: await renderer.staged(staged, user: user.id, conversation: conversation)))
        }
    }

    /// The most messages one history page returns.
    static let maxPage = 500

    private func conversationID(_ context: ParlorRequestContext) throws -> ConversationID {
        guard let id = context.parameters.get("id").flatMap(ConversationID.init) else { throw APIError.notFound }
        return id
    }
}
