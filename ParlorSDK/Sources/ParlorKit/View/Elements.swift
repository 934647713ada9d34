import Foundation

/// A column of views.
public struct VStack: ViewComponent {
    public let node: ViewNode
    /// A column.
    /// - Parameters:
    ///   - alignment: how the views are aligned horizontally; leading by default.
    ///   - spacing: the space between views, in points; nil for the client's default.
    ///   - content: the views, in order.
    public init(alignment: Alignment = .leading, spacing: Int? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .stack(StackNode(axis: .vertical, spacing: spacing, alignment: alignment, children: ViewNode.flatten(content())))
    }
}

/// A row of views.
public struct HStack: ViewComponent {
    public let node: ViewNode
    /// A row.
    /// - Parameters:
    ///   - alignment: how the views are aligned vertically; centered by default.
    ///   - spacing: the space between views, in points; nil for the client's default.
    ///   - content: the views, in order.
    public init(alignment: Alignment = .center, spacing: Int? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .stack(StackNode(axis: .horizontal, spacing: spacing, alignment: alignment, children: ViewNode.flatten(content())))
    }
}

/// Text in one of the standard styles.
public struct Text: ViewComponent {
    public let node: ViewNode
    /// Text.
    /// - Parameters:
    ///   - text: the text shown.
    ///   - style: the text style; body by default.
    ///   - color: the color role; nil for the style's default.
    ///   - id: an id for the element (`ViewNode.elementID`).
    public init(_ text: String, style: TextStyle = .body, color: ColorRole? = nil, id: String? = nil) {
        node = .text(TextNode(text: text, style: style, color: color, id: id))
    }
}

/// An image. Give a `label` unless the image is decorative.
public struct Image: ViewComponent {
    public let node: ViewNode
    /// An image.
    /// - Parameters:
    ///   - source: where the image comes from.
    ///   - label: what screen readers read; nil marks the image decorative.
    ///   - width: the width in points; nil for the client's default.
    ///   - height: the height in points; nil for the client's default.
    ///   - id: an id for the element (`ViewNode.elementID`).
    public init(_ source: ImageSource, label: String?, width: Int? = nil, height: Int? = nil, id: String? = nil) {
        node = .image(ImageNode(source: source, label: label, width: width, height: height, id: id))
    }
}

/// A button that sends `action` to the app's `handle(_:state:context:)`.
public struct Button: ViewComponent {
    public let node: ViewNode
    /// A text button; its title is its accessibility label unless `label` says otherwise.
    /// - Parameters:
    ///   - title: the title shown.
    ///   - action: the action sent when the user presses the button.
    ///   - role: how prominent the button is; primary by default.
    ///   - image: an image shown with the title, if any.
    ///   - label: the accessibility label; the title by default.
    ///   - disabled: whether the button is shown but cannot be pressed.
    ///   - color: the title's color, when it means something (a game's X and O); nil for the role's own.
    ///   - id: an id for the element (`ViewNode.elementID`); tests can find the button by it.
    public init<A: Encodable>(
        _ title: String, action: A, role: ButtonRole = .primary, image: ImageSource? = nil,
        label: String? = nil, disabled: Bool = false, color: ColorRole? = nil, id: String? = nil
    ) {
        node = .button(ButtonNode(
            title: title, image: image, action: ActionPayload(action), role: role,
            label: label ?? title, disabled: disabled, id: id, color: color))
    }

    /// An image-only button; `label` is required because nothing else names it.
    /// - Parameters:
    ///   - image: the image shown.
    ///   - label: the accessibility label.
    ///   - action: the action sent when the user presses the button.
    ///   - role: how prominent the button is; plain by default.
    ///   - id: an id for the element (`ViewNode.elementID`); tests can find the button by it.
    public init<A: Encodable>(image: ImageSource, label: String, action: A, role: ButtonRole = .plain, id: String? = nil) {
        node = .button(ButtonNode(
            title: "", image: image, action: ActionPayload(action), role: role, label: label, disabled: false, id: id, color: nil))
    }
}

/// A vertical list of rows.
public struct List: ViewComponent {
    public let node: ViewNode
    /// A list.
    /// - Parameters:
    ///   - label: the list's accessibility label.
    ///   - id: an id for the element (`ViewNode.elementID`).
    ///   - rows: the rows, usually `ListRow`s.
    public init(label: String, id: String? = nil, @ViewBuilder rows: () -> ViewNode) {
        node = .list(ListNode(label: label, children: ViewNode.flatten(rows()), id: id))
    }
}

/// A list row; selectable when it has an action.
public struct ListRow: ViewComponent {
    public let node: ViewNode
    /// A row that sends `action` when selected, or cannot be selected when `action` is nil.
    /// - Parameters:
    ///   - label: the row's accessibility label.
    ///   - action: the action sent to `handle(_:state:context:)` when the user selects the row.
    ///   - selected: whether the row is shown as selected.
    ///   - id: an id for the element (`ViewNode.elementID`); tests can find the row by it.
    ///   - accessory: what the row shows at its trailing edge: a chevron by default, which says
    ///     that selecting the row shows more; `.none` for a row that acts where it is (checks an
    ///     item off); `.checkmark` for one chosen or done (say so in `label` too).
    ///   - content: the row's content.
    public init<A: Encodable>(
        label: String, action: A?, selected: Bool = false, id: String? = nil, accessory: RowAccessory = .disclosureIndicator,
        @ViewBuilder content: () -> ViewNode
    ) {
        node = .row(RowNode(
            label: label, action: action.map { ActionPayload($0) }, selected: selected,
            children: ViewNode.flatten(content()), id: id, accessory: accessory == .disclosureIndicator ? nil : accessory))
    }

    /// A row that cannot be selected.
    /// - Parameters:
    ///   - label: the row's accessibility label.
    ///   - id: an id for the element (`ViewNode.elementID`).
    ///   - accessory: `.checkmark` for a row that is chosen or done (say so in `label` too); nothing by default.
    ///   - content: the row's content.
    public init(label: String, id: String? = nil, accessory: RowAccessory = .none, @ViewBuilder content: () -> ViewNode) {
        node = .row(RowNode(
            label: label, action: nil, selected: false, children: ViewNode.flatten(content()), id: id,
            accessory: accessory == .checkmark ? accessory : nil))
    }
}

/// Cells in a grid: columns at least `minItemWidth` points wide that fill the width, or a fixed
/// number of `columns`.
public struct Grid: ViewComponent {
    public let node: ViewNode
    /// A grid.
    /// - Parameters:
    ///   - label: the grid's accessibility label.
    ///   - minItemWidth: the narrowest a column may be, in points; 120 by default.
    ///   - id: an id for the element (`ViewNode.elementID`).
    ///   - content: the cells, in order.
    public init(label: String, minItemWidth: Int = 120, id: String? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .grid(GridNode(label: label, minItemWidth: minItemWidth, columns: nil, scrollAxis: nil, children: ViewNode.flatten(content()), id: id))
    }

    /// A grid of exactly `columns` columns, whatever the width: a board (3 × 3 squares), a keypad.
    /// - Parameters:
    ///   - label: the grid's accessibility label.
    ///   - columns: how many columns, from 1 to 12.
    ///   - id: an id for the element (`ViewNode.elementID`).
    ///   - content: the cells, row by row.
    public init(label: String, columns: Int, id: String? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .grid(
            GridNode(label: label, minItemWidth: 0, columns: min(max(columns, 1), 12), scrollAxis: nil, children: ViewNode.flatten(content()), id: id))
    }
}

/// A row of cells that scrolls sideways, each `itemWidth` points wide: a picker of images to
/// choose from, as the carousel of Apple's IceCreamBuilder sample. Keyboard users move through
/// its buttons with Tab; each focused cell is scrolled into view.
public struct Carousel: ViewComponent {
    public let node: ViewNode
    /// A carousel.
    /// - Parameters:
    ///   - label: the carousel's accessibility label ("Scoops").
    ///   - itemWidth: each cell's width in points, from 40 to 600; 96 by default.
    ///   - id: an id for the element (`ViewNode.elementID`).
    ///   - content: the cells, in order.
    public init(label: String, itemWidth: Int = 96, id: String? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .grid(
            GridNode(
                label: label, minItemWidth: min(max(itemWidth, 40), 600), columns: nil, scrollAxis: .horizontal,
                children: ViewNode.flatten(content()), id: id))
    }
}

/// A text input. `onChange` receives every edit, `onSubmit` the value when the user presses Return.
///
/// The action closures must put the value into the action unchanged (`Action.setTitle`): the host
/// fills the typed value into the action's JSON.
public struct TextField: ViewComponent {
    public let node: ViewNode
    /// A text field.
    /// - Parameters:
    ///   - label: the field's label, shown and read by screen readers.
    ///   - text: the text in the field, usually from the state.
    ///   - id: the field's id (`ViewNode.elementID`); tests can find the field by it.
    ///   - placeholder: shown while the field is empty.
    ///   - kind: what the field takes; one line of text by default.
    ///   - maxLength: the most characters the field takes; 500 by default.
    ///   - onChange: makes the action sent on every edit from the value.
    ///   - onSubmit: makes the action sent when the user presses Return from the value.
    public init<A: Encodable>(
        _ label: String, text: String, id: String, placeholder: String? = nil, kind: TextFieldKind = .text,
        maxLength: Int = 500, onChange: ((String) -> A)? = nil, onSubmit: ((String) -> A)? = nil
    ) {
        node = .textField(TextFieldNode(
            id: id, label: label, text: text, placeholder: placeholder, kind: kind, maxLength: maxLength,
            onChange: onChange.map { ActionPayload(template: $0) }, onSubmit: onSubmit.map { ActionPayload(template: $0) }))
    }
}

/// An on/off switch.
public struct Toggle: ViewComponent {
    public let node: ViewNode
    /// A switch.
    /// - Parameters:
    ///   - label: the switch's label, shown and read by screen readers.
    ///   - isOn: whether it is on, usually from the state.
    ///   - id: the switch's id (`ViewNode.elementID`); tests can find the switch by it.
    ///   - onChange: makes the action sent when the user switches it, from the new value.
    public init<A: Encodable>(_ label: String, isOn: Bool, id: String, onChange: (Bool) -> A) {
        node = .toggle(ToggleNode(id: id, label: label, isOn: isOn, turnOn: ActionPayload(onChange(true)), turnOff: ActionPayload(onChange(false))))
    }
}

/// A choice among a few options, shown as a segmented control.
public struct Picker: ViewComponent {
    public let node: ViewNode
    /// A picker.
    /// - Parameters:
    ///   - label: the picker's accessibility label.
    ///   - selection: the value chosen now, usually from the state.
    ///   - options: each option's title and value, in order.
    ///   - id: the picker's id (`ViewNode.elementID`); tests can find the picker by it.
    ///   - onChange: makes the action sent when the user picks an option, from its value.
    public init<Value: Hashable, A: Encodable>(
        _ label: String, selection: Value, options: [(title: String, value: Value)], id: String, onChange: (Value) -> A
    ) {
        node = .picker(PickerNode(id: id, label: label, options: options.map {
            PickerNode.Option(title: $0.title, action: ActionPayload(onChange($0.value)), selected: $0.value == selection)
        }))
    }
}

/// A link to a web page, opened in the in-app web page.
public struct Link: ViewComponent {
    public let node: ViewNode
    /// A link.
    /// - Parameters:
    ///   - title: the link text shown.
    ///   - url: the page's http(s) address.
    ///   - label: the accessibility label; the title by default.
    public init(_ title: String, url: URL, label: String? = nil) {
        node = .link(LinkNode(title: title, url: url, label: label ?? title))
    }
}

/// An in-app web page.
public struct WebPage: ViewComponent {
    public let node: ViewNode
    /// A web page.
    /// - Parameters:
    ///   - url: the page's address.
    ///   - title: the page's title.
    public init(url: URL, title: String) {
        node = .webPage(WebPageNode(url: url, title: title))
    }
}

/// A browser of stickers; tapping a sticker inserts it into the compose field.
public struct StickerBrowser: ViewComponent {
    public let node: ViewNode
    /// A sticker browser.
    /// - Parameters:
    ///   - label: the browser's accessibility label.
    ///   - stickers: the stickers, in order.
    ///   - gridSize: how large to draw them; regular by default.
    public init(label: String, stickers: [Sticker], gridSize: StickerGridSize = .regular) {
        node = .stickerBrowser(StickerBrowserNode(label: label, stickers: stickers, gridSize: gridSize))
    }
}

/// Flexible space.
public struct Spacer: ViewComponent {
    public let node: ViewNode
    /// Flexible space.
    /// - Parameter minLength: the least space, in points; nil for the client's default.
    public init(minLength: Int? = nil) { node = .spacer(SpacerNode(minLength: minLength)) }
}

/// A thin line between views.
public struct Divider: ViewComponent {
    public let node: ViewNode = .divider(DividerNode())
    /// A divider.
    public init() {}
}

/// A screen shown over the app while `environment.modal` names it; its close control dismisses it.
public struct Modal: ViewComponent {
    public let node: ViewNode
    /// A modal screen.
    /// - Parameters:
    ///   - title: the screen's title.
    ///   - content: the screen's content.
    public init(title: String, @ViewBuilder content: () -> ViewNode) {
        node = .modal(ModalNode(title: title, children: ViewNode.flatten(content())))
    }
}
