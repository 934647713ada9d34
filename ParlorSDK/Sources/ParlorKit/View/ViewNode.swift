import Foundation

/// A node of an app's view tree: what `body` returns, what a server sends to a browser.
///
/// Build trees with the DSL (`VStack { Text("Hi"); Button("Go", action: Action.go) }`) rather than
/// with these cases. On the wire each node is a JSON object whose `type` names the case
/// (`{"type":"text","text":"Hi","style":"body"}`); see docs/PROTOCOL.md.
public indirect enum ViewNode: Sendable, Hashable {
    /// Children in a column or a row (`VStack`, `HStack`).
    case stack(StackNode)
    /// Text (`Text`).
    case text(TextNode)
    /// An image (`Image`).
    case image(ImageNode)
    /// A button (`Button`).
    case button(ButtonNode)
    /// A vertical list of rows (`List`).
    case list(ListNode)
    /// A row of a list (`ListRow`).
    case row(RowNode)
    /// Cells in a grid (`Grid`).
    case grid(GridNode)
    /// A text input (`TextField`).
    case textField(TextFieldNode)
    /// An on/off switch (`Toggle`).
    case toggle(ToggleNode)
    /// One choice among options (`Picker`).
    case picker(PickerNode)
    /// A link to a web page (`Link`).
    case link(LinkNode)
    /// An in-app web page (`WebPage`).
    case webPage(WebPageNode)
    /// A grid of stickers (`StickerBrowser`).
    case stickerBrowser(StickerBrowserNode)
    /// Flexible space (`Spacer`).
    case spacer(SpacerNode)
    /// A thin line between views (`Divider`).
    case divider(DividerNode)
    /// A screen presented over the app (`Modal`).
    case modal(ModalNode)
    /// Several nodes side by side in their parent.
    case group(GroupNode)

    /// An empty view.
    public static let empty = ViewNode.group(GroupNode(children: []))
}

/// A serialized action: the JSON of an app's `Action` value, sent back by the client when the
/// user activates the element. Hosts only accept actions present in the view they last sent.
public struct ActionPayload: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The action's JSON.
    public let json: String

    /// Wraps JSON as is.
    /// - Parameter json: an action's JSON.
    public init(json: String) { self.json = json }

    /// Encodes an app action. Encoding plain `Codable` enums and structs does not fail; if it
    /// ever does, the payload is empty and the host refuses it as an invalid action.
    /// - Parameter action: the app's action value.
    public init<A: Encodable>(_ action: A) {
        self.json = (try? Self.encoder.text(action)) ?? ""
    }

    /// The same action always gives the same text: a dictionary's entries in key order, the
    /// members of other values in the order they encode them.
    private static let encoder = CompactJSONEncoder(escapesSlashes: false, sortsDictionaryKeys: true)

    /// The placeholder an input's action carries where the typed value goes.
    public static let valuePlaceholder = "\u{2042}parlor.value\u{2042}"

    /// Builds an input's action template by applying `makeAction` to the placeholder.
    /// - Parameter makeAction: makes the app's action from a typed value.
    public init<A: Encodable>(template makeAction: (String) -> A) {
        self.init(makeAction(ActionPayload.valuePlaceholder))
    }

    /// Whether this payload is a template awaiting a typed value.
    public var isTemplate: Bool { json.contains(ActionPayload.valuePlaceholder) }

    /// The template with the user's value in place of the placeholder.
    /// - Parameter value: the value the user typed or chose.
    public func filling(_ value: String) -> ActionPayload {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let literal = (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "\"\""
        return ActionPayload(json: json.replacingOccurrences(of: "\"\(ActionPayload.valuePlaceholder)\"", with: literal))
    }

    /// The action's JSON.
    public var description: String { json }

    /// Decodes a payload from its JSON, carried as a string.
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        json = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the payload as its JSON, carried as a string.
    /// - Parameter encoder: the encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(json)
    }
}

/// How text is styled; mirrors the Dynamic Type text styles.
public enum TextStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// One of the Dynamic Type text styles, by its Apple name.
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption
}

/// A color role for text and buttons; the client maps roles to its theme.
public enum ColorRole: String, Sendable, Hashable, Codable {
    /// A role: the main text color (`primary`), muted text (`secondary`), the theme's accent,
    /// good news (`positive`) or danger (`destructive`).
    case primary, secondary, accent, positive, destructive
}

/// The direction a stack lays out its children: a column (`vertical`) or a row (`horizontal`).
public enum Axis: String, Sendable, Hashable, Codable { case vertical, horizontal }
/// How a stack aligns its children across its axis: `leading`, `center` or `trailing`.
public enum Alignment: String, Sendable, Hashable, Codable { case leading, center, trailing }

/// Children laid out in a column or a row.
public struct StackNode: Sendable, Hashable, Codable {
    /// A column (`vertical`) or a row (`horizontal`).
    public var axis: Axis
    /// The space between children, in points; nil for the client's default.
    public var spacing: Int?
    /// How the children are aligned across the axis.
    public var alignment: Alignment
    /// The views, in order.
    public var children: [ViewNode]
}

/// Text in one of the standard styles; see `Text`.
public struct TextNode: Sendable, Hashable, Codable {
    /// The text shown.
    public var text: String
    /// The text style.
    public var style: TextStyle
    /// The color role; nil for the style's default.
    public var color: ColorRole?
    /// The element's id, if the app gave one (`ViewNode.elementID`).
    public var id: String?
}

/// An image; see `Image`.
public struct ImageNode: Sendable, Hashable, Codable {
    /// Where the image comes from.
    public var source: ImageSource
    /// Read by screen readers; nil marks the image decorative.
    public var label: String?
    /// The width in points; nil for the client's default.
    public var width: Int?
    /// The height in points; nil for the client's default.
    public var height: Int?
    /// The element's id, if the app gave one (`ViewNode.elementID`).
    public var id: String?
}

/// How prominent a button is: `primary` (filled with the accent color), `secondary`,
/// `destructive` (a dangerous action), or `plain` (no background).
public enum ButtonRole: String, Sendable, Hashable, Codable { case primary, secondary, destructive, plain }

/// A button that sends its action to the app; see `Button`.
public struct ButtonNode: Sendable, Hashable, Codable {
    /// The title shown; empty for an image-only button.
    public var title: String
    /// An image shown with or instead of the title.
    public var image: ImageSource?
    /// The action sent when the user presses the button.
    public var action: ActionPayload
    /// How prominent the button is.
    public var role: ButtonRole
    /// The accessibility label.
    public var label: String
    /// Whether the button is shown but cannot be pressed.
    public var disabled: Bool
    /// The element's id, if the app gave one (`ViewNode.elementID`).
    public var id: String?
    /// The color of the title, when it means something (a game's mark); nil for the role's own.
    public var color: ColorRole?
}

/// A vertical list; its `row` children can be selected.
public struct ListNode: Sendable, Hashable, Codable {
    /// The list's accessibility label.
    public var label: String
    /// The rows, in order.
    public var children: [ViewNode]
    /// The element's id, if the app gave one (`ViewNode.elementID`).
    public var id: String?
}

/// A row of a list: content, and an action when the row is selectable.
public struct RowNode: Sendable, Hashable, Codable {
    /// The row's accessibility label.
    public var label: String
    /// The action sent when the user selects the row; nil when it cannot be selected.
    public var action: ActionPayload?
    /// Whether the row is shown as selected.
    public var selected: Bool
    /// The row's content.
    public var children: [ViewNode]
    /// The element's id, if the app gave one (`ViewNode.elementID`).
    public var id: String?
    /// What the row shows at its trailing edge; nil for the default (a chevron on a row with an
    /// action, nothing on one without). A chevron is drawn only on a row with an action.
    public var accessory: RowAccessory? = nil
}

/// What a row shows at its trailing edge, as UIKit's `accessoryType`.
public enum RowAccessory: String, Sendable, Hashable, Codable {
    /// A chevron: selecting the row shows more (a note's detail). The default for a row with an action.
    case disclosureIndicator
    /// A check mark: the row is chosen or done. Drawn, not read: say it in the row's label too.
    case checkmark
    /// Nothing: selecting the row acts where it is (checks an item off).
    case none
}

/// Children in a grid of cells at least `minItemWidth` wide.
public struct GridNode: Sendable, Hashable, Codable {
    /// The grid's accessibility label.
    public var label: String
    /// The narrowest a column may be, in points.
    public var minItemWidth: Int
    /// A fixed number of columns (a board of 3 × 3 buttons), whatever the width; nil fills the
    /// width with columns at least `minItemWidth` wide.
    public var columns: Int?
    /// `horizontal`: the cells sit in one row, each `minItemWidth` wide, that scrolls sideways
    /// (a carousel, `Carousel`); nil wraps them into rows that fill the width.
    public var scrollAxis: Axis?
    /// The cells, in order.
    public var children: [ViewNode]
    /// The element's id, if the app gave one (`ViewNode.elementID`).
    public var id: String?
}

/// What a text field takes: one line of `text`, `multiline` text, a `date`, a `number` or a `url`.
public enum TextFieldKind: String, Sendable, Hashable, Codable { case text, multiline, date, number, url }

/// A text input. `onChange` and `onSubmit` are action templates the host fills with the value.
public struct TextFieldNode: Sendable, Hashable, Codable {
    /// The element's id (`ViewNode.elementID`); tests can find the control by it.
    public var id: String
    /// The field's label, shown and read by screen readers.
    public var label: String
    /// The text in the field.
    public var text: String
    /// Shown while the field is empty.
    public var placeholder: String?
    /// What the field takes.
    public var kind: TextFieldKind
    /// The most characters the field takes.
    public var maxLength: Int
    /// The action template sent on every edit, if any.
    public var onChange: ActionPayload?
    /// The action template sent when the user presses Return, if any.
    public var onSubmit: ActionPayload?
}

/// An on/off switch; see `Toggle`.
public struct ToggleNode: Sendable, Hashable, Codable {
    /// The element's id (`ViewNode.elementID`); tests can find the control by it.
    public var id: String
    /// The switch's label, shown and read by screen readers.
    public var label: String
    /// Whether the switch is on.
    public var isOn: Bool
    /// Sent when the user switches it on (`turnOn`) or off (`turnOff`).
    public var turnOn: ActionPayload
    /// Sent when the user switches it off.
    public var turnOff: ActionPayload
}

/// One choice among options (a segmented control).
public struct PickerNode: Sendable, Hashable, Codable {
    /// One option of a picker.
    public struct Option: Sendable, Hashable, Codable {
        /// The option's title.
        public var title: String
        /// The action sent when the user picks the option.
        public var action: ActionPayload
        /// Whether the option is the current choice.
        public var selected: Bool
    }
    /// The element's id (`ViewNode.elementID`); tests can find the control by it.
    public var id: String
    /// The picker's accessibility label.
    public var label: String
    /// The options, in order.
    public var options: [Option]
}

/// A link to an http(s) page; clients open it in the in-app web page.
public struct LinkNode: Sendable, Hashable, Codable {
    /// The link text shown.
    public var title: String
    /// The page's http(s) address.
    public var url: URL
    /// The link's accessibility label.
    public var label: String
}

extension LinkNode {
    /// Decodes a link; its URL is read exactly as written (`URL(exactly:)`).
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decode(String.self, forKey: .title), url: try container.decodeExactURL(forKey: .url),
            label: try container.decode(String.self, forKey: .label))
    }
}

/// An in-app web page showing `url`.
public struct WebPageNode: Sendable, Hashable, Codable {
    /// The page's address.
    public var url: URL
    /// The page's title.
    public var title: String
}

extension WebPageNode {
    /// Decodes a web page; its URL is read exactly as written (`URL(exactly:)`).
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(url: try container.decodeExactURL(forKey: .url), title: try container.decode(String.self, forKey: .title))
    }
}

/// A grid of stickers; tapping one inserts it into the compose field.
public struct StickerBrowserNode: Sendable, Hashable, Codable {
    /// The browser's accessibility label.
    public var label: String
    /// The stickers, in order.
    public var stickers: [Sticker]
    /// How large the stickers are drawn.
    public var gridSize: StickerGridSize
}

/// Flexible space; see `Spacer`.
public struct SpacerNode: Sendable, Hashable, Codable {
    /// The least space, in points; nil for the client's default.
    public var minLength: Int?
}

/// A thin line between views; see `Divider`.
public struct DividerNode: Sendable, Hashable, Codable {}

/// A screen presented over the app (`context.present(modal:)`); closing it dismisses it.
public struct ModalNode: Sendable, Hashable, Codable {
    /// The screen's title.
    public var title: String
    /// The screen's content.
    public var children: [ViewNode]
}

/// Several nodes side by side in their parent; what a builder block with many lines makes.
public struct GroupNode: Sendable, Hashable, Codable {
    /// The nodes, in order.
    public var children: [ViewNode]
}
