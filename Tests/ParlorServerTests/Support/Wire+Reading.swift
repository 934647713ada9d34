import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore

// Tests read what the server sends as the server's own `Wire` types: frames as `Wire.ServerFrame`,
// HTTP answers as `Wire.Session`, `Wire.Directory`, … Whether those types match docs/PROTOCOL.md
// and docs/openapi.yaml is checked separately (ProtocolDocumentTests, OpenAPITests).

/// A frame from the server, as the server's own type.
typealias Frame = Wire.ServerFrame

extension Wire.ServerFrame {
    /// The frame's `type` as the wire spells it.
    var type: String { kind.rawValue }

    var requestId: String? {
        switch self {
        case .pong(let requestId), .ack(let requestId, _), .error(_, let requestId, _): requestId
        default: nil
        }
    }

    /// The message of a `message` or `ack` frame.
    var message: Wire.Message? {
        switch self {
        case .message(let message), .ack(_, let message): message.message
        case .messageChanged(let message): message
        default: nil
        }
    }

    var error: Wire.ErrorBody? {
        if case .error(let error, _, _) = self { error } else { nil }
    }

    /// The session's head that came with a `sessionConflict` error.
    var head: Wire.Message? {
        if case .error(_, _, let head) = self { head } else { nil }
    }

    /// The conversation the frame is about.
    var conversation: ConversationID? {
        switch self {
        case .resync(let conversation), .conversation(let conversation, _), .staged(let conversation, _),
            .composeText(let conversation, _), .app(let conversation, _, _), .expired(let conversation, _),
            .reactions(let conversation, _, _), .typing(let conversation, _, _):
            conversation
        case .message(let message), .ack(_, let message): message.message.conversation
        default: nil
        }
    }

    var conversationInfo: Wire.Conversation? {
        if case .conversation(_, let info) = self { info } else { nil }
    }

    var staged: Wire.Staged? {
        if case .staged(_, let staged) = self { staged } else { nil }
    }

    /// The text of a `composeText` frame.
    var text: String? {
        if case .composeText(_, let text) = self { text } else { nil }
    }

    /// The app of an `app` or `home` frame.
    var app: AppID? {
        switch self {
        case .app(_, let app, _), .home(let app, _): app
        default: nil
        }
    }

    var update: Wire.AppUpdate? {
        switch self {
        case .app(_, _, let update), .home(_, let update): update
        default: nil
        }
    }

    var messageID: MessageID? {
        switch self {
        case .expired(_, let messageID), .reactions(_, let messageID, _): messageID
        default: nil
        }
    }

    /// A `reactions` frame's reactions, as `emoji: [user]`.
    var reactionsByEmoji: [String: [UserID]]? {
        guard case .reactions(_, _, let reactions) = self else { return nil }
        return Dictionary(reactions.map { ($0.emoji, $0.users) }) { first, _ in first }
    }

    /// A `typing` frame's person and whether they are typing.
    var typingNotice: (user: UserID, isTyping: Bool)? {
        if case .typing(_, let user, let isTyping) = self { (user, isTyping) } else { nil }
    }

    var user: Wire.User? {
        if case .welcome(_, let user) = self { user } else { nil }
    }

    var protocolVersion: Int? {
        if case .welcome(let version, _) = self { version } else { nil }
    }
}

extension ViewNode {
    /// The first interactive node whose accessibility label is `label`.
    func control(_ label: String) -> ViewNode? { allNodes.first { $0.interactiveLabel == label } }

    /// The action a client sends when the user activates the control labelled `label`.
    func action(_ label: String) -> String? {
        switch control(label) {
        case .button(let node)?: node.action.json
        case .row(let node)?: node.action?.json
        default: nil
        }
    }

    /// The text of the text node with `id`.
    func text(id: String) -> String? {
        allNodes.lazy.compactMap { node -> String? in
            if case .text(let text) = node, text.id == id { return text.text }
            return nil
        }.first
    }
}
