import Foundation

/// A node of an app's view tree: what `body` returns, what a server sends to a browser.
///
/// Build trees with the DSL (`VStack { Text("Hi"); Button("Go", action: Action.go) }`) rather than
/// with these cases. On the wire each node is a JSON object whose `type` names the case
/// (`{"type":"text","text":"Hi","style":"body"}`); see docs/PROTOCOL.md.
public indirect enum ViewNode: Sendable, Hashable {
    case stack(StackNode)
    case text(TextNode)
    case image(ImageNode)
    case button(ButtonNode)
    case list(ListNode)
    case row(RowNode)
    case grid(GridNode)
    case textField(TextFieldNode)
    case toggle(ToggleNode)
    case picker(PickerNode)
    case link(LinkNode)
    case webPage(WebPageNode)
    case stickerBrowser(StickerBrowserNode)
    case spacer(SpacerNode)
    case divider(DividerNode)
    case modal(ModalNode)
    case group(GroupNode)

    /// An empty view.
    public static let empty = ViewNode.group(GroupNode(children: []))
}

/// A serialized action: the JSON of an app's `Action` value, sent back by the client when the
/// user activates the element. Hosts only accept actions present in the view they last sent.
public struct ActionPayload: Sendable, Hashable, Codable, CustomStringConvertible {
    public let json: String

    public init(json: String) { self.json = json }

    /// Encodes an app action. Encoding plain `Codable` enums and structs does not fail; if it
    /// ever does, the payload is empty and the host refuses it as an invalid action.
    public init<A: Encodable>(_ action: A) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.json = (try? encoder.encode(action)).flatMap { String(data: $0, encoding: .utf8) } ?? ""
    }

    /// The placeholder an input's action carries where the typed value goes.
    public static let valuePlaceholder = "\u{2042}parlor.value\u{2042}"

    /// Builds an input's action template by applying `makeAction` to the placeholder.
    public init<A: Encodable>(template makeAction: (String) -> A) {
        self.init(makeAction(ActionPayload.valuePlaceholder))
    }

    /// Whether this payload is a template awaiting a typed value.
    public var isTemplate: Bool { json.contains(ActionPayload.valuePlaceholder) }

    /// The template with the user's value in place of the placeholder.
    public func filling(_ value: String) -> ActionPayload {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let literal = (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "\"\""
        return ActionPayload(json: json.replacingOccurrences(of: "\"\(ActionPayload.valuePlaceholder)\"", with: literal))
    }

    public var description: String { json }

    public init(from decoder: any Decoder) throws {
        json = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(json)
    }
}

/// How text is styled; mirrors the Dynamic Type text styles.
public enum TextStyle: String, Sendable, Hashable, Codable, CaseIterable {
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption
}

/// A color role for text and buttons; the client maps roles to its theme.
public enum ColorRole: String, Sendable, Hashable, Codable {
    case primary, secondary, accent, positive, destructive
}

public enum Axis: String, Sendable, Hashable, Codable { case vertical, horizontal }
public enum Alignment: String, Sendable, Hashable, Codable { case leading, center, trailing }

/// Children laid out in a column or a row.
public struct StackNode: Sendable, Hashable, Codable {
    public var axis: Axis
    public var spacing: Int?
    public var alignment: Alignment
    public var children: [ViewNode]
}

public struct TextNode: Sendable, Hashable, Codable {
    public var text: String
    public var style: TextStyle
    public var color: ColorRole?
    public var id: String?
}

public struct ImageNode: Sendable, Hashable, Codable {
    public var source: ImageSource
    /// Read by screen readers; nil marks the image decorative.
    public var label: String?
    public var width: Int?
    public var height: Int?
    public var id: String?
}

public enum ButtonRole: String, Sendable, Hashable, Codable { case primary, secondary, destructive, plain }

public struct ButtonNode: Sendable, Hashable, Codable {
    public var title: String
    public var image: ImageSource?
    public var action: ActionPayload
    public var role: ButtonRole
    public var label: String
    public var disabled: Bool
    public var id: String?
}

/// A vertical list; its `row` children can be selected.
public struct ListNode: Sendable, Hashable, Codable {
    public var label: String
    public var children: [ViewNode]
    public var id: String?
}

/// A row of a list: content, and an action when the row is selectable.
public struct RowNode: Sendable, Hashable, Codable {
    public var label: String
    public var action: ActionPayload?
    public var selected: Bool
    public var children: [ViewNode]
    public var id: String?
}

/// Children in a grid of cells at least `minItemWidth` wide.
public struct GridNode: Sendable, Hashable, Codable {
    public var label: String
    public var minItemWidth: Int
    public var children: [ViewNode]
    public var id: String?
}

public enum TextFieldKind: String, Sendable, Hashable, Codable { case text, multiline, date, number, url }

/// A text input. `onChange` and `onSubmit` are action templates the host fills with the value.
public struct TextFieldNode: Sendable, Hashable, Codable {
    public var id: String
    public var label: String
    public var text: String
    public var placeholder: String?
    public var kind: TextFieldKind
    public var maxLength: Int
    public var onChange: ActionPayload?
    public var onSubmit: ActionPayload?
}

public struct ToggleNode: Sendable, Hashable, Codable {
    public var id: String
    public var label: String
    public var isOn: Bool
    /// Sent when the user switches it on (`turnOn`) or off (`turnOff`).
    public var turnOn: ActionPayload
    public var turnOff: ActionPayload
}

/// One choice among options (a segmented control).
public struct PickerNode: Sendable, Hashable, Codable {
    public struct Option: Sendable, Hashable, Codable {
        public var title: String
        public var action: ActionPayload
        public var selected: Bool
    }
    public var id: String
    public var label: String
    public var options: [Option]
}

/// A link to an http(s) page; clients open it in the in-app web page.
public struct LinkNode: Sendable, Hashable, Codable {
    public var title: String
    public var url: URL
    public var label: String
}

/// An in-app web page showing `url`.
public struct WebPageNode: Sendable, Hashable, Codable {
    public var url: URL
    public var title: String
}

/// A grid of stickers; tapping one inserts it into the compose field.
public struct StickerBrowserNode: Sendable, Hashable, Codable {
    public var label: String
    public var stickers: [Sticker]
    public var gridSize: StickerGridSize
}

public struct SpacerNode: Sendable, Hashable, Codable {
    public var minLength: Int?
}

public struct DividerNode: Sendable, Hashable, Codable {}

/// A screen presented over the app (`context.present(modal:)`); closing it dismisses it.
public struct ModalNode: Sendable, Hashable, Codable {
    public var title: String
    public var children: [ViewNode]
}

/// Several nodes side by side in their parent; what a builder block with many lines makes.
public struct GroupNode: Sendable, Hashable, Codable {
    public var children: [ViewNode]
}
