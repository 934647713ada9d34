import Foundation
import Hummingbird
import ParlorInput
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

    /// `PATCH /api/conversations/{id}`: a new `title` (null or blank removes it) and/or a group's
    /// `photo` (an uploaded image's hash; null removes it). A key left out is left alone.
    struct ConversationChange: Decodable {
        let title: String??
        let photo: String??

        private enum CodingKeys: String, CodingKey { case title, photo }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = container.contains(.title) ? .some(try container.decodeIfPresent(String.self, forKey: .title)) : nil
            photo = container.contains(.photo) ? .some(try container.decodeIfPresent(String.self, forKey: .photo)) : nil
        }
    }
    struct NewMember: Decodable { let username: String }
    /// `POST …/messages/{message}/forward`: the conversations to send a copy to.
    struct Forward: Decodable { let to: [ConversationID] }

    struct NewMessage: Decodable {
        struct AttachmentChoice: Decodable {
            let hash: String
            let name: String
            /// Present to send a recording as a voice message.
            let voice: VoiceNote?
        }

        let id: MessageID
        let text: String?
        let sticker: String?
        let attachment: AttachmentChoice?
        /// Present only as an id: `null` is not one.
        let replyTo: MessageID?
        /// Only with `sticker`: the message to place it on, and where.
        let placement: StickerPlacement?
        /// Only with `text`: a link in it whose page's card to show.
        let linkPreview: String?

        private enum CodingKeys: String, CodingKey { case id, text, sticker, attachment, replyTo, placement, linkPreview }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(MessageID.self, forKey: .id)
            text = try container.decodeIfPresent(String.self, forKey: .text)
            sticker = try container.decodeIfPresent(String.self, forKey: .sticker)
            attachment = try container.decodeIfPresent(AttachmentChoice.self, forKey: .attachment)
            replyTo = container.contains(.replyTo) ? try container.decode(MessageID.self, forKey: .replyTo) : nil
            placement = container.contains(.placement) ? try container.decode(StickerPlacement.self, forKey: .placement) : nil
            linkPreview = container.contains(.linkPreview) ? try container.decode(String.self, forKey: .linkPreview) : nil
        }
    }

    func add(to router: Router<ParlorRequestContext>) {
        let (conversations, messaging, renderer) = (services.conversations, services.messaging, services.renderer)
        router.get("/api/users") { request, context in
            let user = try context.requireUser()
            return try JSONBody.response(try await conversations.people(matching: request.uri.queryParameters.get("query") ?? "", for: user.id))
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
            let body = try await JSONBody.decode(ConversationChange.self, from: request)
            guard body.title != nil || body.photo != nil else { throw APIError.invalid("Send 'title', 'photo' or both.") }
            try await conversations.change(conversation, title: body.title, photo: body.photo, by: user.id)
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
            guard let removed = context.parameters.get("user").flatMap(UserID.init(_:)) else { throw APIError.notFound }
            try await conversations.removeMember(removed, from: conversation, by: user.id)
            return Response(status: .noContent)
        }
        @Sendable func setAdmin(_ isAdmin: Bool, _ context: ParlorRequestContext) async throws -> Response {
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            guard let member = context.parameters.get("user").flatMap(UserID.init(_:)) else { throw APIError.notFound }
            try await conversations.setAdmin(member, isAdmin, in: conversation, by: user.id)
            return try JSONBody.response(try await conversations.summary(conversation, for: user.id))
        }
        // Where the conversation sits in the person's own list: PUT turns a setting on, DELETE off.
        @Sendable func changeList(_ change: ListChange, _ context: ParlorRequestContext) async throws -> Response {
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            try await conversations.changeList(change, conversation, by: user.id)
            return try JSONBody.response(try await conversations.summary(conversation, for: user.id))
        }
        router.put("/api/conversations/:id/muted") { _, context in try await changeList(.mute(true), context) }
        router.delete("/api/conversations/:id/muted") { _, context in try await changeList(.mute(false), context) }
        router.put("/api/conversations/:id/pinned") { _, context in try await changeList(.pin(true), context) }
        router.delete("/api/conversations/:id/pinned") { _, context in try await changeList(.pin(false), context) }
        router.put("/api/conversations/:id/archived") { _, context in try await changeList(.archive(true), context) }
        router.delete("/api/conversations/:id/archived") { _, context in try await changeList(.archive(false), context) }
        router.put("/api/conversations/:id/unread") { _, context in try await changeList(.markUnread(true), context) }
        router.delete("/api/conversations/:id/unread") { _, context in try await changeList(.markUnread(false), context) }
        // Deleted for the person asking, up to `through` (what they saw): out of their list, its
        // history hidden from them.
        router.delete("/api/conversations/:id") { request, context in
            let through = try request.uri.queryParameters.get("through").map { text in
                guard let through = Int64(text), through >= 0 else { throw APIError.invalid("'through' is a sequence number: a whole number, 0 or more.") }
                return through
            }
            return try await changeList(.deleteHistory(through: through), context)
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
            let limit = try Self.limit(query, upTo: Self.maxPage) ?? 100
            let messages = try await messaging.visibleMessages(user: user.id, conversation: conversation, after: after, limit: limit)
            return try JSONBody.response(try await renderer.render(messages, for: user.id))
        }
        router.post("/api/conversations/:id/messages") { request, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            let body = try await JSONBody.decode(NewMessage.self, from: request, limit: 128 * 1024)
            if body.placement != nil, body.sticker == nil { throw APIError.invalid("'placement' goes with 'sticker' only.") }
            if body.linkPreview != nil, body.text == nil { throw APIError.invalid("'linkPreview' goes with 'text' only.") }
            if body.replyTo != nil, body.text == nil { throw APIError.invalid("'replyTo' goes with 'text' only.") }
            let sent = switch (body.text, body.sticker, body.attachment) {
            case (let text?, nil, nil):
                try await messaging.sendText(text, id: body.id, replyTo: body.replyTo, linkPreview: body.linkPreview, from: user.id, in: conversation)
            case (nil, let sticker?, nil):
                try await messaging.sendSticker(sticker, id: body.id, placement: body.placement, from: user.id, in: conversation)
            case (nil, nil, let file?):
                try await messaging.sendAttachment(
                    hash: file.hash, name: file.name, voice: file.voice, id: body.id, from: user.id, in: conversation)
            default: throw APIError.invalid("Send one of 'text', 'sticker' or 'attachment'.")
            }
            return try JSONBody.response(await messaging.wire(sent, for: user.id), status: .created)
        }
        router.post("/api/conversations/:id/messages/:message/forward") { request, context in
            let user = try context.requireUser()
            let body = try await JSONBody.decode(Forward.self, from: request, limit: 4 * 1024)
            let sent = try await messaging.forward(try messageID(context), from: try conversationID(context), to: body.to, by: user.id)
            var messages: [Wire.Message] = []
            for one in sent { messages.append(await messaging.wire(one, for: user.id)) }
            return try JSONBody.response(messages, status: .created)
        }
        router.get("/api/conversations/:id/reads") { _, context in
            let user = try context.requireUser()
            return try JSONBody.response(try await messaging.readReceipts(for: user.id, in: try conversationID(context)))
        }
        router.get("/api/conversations/:id/messages/:message/versions") { _, context in
            let user = try context.requireUser()
            let versions = try await services.changes.versions(of: try messageID(context), for: user.id, in: try conversationID(context))
            return try JSONBody.response(versions)
        }
        router.get("/api/conversations/:id/messages/:message/replies") { _, context in
            let user = try context.requireUser()
            let replies = try await services.changes.replies(to: try messageID(context), for: user.id, in: try conversationID(context))
            return try JSONBody.response(try await renderer.render(replies, for: user.id))
        }
        router.get("/api/link-preview") { request, context in
            let user = try context.requireUser()
            guard let url = request.uri.queryParameters.get("url") else { throw APIError.invalid("Say which page in 'url'.") }
            let preview = try await messaging.linkPreviews.preview(of: url, for: user.id)
            return try JSONBody.response(await services.renderer.linkPreview(preview))
        }
        router.get("/api/search") { request, context in
            let user = try context.requireUser()
            let query = request.uri.queryParameters
            guard let text = query.get("q"), !text.isEmpty else { throw APIError.invalid("Say what to search for in 'q'.") }
            let limit = try Self.limit(query, upTo: MessageSearch.maxResults) ?? 20
            return try JSONBody.response(try await services.search.search(text, limit: limit, for: user.id))
        }
        router.get("/api/conversations/:id/staged") { _, context in
            let user = try context.requireUser()
            let conversation = try conversationID(context)
            return try JSONBody.response(Wire.StagedReply(staged: try await services.apps.staged(for: user.id, in: conversation)))
        }
    }

    /// The most messages one history page returns.
    static let maxPage = 500

    /// The `limit` query parameter, when given: a whole number from 1 to `maximum`.
    static func limit(_ query: Parameters, upTo maximum: Int) throws -> Int? {
        try query.get("limit").map { text in
            guard let limit = Int(text), (1...maximum).contains(limit) else {
                throw APIError.invalid("'limit' is a whole number from 1 to \(maximum).")
            }
            return limit
        }
    }

    private func conversationID(_ context: ParlorRequestContext) throws -> ConversationID {
        guard let id = context.parameters.get("id").flatMap(ConversationID.init(_:)) else { throw APIError.notFound }
        return id
    }

    private func messageID(_ context: ParlorRequestContext) throws -> MessageID {
        guard let id = context.parameters.get("message").flatMap(MessageID.init(_:)) else { throw APIError.notFound }
        return id
    }
}
