import Foundation

extension ViewNode: Codable {
    private enum TypeKey: String, CodingKey { case type }

    /// The wire name of each case, the `type` field of its JSON object.
    public var typeName: String {
        switch self {
        case .stack: "stack"
        case .text: "text"
        case .image: "image"
        case .button: "button"
        case .list: "list"
        case .row: "row"
        case .grid: "grid"
        case .textField: "textField"
        case .toggle: "toggle"
        case .picker: "picker"
        case .link: "link"
        case .webPage: "webPage"
        case .stickerBrowser: "stickerBrowser"
        case .spacer: "spacer"
        case .divider: "divider"
        case .modal: "modal"
        case .group: "group"
        }
    }

    /// Decodes a node from its JSON object, choosing the case by its `type` field.
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` for an unknown `type` or a malformed node.
    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        switch type {
        case "stack": self = .stack(try StackNode(from: decoder))
        case "text": self = .text(try TextNode(from: decoder))
        case "image": self = .image(try ImageNode(from: decoder))
        case "button": self = .button(try ButtonNode(from: decoder))
        case "list": self = .list(try ListNode(from: decoder))
        case "row": self = .row(try RowNode(from: decoder))
        case "grid": self = .grid(try GridNode(from: decoder))
        case "textField": self = .textField(try TextFieldNode(from: decoder))
        case "toggle": self = .toggle(try ToggleNode(from: decoder))
        case "picker": self = .picker(try PickerNode(from: decoder))
        case "link": self = .link(try LinkNode(from: decoder))
        case "webPage": self = .webPage(try WebPageNode(from: decoder))
        case "stickerBrowser": self = .stickerBrowser(try StickerBrowserNode(from: decoder))
        case "spacer": self = .spacer(try SpacerNode(from: decoder))
        case "divider": self = .divider(try DividerNode(from: decoder))
        case "modal": self = .modal(try ModalNode(from: decoder))
        case "group": self = .group(try GroupNode(from: decoder))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Unknown view type '\(type)'"))
        }
    }

    /// Encodes the node as one JSON object: its fields and its `type`.
    /// - Parameter encoder: the encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .stack(let node): try node.encode(to: encoder)
        case .text(let node): try node.encode(to: encoder)
        case .image(let node): try node.encode(to: encoder)
        case .button(let node): try node.encode(to: encoder)
        case .list(let node): try node.encode(to: encoder)
        case .row(let node): try node.encode(to: encoder)
        case .grid(let node): try node.encode(to: encoder)
        case .textField(let node): try node.encode(to: encoder)
        case .toggle(let node): try node.encode(to: encoder)
        case .picker(let node): try node.encode(to: encoder)
        case .link(let node): try node.encode(to: encoder)
        case .webPage(let node): try node.encode(to: encoder)
        case .stickerBrowser(let node): try node.encode(to: encoder)
        case .spacer(let node): try node.encode(to: encoder)
        case .divider(let node): try node.encode(to: encoder)
        case .modal(let node): try node.encode(to: encoder)
        case .group(let node): try node.encode(to: encoder)
        }
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(typeName, forKey: .type)
    }
}
