import Foundation

/// A column of views.
public struct VStack: ViewComponent {
    public let node: ViewNode
    public init(alignment: Alignment = .leading, spacing: Int? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .stack(StackNode(axis: .vertical, spacing: spacing, alignment: alignment, children: ViewNode.flatten(content())))
    }
}

/// A row of views.
public struct HStack: ViewComponent {
    public let node: ViewNode
    public init(alignment: Alignment = .center, spacing: Int? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .stack(StackNode(axis: .horizontal, spacing: spacing, alignment: alignment, children: ViewNode.flatten(content())))
    }
}

/// Text in one of the standard styles.
public struct Text: ViewComponent {
    public let node: ViewNode
    public init(_ text: String, style: TextStyle = .body, color: ColorRole? = nil, id: String? = nil) {
        node = .text(TextNode(text: text, style: style, color: color, id: id))
    }
}

/// An image. Give a `label` unless the image is decorative.
public struct Image: ViewComponent {
    public let node: ViewNode
    public init(_ source: ImageSource, label: String?, width: Int? = nil, height: Int? = nil, id: String? = nil) {
        node = .image(ImageNode(source: source, label: label, width: width, height: height, id: id))
    }
}

/// A button that sends `action` to the app's `handle(_:state:context:)`.
public struct Button: ViewComponent {
    public let node: ViewNode
    /// A text button; its title is its accessibility label unless `label` says otherwise.
    public init<A: Encodable>(
        _ title: String, action: A, role: ButtonRole = .primary, image: ImageSource? = nil,
        label: String? = nil, disabled: Bool = false, id: String? = nil
    ) {
        node = .button(ButtonNode(
            title: title, image: image, action: ActionPayload(action), role: role,
            label: label ?? title, disabled: disabled, id: id))
    }

    /// An image-only button; `label` is required because nothing else names it.
    public init<A: Encodable>(image: ImageSource, label: String, action: A, role: ButtonRole = .plain, id: String? = nil) {
        node = .button(ButtonNode(
            title: "", image: image, action: ActionPayload(action), role: role, label: label, disabled: false, id: id))
    }
}

/// A vertical list of rows.
public struct List: ViewComponent {
    public let node: ViewNode
    public init(label: String, id: String? = nil, @ViewBuilder rows: () -> ViewNode) {
        node = .list(ListNode(label: label, children: ViewNode.flatten(rows()), id: id))
    }
}

/// A list row; selectable when it has an action.
public struct ListRow: ViewComponent {
    public let node: ViewNode
    public init<A: Encodable>(label: String, action: A?, selected: Bool = false, id: String? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .row(RowNode(
            label: label, action: action.map { ActionPayload($0) }, selected: selected,
            children: ViewNode.flatten(content()), id: id))
    }

    /// A row that cannot be selected.
    public init(label: String, id: String? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .row(RowNode(label: label, action: nil, selected: false, children: ViewNode.flatten(content()), id: id))
    }
}

/// Cells in a grid that fills the width with columns at least `minItemWidth` points wide.
public struct Grid: ViewComponent {
    public let node: ViewNode
    public init(label: String, minItemWidth: Int = 120, id: String? = nil, @ViewBuilder content: () -> ViewNode) {
        node = .grid(GridNode(label: label, minItemWidth: minItemWidth, children: ViewNode.flatten(content()), id: id))
    }
}

/// A text input. `onChange` receives every edit, `onSubmit` the value when the user presses Return.
///
/// The action closures must put the value into the action unchanged (`Action.setTitle`): the host
/// fills the typed value into the action's JSON.
public struct TextField: ViewComponent {
    public let node: ViewNode
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
    public init<A: Encodable>(_ label: String, isOn: Bool, id: String, onChange: (Bool) -> A) {
        node = .toggle(ToggleNode(id: id, label: label, isOn: isOn, turnOn: ActionPayload(onChange(true)), turnOff: ActionPayload(onChange(false))))
    }
}

/// A choice among a few options, shown as a segmented control.
public struct Picker: ViewComponent {
    public let node: ViewNode
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
    public init(_ title: String, url: URL, label: String? = nil) {
        node = .link(LinkNode(title: title, url: url, label: label ?? title))
    }
}

/// An in-app web page.
public struct WebPage: ViewComponent {
    public let node: ViewNode
    public init(url: URL, title: String) {
        node = .webPage(WebPageNode(url: url, title: title))
    }
}

/// A browser of stickers; tapping a sticker inserts it into the compose field.
public struct StickerBrowser: ViewComponent {
    public let node: ViewNode
    public init(label: String, stickers: [Sticker], gridSize: StickerGridSize = .regular) {
        node = .stickerBrowser(StickerBrowserNode(label: label, stickers: stickers, gridSize: gridSize))
    }
}

/// Flexible space.
public struct Spacer: ViewComponent {
    public let node: ViewNode
    public init(minLength: Int? = nil) { node = .spacer(SpacerNode(minLength: minLength)) }
}

/// A thin line between views.
public struct Divider: ViewComponent {
    public let node: ViewNode = .divider(DividerNode())
    public init() {}
}

/// A screen shown over the app while `environment.modal` names it; its close control dismisses it.
public struct Modal: ViewComponent {
    public let node: ViewNode
    public init(title: String, @ViewBuilder content: () -> ViewNode) {
        node = .modal(ModalNode(title: title, children: ViewNode.flatten(content())))
    }
}
