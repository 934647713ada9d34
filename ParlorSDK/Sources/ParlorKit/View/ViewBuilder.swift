/// Something that is a view: every DSL element, and `ViewNode` itself.
public protocol ViewComponent: Sendable {
    /// The node this element stands for.
    var node: ViewNode { get }
}

extension ViewNode: ViewComponent {
    /// The node itself.
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
    /// Takes one element.
    /// - Parameter component: an element, such as `Text` or a `ViewNode`.
    /// - Returns: the element's node.
    public static func buildExpression(_ component: some ViewComponent) -> [ViewNode] { [component.node] }
    /// Takes a list of nodes as they are.
    /// - Parameter nodes: the nodes.
    /// - Returns: the same nodes.
    public static func buildExpression(_ nodes: [ViewNode]) -> [ViewNode] { nodes }
    /// Joins a block's lines, in order.
    /// - Parameter parts: each line's nodes.
    /// - Returns: all the nodes, in order.
    public static func buildBlock(_ parts: [ViewNode]...) -> [ViewNode] { parts.flatMap { $0 } }
    /// An `if` without `else`: its nodes, or none.
    /// - Parameter part: the nodes when the condition held.
    /// - Returns: those nodes, or none.
    public static func buildOptional(_ part: [ViewNode]?) -> [ViewNode] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    /// - Parameter part: the branch's nodes.
    /// - Returns: the same nodes.
    public static func buildEither(first part: [ViewNode]) -> [ViewNode] { part }
    /// The second branch of an `if`/`else` or `switch`.
    /// - Parameter part: the branch's nodes.
    /// - Returns: the same nodes.
    public static func buildEither(second part: [ViewNode]) -> [ViewNode] { part }
    /// A `for` loop: every pass's nodes, in order.
    /// - Parameter parts: each pass's nodes.
    /// - Returns: all the nodes, in order.
    public static func buildArray(_ parts: [[ViewNode]]) -> [ViewNode] { parts.flatMap { $0 } }
    /// An `if #available` block.
    /// - Parameter part: the block's nodes.
    /// - Returns: the same nodes.
    public static func buildLimitedAvailability(_ part: [ViewNode]) -> [ViewNode] { part }
    /// The result: the one node, or a group of several.
    /// - Parameter parts: the block's nodes.
    /// - Returns: the only node, or a `GroupNode` holding them all.
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
