import ParlorKit

/// Reading what a user sees on a screen: texts by id, the detail screen, grid cells, list rows.
extension ViewNode {
    /// The text of the text node with `id`, if the screen shows one.
    func text(id: String) -> String? {
        for case .text(let node) in allNodes where node.id == id { return node.text }
        return nil
    }

    /// The image node with `id`, if any.
    func image(id: String) -> ImageNode? {
        for case .image(let node) in allNodes where node.id == id { return node }
        return nil
    }

    /// The presented modal screen, if the view has one.
    var modalScreen: ModalNode? {
        for case .modal(let node) in allNodes { return node }
        return nil
    }

    /// The node with element id `id`.
    func node(id: String) -> ViewNode? {
        allNodes.first { $0.elementID == id }
    }

    /// The name on each cell of the first grid, in order.
    var gridCellTitles: [String] {
        for case .grid(let grid) in allNodes {
            return grid.children.compactMap { cell in
                for case .button(let button) in cell.allNodes { return button.title }
                return nil
            }
        }
        return []
    }

    /// The first grid's cells.
    var gridCells: [ViewNode] {
        for case .grid(let grid) in allNodes { return grid.children }
        return []
    }

    /// The rows of every list, in order.
    var rows: [RowNode] {
        allNodes.compactMap { node in
            if case .row(let row) = node { return row }
            return nil
        }
    }

    /// Whether a control the user can act on is labelled `label`.
    func hasEnabledControl(_ label: String) -> Bool {
        interactiveNodes(matching: label).contains { node in
            if case .button(let button) = node { return !button.disabled }
            return true
        }
    }
}

extension RowNode {
    /// The texts shown in the row.
    var texts: [String] { children.flatMap(\.visibleTexts) }
}
