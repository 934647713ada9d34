import Foundation
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorStore

extension Messaging {
    /// The most conversations one message is forwarded to at once.
    static let maxForwardTargets = 10

    /// Forwards a message `user` sees to conversations they are in: a copy sent by them, as if
    /// they sent it there (their allowance of messages counts each). A text goes as people read it
    /// (its mentions become plain "@Name", since those people may not be there) with its link's
    /// card; a sticker goes on its own (not placed on anything); a photo or file goes as it is.
    /// - Throws: `invalidValue` for no target, more than `maxForwardTargets` or one twice;
    ///   `notFound` for a message `user` does not see, or a target they are not in (nothing is sent
    ///   then); `notForwardable` for an app's message (the app keeps its state in the conversation it
    ///   is in) or a line about a conversation.
    func forward(_ id: MessageID, from source: ConversationID, to targets: [ConversationID], by user: UserID) async throws -> [Sent] {
        guard !targets.isEmpty, targets.count <= Self.maxForwardTargets, Set(targets).count == targets.count else {
            throw APIError.invalid("Forward to 1 to \(Self.maxForwardTargets) different conversations.")
        }
        try await membership.requireMember(user, of: source)
        guard let message = try await visibleMessage(id, user: user, conversation: source), message.unsentAt == nil else { throw APIError.notFound }
        let content: StoredContent
        switch message.content {
        case .text(let text, let preview, _):
            let readable = await renderer.readable(text)
            try MessageRules.checkText(readable)
            content = .text(readable, preview: preview)
        case .sticker(let sticker, _): content = .sticker(sticker)
        case .attachment(let attachment): content = .attachment(attachment)
        case .app(let app):
            let name = app.appID.flatMap { directory.app($0)?.manifest.name } ?? "An app"
            throw APIError(
                .conflict, code: .notForwardable,
                "\(name)’s messages stay in their conversation: the app keeps its state there. Send a text or a link to it instead.")
        case .event:
            throw APIError(.conflict, code: .notForwardable, "A line about a conversation’s changes cannot be forwarded.")
        }
        // Every target checked before anything is sent: a refusal sends nothing.
        for target in targets { try await membership.requireMember(user, of: target) }
        var sent: [Sent] = []
        for target in targets {
            sent.append(try await commit(NewMessage(id: MessageID(), conversationID: target, sender: user, content: content)))
        }
        return sent
    }
}
