// Views as ParlorKit writes them (docs/PROTOCOL.md §6.2), built with the same kind of builder:
//
//     VStack(spacing: 12) {
//         Text("It's your move!", style: .headline)
//         Button("Rematch", action: ["rematch": [:]])
//     }

/// A node of a view tree, as JSON.
public struct View {
    public var json: JSON

    public init(json: JSON) { self.json = json }
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
        var url = utf8Bytes(of: "data:image/svg+xml;charset=utf-8,")
        PercentEncoding.encode(markup, to: &url)
        return ImageSource(url: String(decoding: url, as: UTF8.self))
    }

    public var json: JSON { upload.map { ["upload": .string($0)] } ?? ["url": .string(url)] }
}

func children(_ views: [View]) -> JSON { .array(views.map { $0.json }) }

func adding(_ members: [(String, JSON)], _ optional: [(String, JSON?)]) -> JSON {
    var all = members
    for (name, value) in optional {
        if let value { all.append((name, value)) }
    }
    return .object(all)
}

public struct VStack: ViewContent {
    public let view: View

    /// - Parameter alignment: `.leading` by default, as ParlorKit's.
    public init(alignment: Alignment = .leading, spacing: Int? = nil, @ViewBuilder _ content: () -> [View]) {
        view = View(json: adding(
            [("type", "stack"), ("axis", "vertical"), ("alignment", .string(alignment.rawValue))],
            [("spacing", spacing.map { JSON.int($0) }), ("children", children(content()))]))
    }
}

public struct HStack: ViewContent {
    public let view: View

    public init(alignment: Alignment = .center, spacing: Int? = nil, @ViewBuilder _ content: () -> [View]) {
        view = View(json: adding(
            [("type", "stack"), ("axis", "horizontal"), ("alignment", .string(alignment.rawValue))],
            [("spacing", spacing.map { JSON.int($0) }), ("children", children(content()))]))
    }
}

public struct Text: ViewContent {
    public let view: View

    public init(_ text: String, style: TextStyle = .body, color: ColorRole? = nil, id: String? = nil) {
        view = View(json: adding(
            [("type", "text"), ("text", .string(text)), ("style", .string(style.rawValue))],
            [("color", color.map { JSON.string($0.rawValue) }), ("id", id.map { JSON.string($0) })]))
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
        view = View(json: adding(
            [("type", "button"), ("title", .string(title)), ("action", .string(action.textString)),
             ("role", .string(role.rawValue)), ("label", .string(label ?? title)), ("disabled", .bool(disabled))],
            [("id", id.map { JSON.string($0) }), ("color", color.map { JSON.string($0.rawValue) })]))
    }
}

public struct Image: ViewContent {
    public let view: View

    /// - Parameter label: what screen readers say; nil for a decorative image.
    public init(_ source: ImageSource, label: String? = nil, width: Int? = nil, height: Int? = nil) {
        view = View(json: adding(
            [("type", "image"), ("source", source.json)],
            [("label", label.map { JSON.string($0) }), ("width", width.map { JSON.int($0) }), ("height", height.map { JSON.int($0) })]))
    }
}

public struct Spacer: ViewContent {
    public let view = View(json: ["type": "spacer"])
    public init() {}
}

public struct Divider: ViewContent {
    public let view = View(json: ["type": "divider"])
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
        view = View(json: adding(
            [("type", "textField"), ("id", .string(id)), ("label", .string(label)), ("text", .string(text)),
             ("kind", .string(kind.rawValue)), ("maxLength", .int(maxLength))],
            [("placeholder", placeholder.map { JSON.string($0) }), ("onChange", onChange.map { JSON.string($0.textString) }),
             ("onSubmit", onSubmit.map { JSON.string($0.textString) })]))
    }
}
