// Views as ParlorKit writes them (docs/PROTOCOL.md §6.2), built with the same kind of builder:
//
//     VStack(spacing: 12) {
//         Text("It's your move!", style: .headline)
//         Button("Rematch", action: ["rematch": [:]])
//     }

/// A node of a view tree: its JSON text, written once as it is built. A parent copies its
/// children's text in, and the answer copies the whole, rather than building a tree of `JSON`
/// values and writing it out afterwards (which cost a Tic-Tac-Toe board half of its call).
public struct View {
    /// The node as UTF-8 JSON text, where it was written: a module's memory is never given back
    /// during a call, so each copy of a large image would stay until the call ends.
    let text: WrittenBytes

    public init(json: JSON) {
        var out = ByteWriter()
        json.write(to: &out)
        text = out.finish()
    }

    init(text: WrittenBytes) { self.text = text }

    /// The node as a JSON value, read back from its text.
    public var json: JSON { (try? JSON(parsing: text.buffer)) ?? .null }
}

/// Writes one node's object, member by member, in the order given.
struct NodeWriter: ~Copyable {
    private var out: ByteWriter
    private var empty = true

    /// - Parameter capacity: room for what the node will hold beyond its few short members
    ///   (its children's text, an image's URL), so that it is written without growing.
    init(type: StaticString, capacity: Int = 0) {
        out = ByteWriter(capacity: 128 + capacity)
        out.append(UInt8(ascii: "{"))
        name("type")
        out.append(UInt8(ascii: "\""))
        out.appendLiteral(type)
        out.append(UInt8(ascii: "\""))
    }

    private mutating func name(_ name: StaticString) {
        if !empty { out.append(UInt8(ascii: ",")) }
        empty = false
        out.append(UInt8(ascii: "\""))
        out.appendLiteral(name)
        out.appendLiteral("\":")
    }

    mutating func string(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        self.name(name)
        JSON.writeString(value, to: &out)
    }

    mutating func int(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        self.name(name)
        out.appendDecimal(value)
    }

    mutating func bool(_ name: StaticString, _ value: Bool) {
        self.name(name)
        if value { out.appendLiteral("true") } else { out.appendLiteral("false") }
    }

    mutating func json(_ name: StaticString, _ value: JSON?) {
        guard let value else { return }
        self.name(name)
        value.write(to: &out)
    }

    mutating func children(_ views: [View]) {
        name("children")
        out.append(UInt8(ascii: "["))
        for (index, view) in views.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(view.text.buffer)
        }
        out.append(UInt8(ascii: "]"))
    }

    consuming func view() -> View {
        out.append(UInt8(ascii: "}"))
        return View(text: out.finish())
    }
}

/// Anything that is a node: the types below.
public protocol ViewContent {
    var view: View { get }
}

extension View: ViewContent {
    public var view: View { self }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildExpression<Content: ViewContent>(_ content: Content) -> [View] { [content.view] }
    public static func buildExpression(_ views: [View]) -> [View] { views }
    public static func buildBlock(_ parts: [View]...) -> [View] {
        var all: [View] = []
        for part in parts { all.append(contentsOf: part) }
        return all
    }
    public static func buildOptional(_ part: [View]?) -> [View] { part ?? [] }
    public static func buildEither(first part: [View]) -> [View] { part }
    public static func buildEither(second part: [View]) -> [View] { part }
    public static func buildArray(_ parts: [[View]]) -> [View] {
        var all: [View] = []
        for part in parts { all.append(contentsOf: part) }
        return all
    }
}

public enum TextStyle: String {
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption
}

public enum ColorRole: String {
    case primary, secondary, accent, positive, destructive
}

public enum ButtonRole: String {
    case primary, secondary, destructive, plain
}

public enum Alignment: String {
    case leading, center, trailing
}

/// An image in a view or a message: a URL as written (https or data), or an image the app
/// uploaded (`Host.upload`), by its id.
public struct ImageSource {
    /// The URL; empty for an upload.
    public var url: String
    /// The upload's id, for an image the app uploaded.
    public var upload: String?

    public init(url: String) { self.url = url }

    /// An image the app uploaded, by the id `Host.upload` gave it.
    public static func upload(_ id: String) -> ImageSource {
        var source = ImageSource(url: "")
        source.upload = id
        return source
    }

    /// An SVG drawing carried inline, as ParlorKit's `.svg` does.
    public static func svg(_ markup: String) -> ImageSource {
        var url = ByteWriter(capacity: 40 + 3 * markup.utf8.count)
        url.appendLiteral("data:image/svg+xml;charset=utf-8,")
        PercentEncoding.encode(markup, to: &url)
        return ImageSource(url: url.string)
    }

    public var json: JSON { upload.map { ["upload": .string($0)] } ?? ["url": .string(url)] }
}

public struct VStack: ViewContent {
    public let view: View

    /// - Parameter alignment: `.leading` by default, as ParlorKit's.
    public init(alignment: Alignment = .leading, spacing: Int? = nil, @ViewBuilder _ content: () -> [View]) {
        view = stack(axis: "vertical", alignment: alignment, spacing: spacing, children: content())
    }
}

public struct HStack: ViewContent {
    public let view: View

    public init(alignment: Alignment = .center, spacing: Int? = nil, @ViewBuilder _ content: () -> [View]) {
        view = stack(axis: "horizontal", alignment: alignment, spacing: spacing, children: content())
    }
}

/// A stack's node, sized to hold its children's text.
private func stack(axis: String, alignment: Alignment, spacing: Int?, children: [View]) -> View {
    var node = NodeWriter(type: "stack", capacity: children.reduce(0) { $0 + $1.text.count + 1 })
    node.string("axis", axis)
    node.string("alignment", alignment.rawValue)
    node.int("spacing", spacing)
    node.children(children)
    return node.view()
}

public struct Text: ViewContent {
    public let view: View

    public init(_ text: String, style: TextStyle = .body, color: ColorRole? = nil, id: String? = nil) {
        var node = NodeWriter(type: "text")
        node.string("text", text)
        node.string("style", style.rawValue)
        node.string("color", color?.rawValue)
        node.string("id", id)
        view = node.view()
    }
}

public struct Button: ViewContent {
    public let view: View

    /// - Parameters:
    ///   - action: what `handle` receives when the button is used, as JSON.
    ///   - label: what screen readers say; the title when nil.
    public init(
        _ title: String, action: JSON, role: ButtonRole = .secondary, label: String? = nil, disabled: Bool = false,
        color: ColorRole? = nil, id: String? = nil
    ) {
        var node = NodeWriter(type: "button")
        node.string("title", title)
        node.string("action", action.textString)
        node.string("role", role.rawValue)
        node.string("label", label ?? title)
        node.bool("disabled", disabled)
        node.string("id", id)
        node.string("color", color?.rawValue)
        view = node.view()
    }
}

public struct Image: ViewContent {
    public let view: View

    /// - Parameter label: what screen readers say; nil for a decorative image.
    public init(_ source: ImageSource, label: String? = nil, width: Int? = nil, height: Int? = nil) {
        var node = NodeWriter(type: "image", capacity: source.url.utf8.count)
        node.json("source", source.json)
        node.string("label", label)
        node.int("width", width)
        node.int("height", height)
        view = node.view()
    }
}

public struct Spacer: ViewContent {
    public let view = NodeWriter(type: "spacer").view()
    public init() {}
}

public struct Divider: ViewContent {
    public let view = NodeWriter(type: "divider").view()
    public init() {}
}

public enum TextFieldKind: String {
    case text, multiline, date, number, url
}

public struct TextField: ViewContent {
    public let view: View

    /// Where the typed text goes in an `onChange` or `onSubmit` action: Parlor puts the text
    /// there, as a JSON string, before it calls `handle` (`["name": TextField.typed]`).
    public static let typed: JSON = "\u{2042}parlor.value\u{2042}"

    public init(
        _ label: String, text: String, id: String, placeholder: String? = nil, kind: TextFieldKind = .text, maxLength: Int = 500,
        onChange: JSON? = nil, onSubmit: JSON? = nil
    ) {
        var node = NodeWriter(type: "textField")
        node.string("id", id)
        node.string("label", label)
        node.string("text", text)
        node.string("kind", kind.rawValue)
        node.int("maxLength", maxLength)
        node.string("placeholder", placeholder)
        node.string("onChange", onChange?.textString)
        node.string("onSubmit", onSubmit?.textString)
        view = node.view()
    }
}
