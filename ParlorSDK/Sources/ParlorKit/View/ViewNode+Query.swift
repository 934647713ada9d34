import Foundation

extension ViewNode {
    /// The direct children of this node.
    public var children: [ViewNode] {
        switch self {
        case .stack(let node): node.children
        case .list(let node): node.children
        case .row(let node): node.children
        case .grid(let node): node.children
        case .modal(let node): node.children
        case .group(let node): node.children
        default: []
        }
    }

    /// This node and every node below it, depth first.
    public var allNodes: [ViewNode] {
        [self] + children.flatMap(\.allNodes)
    }

    /// Every visible text, in order: texts, button titles, link titles, modal titles, and the
    /// labels of text fields and toggles.
    public var visibleTexts: [String] {
        allNodes.compactMap { node in
            switch node {
            case .text(let text): text.text
            case .button(let button): button.title.isEmpty ? nil : button.title
            case .link(let link): link.title
            case .modal(let modal): modal.title
            case .textField(let field): field.label
            case .toggle(let toggle): toggle.label
            default: nil
            }
        }
    }

    /// The accessibility label of an interactive node, or nil for a node the user cannot act on.
    public var interactiveLabel: String? {
        switch self {
        case .button(let node): node.label
        case .row(let node) where node.action != nil: node.label
        case .textField(let node): node.label
        case .toggle(let node): node.label
        case .picker(let node): node.label
        case .link(let node): node.label
        case .stickerBrowser(let node): node.label
        default: nil
        }
    }

    /// The `id` of a node that has one.
    public var elementID: String? {
        switch self {
        case .text(let node): node.id
        case .image(let node): node.id
        case .button(let node): node.id
        case .list(let node): node.id
        case .row(let node): node.id
        case .grid(let node): node.id
        case .textField(let node): node.id
        case .toggle(let node): node.id
        case .picker(let node): node.id
        default: nil
        }
    }

    /// The interactive nodes whose accessibility label or id is `labelOrID`, in order.
    /// - Parameter labelOrID: an accessibility label or an element id.
    public func interactiveNodes(matching labelOrID: String) -> [ViewNode] {
        allNodes.filter { node in
            guard let label = node.interactiveLabel else { return false }
            return label == labelOrID || node.elementID == labelOrID
        }
    }

    /// Every action payload the user can send from this view, templates included.
    public var actionPayloads: Set<ActionPayload> {
        var payloads = Set<ActionPayload>()
        for node in allNodes {
            switch node {
            case .button(let button) where !button.disabled: payloads.insert(button.action)
            case .row(let row): if let action = row.action { payloads.insert(action) }
            case .textField(let field):
                if let change = field.onChange { payloads.insert(change) }
                if let submit = field.onSubmit { payloads.insert(submit) }
            case .toggle(let toggle): payloads.formUnion([toggle.turnOn, toggle.turnOff])
            case .picker(let picker): payloads.formUnion(picker.options.map(\.action))
            default: break
            }
        }
        return payloads
    }

    /// Interactive elements a screen reader could not name, and images with an empty label.
    /// An empty result means every control is labelled.
    public var accessibilityProblems: [String] {
        allNodes.compactMap { node in
            if let label = node.interactiveLabel, label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return "A \(node.typeName) has no accessibility label."
            }
            if case .image(let image) = node, let label = image.label, label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return "An image has an empty label; pass nil to mark it decorative."
            }
            return nil
        }
    }
}
