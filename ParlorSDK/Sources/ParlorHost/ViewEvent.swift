@_spi(Hosting) import ParlorKit

/// What a user did in an app's view, as a client reports it.
public struct ViewEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A control's action; `value` carries a text field's text.
        case action
        /// A sticker tapped in a sticker browser; `stickerID` names it.
        case insertSticker
        /// The modal screen's close control.
        case dismissModal
    }

    public var kind: Kind
    public var action: ActionPayload?
    public var value: String?
    public var stickerID: String?

    public init(kind: Kind, action: ActionPayload? = nil, value: String? = nil, stickerID: String? = nil) {
        self.kind = kind
        self.action = action
        self.value = value
        self.stickerID = stickerID
    }

    public static func action(_ payload: ActionPayload, value: String? = nil) -> ViewEvent {
        ViewEvent(kind: .action, action: payload, value: value)
    }

    public static func insertSticker(_ id: String) -> ViewEvent { ViewEvent(kind: .insertSticker, stickerID: id) }

    public static let dismissModal = ViewEvent(kind: .dismissModal)
}
