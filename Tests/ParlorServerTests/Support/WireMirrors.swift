import Foundation
import ParlorKit

// The JSON shapes of docs/openapi.yaml and docs/PROTOCOL.md, as a client decodes them. Fields the
// documents mark required are non-optional here, so a response missing one fails to decode.

struct UserBody: Decodable, Equatable, Sendable {
    let id: String
    let username: String
    let displayName: String
}

struct SessionBody: Decodable, Sendable {
    let user: UserBody
    let token: String
}

struct MeBody: Decodable, Sendable { let user: UserBody }

struct ConversationBody: Decodable, Sendable {
    let id: String
    let title: String?
    let isGroup: Bool
    let members: [UserBody]
    let lastSequence: Int64
    let unreadCount: Int
    let preview: String?
}

struct StickerBody: Decodable, Equatable, Sendable {
    let id: String
    let url: String
    let description: String
}

struct TemplateBody: Decodable, Sendable {
    let imageURL: String?
    let mediaURL: String?
    let imageTitle: String?
    let imageSubtitle: String?
    let caption: String?
    let subcaption: String?
    let trailingCaption: String?
    let trailingSubcaption: String?
}

struct AppMessageBody: Decodable, Sendable {
    let appID: String
    let appName: String
    let appIconURL: String?
    let installed: Bool
    let sessionID: String?
    let summaryText: String?
    let accessibilityLabel: String?
    let shouldExpire: Bool
    let layout: TemplateBody
    let liveView: ViewNode?
    let webURL: String?
    let names: [String: String]
}

struct MessageBody: Decodable, Sendable {
    let id: String
    let conversation: String
    let sequence: Int64
    let sender: String
    let senderName: String
    let sentAt: String
    let kind: String
    let text: String?
    let sticker: StickerBody?
    let app: AppMessageBody?
}

struct StagedBody: Decodable, Sendable {
    let kind: String
    let sticker: StickerBody?
    let app: AppMessageBody?
}

struct StagedReply: Decodable, Sendable { let staged: StagedBody? }

struct ErrorInfo: Decodable, Sendable {
    let code: String
    let message: String
    let details: [String: String]?
}

struct ErrorEnvelope: Decodable, Sendable { let error: ErrorInfo }

struct AppUpdateBody: Decodable, Sendable {
    let appID: String
    let appName: String
    let isActive: Bool
    let presentationStyle: String
    let modal: String?
    let view: ViewNode
    let error: ErrorInfo?
    let names: [String: String]
}

struct AppInfoBody: Decodable, Sendable {
    let id: String
    let name: String
    let summary: String
    let iconURL: String?
    let hasHomeSurface: Bool
    let installed: Bool
}

struct PackInfoBody: Decodable, Sendable {
    let id: String
    let drawerID: String
    let name: String
    let author: String?
    let gridSize: String
    let stickers: [StickerBody]
    let installed: Bool
}

struct DirectoryBody: Decodable, Sendable {
    let apps: [AppInfoBody]
    let packs: [PackInfoBody]
    let drawer: [String]
}

struct BlobBody: Decodable, Sendable {
    let hash: String
    let url: String
}

/// A WebSocket frame from the server; `type` says which fields are set.
struct Frame: Decodable, Sendable {
    let type: String
    let requestId: String?
    let protocolVersion: Int?
    let user: UserBody?
    let conversation: String?
    let conversationInfo: ConversationBody?
    let message: MessageBody?
    let messageID: String?
    let staged: StagedBody?
    let text: String?
    let app: String?
    let update: AppUpdateBody?
    let error: ErrorInfo?
    let head: MessageBody?
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
