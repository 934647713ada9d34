import Foundation
import Hummingbird
import ParlorKit
import ParlorStore

/// `/api/users`, `/api/conversations/*`: people, conversations, members, history and sending.
struct ConversationRoutes {
    let core: ParlorCore

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
        router.get("/api/users") { request, context in
            _ = try context.requireUser()
            let query = (request.uri.queryParameters.get("query") ?? "").lowercased()
            let users = try await core.store.allUsers().filter {
                query.isEmpty || $0.username.lowercased().contains(query) || $0.displayName.lowercased().contains(query)
            }
            return try JSONBody.response(users.prefix(50).map { Wire.User($0) })
        }
        router.get("/api/conversations") { _, context in
            let user = try context.requireUser()
            var result: [Wire.Conversation] = []
            for summary in try await core.store.conversations(of: user.id) { result.append(try await core.wire(summary, for: user.id)) }
            return try JSONBody.response(result)
        }
        router.post("/api/conversations") { request, context in
            let user = try context.requireUser()
            let body = try await JSONBody.decode(NewConversation.self, from: request)
            let conversation = try await createConversation(body, by: user)
            return try JSONBody.response(try await summary(conversation, for: user.id), status: .created)
        }
        router.get("/api/conversations/:id") { _, context in
            let user = try context.requireUser()
            let record = try await core.requireMember(user.id, of: try conversationID(context))
            return try JSONBody.response(try await summary(record.id, for: user.id))
        }
        router.patch("/api/conversations/:id") { request, context in
            let user = try context.requireUser()
            let record = try await core.requireMember(user.id, of: try conversationID(context))
            let body = try await JSONBody.decode(TitleChange.self, from: request)
            let title = body.title?.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (title?.count ?? 0) <= 100 else { throw APIError.invalid("A title has at most 100 characters.") }
            try await core.store.setTitle(title?.isEmpty == true ? nil : title, of: record.id)
            await core.announce(record.id, to: record.members)
            return try JSONBody.response(try await summary(record.id, for: user.id))
        }
        router.post("/api/conversations/:id/members") { request, context in
            let user = try context.requireUser()
            let record = try await core.requireMember(user.id, of: try conversationID(context))
            guard record.isGroup else { throw APIError.invalid("People can be added to group conversations only.") }
            let body = try await JSONBody.decode(NewMember.self, from: request)
            guard let member = try await core.store.credentials(username: body.username)?.user else {
                throw APIError(.notFound, code: "unknownUser", "There is nobody called '\(body.username.prefix(40))'.")
            }
            try await core.store.addMember(member.id, to: record.id)
            await core.announce(record.id, to: record.members + [member.id])
            await core.refreshParticipants(in: record.id)
            return try JSONBody.response(try await summary(record.id, for: user.id))
        }
        router.delete("/api/conversations/:id/members/:user") { _, context in
            let user = try context.requireUser()
            let record = try await core.requireMember(user.id, of: try conversationID(context))
            guard let removed = context.parameters.get("user").flatMap(UserID.init), record.members.contains(removed) else {
                throw APIError.notFound
            }
            guard removed == user.id || record.isGroup else { throw APIError.invalid("Only group conversations let you remove others.") }
            try await core.store.removeMember(removed, from: record.id)
            await core.instances.remove(user: removed, conversation: record.id)
            await core.announce(record.id, to: record.members)
            await core.refreshParticipants(in: record.id)
            return Response(status: .noContent)
        }
        router.get("/api/conversations/:id/messages") { request, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            let after = request.uri.queryParameters.get("after").flatMap(Int64.init)
            let limit = min(max(request.uri.queryParameters.get("limit").flatMap(Int.init) ?? 100, 1), 500)
            var result: [Wire.Message] = []
            for message in try await core.visibleMessages(user: user.id, conversation: conversation, after: after, limit: limit) {
                result.append(await core.render(message, for: user.id))
            }
            return try JSONBody.response(result)
        }
        router.post("/api/conversations/:id/messages") { request, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            let body = try await JSONBody.decode(NewMessage.self, from: request, limit: 128 * 1024)
            let stored: StoredMessage
            switch (body.text, body.sticker) {
            case (let text?, nil): stored = try await core.sendText(text, id: body.id, from: user.id, in: conversation)
            case (nil, let sticker?): stored = try await core.sendSticker(sticker, id: body.id, from: user.id, in: conversation)
            default: throw APIError.invalid("Send either 'text' or 'sticker'.")
            }
            return try JSONBody.response(await core.render(stored, for: user.id), status: .created)
        }
        router.get("/api/conversations/:id/staged") { _, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            _ = try await core.requireMember(user.id, of: conversation)
            let staged = try await core.store.staged(user: user.id, conversation: conversation)
            return try JSONBody.response(StagedBody(staged: await core.wireStaged(staged, user: user.id, conversation: conversation)))
        }
    }

    struct StagedBody: Encodable { let staged: Wire.Staged? }

    private func conversationID(_ context: ParlorRequestContext) throws -> ConversationID {
        guard let id = context.parameters.get("id").flatMap(ConversationID.init) else { throw APIError.notFound }
        return id
    }

    private func summary(_ conversation: ConversationID, for user: UserID) async throws -> Wire.Conversation {
        guard let summary = try await core.store.conversationSummary(conversation, for: user) else {
            throw APIError.notFound
        }
        return try await core.wire(summary, for: user)
    }

    /// A 1:1 conversation with the same person is reused; anything else is a new group.
    private func createConversation(_ body: NewConversation, by user: User) async throws -> ConversationID {
        let title = body.title?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (title?.count ?? 0) <= 100 else { throw APIError.invalid("A title has at most 100 characters.") }
        guard !body.members.isEmpty, body.members.count <= 500 else { throw APIError.invalid("Pick 1 to 500 people to talk with.") }
        var members = [user.id]
        for username in body.members {
            guard let member = try await core.store.credentials(username: username)?.user else {
                throw APIError(.notFound, code: "unknownUser", "There is nobody called '\(username.prefix(40))'.")
            }
            if !members.contains(member.id) { members.append(member.id) }
        }
        guard members.count > 1 else { throw APIError.invalid("Pick someone other than yourself.") }
        let isGroup = members.count > 2 || !(title ?? "").isEmpty
        if !isGroup, let existing = try await core.store.conversations(of: user.id).first(where: {
            !$0.conversation.isGroup && Set($0.conversation.members) == Set(members)
        }) {
            return existing.conversation.id
        }
        let record = try await core.store.createConversation(title: title?.isEmpty == true ? nil : title, isGroup: isGroup, members: members)
        await core.announce(record.id, to: members)
        return record.id
    }
}
