/// Something that is a view: every DSL element, and `ViewNode` itself.
public protocol ViewComponent: Sendable {
    /// The node this element stands for.
    var node: ViewNode { get }
}

extension ViewNode: ViewComponent {
    public var node: ViewNode { self }
}

/// Builds view trees from blocks of elements, with `if`, `switch` and `for` inside.
///
/// ```swift
/// VStack {
///     Text("Pick one", style: .headline)
///     for item in items { Button(item.name, action: Action.pick(item.id)) }
///     if showHelp { Text("Tap an item to send it.", style: .caption) }
/// }
/// ```
@resultBuilder
public enum ViewBuilder {
    public static func buildExpression(_ component: some ViewComponent) -> [ViewNode] { [component.node] }
    public static func buildExpression(_ nodes: [ViewNode]) -> [ViewNode] { nodes }
    public static func buildBlock(_ parts: [ViewNode]...) -> [ViewNode] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [ViewNode]?) -> [ViewNode] { part ?? [] }
    public static func buildEither(first part: [ViewNode]) -> [ViewNode] { part }
    public static func buildEither(second part: [ViewNode]) -> [ViewNode] { part }
    public static func buildArray(_ parts: [[ViewNode]]) -> [ViewNode] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [ViewNode]) -> [ViewNode] { part }
    public static func buildFinalResult(_ parts: [ViewNode]) -> ViewNode {
        parts.count == 1 ? parts[0] : .group(GroupNode(children: parts))
    }
}

extension ViewNode {
    /// This node's children with groups dissolved into their members.
    static func flatten(_ node: ViewNode) -> [ViewNode] {
        if case .group(let group) = node { return group.children.flatMap(flatten) }
        return [node]
    }
}
