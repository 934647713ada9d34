import Foundation
import ParlorKit
import Testing

@Suite("The view DSL")
struct ViewBuilderTests {
    enum Action: Codable, Sendable { case pick(Int) }
    static let on = true, off = false

    @ViewBuilder
    private func pair(_ prefix: String) -> ViewNode {
        Text("\(prefix)1")
        Text("\(prefix)2")
    }

    private func column(flag: Bool, count: Int, optional: String?) -> ViewNode {
        VStack {
            Text("top")
            if flag {
                Text("yes")
            } else {
                Text("no")
                Text("still no")
            }
            for index in 0..<count { Text("row \(index)") }
            if let optional { Text(optional) }
            if flag { Text("only when flagged") }
        }.node
    }

    private func children(_ node: ViewNode) -> [ViewNode] { node.children }

    @Test("if/else, for and optionals choose the children")
    func controlFlow() {
        #expect(column(flag: true, count: 2, optional: "opt").visibleTexts == ["top", "yes", "row 0", "row 1", "opt", "only when flagged"])
        #expect(column(flag: false, count: 0, optional: nil).visibleTexts == ["top", "no", "still no"])
    }

    @Test("switch chooses one branch")
    func switchStatement() {
        func view(_ value: Int) -> ViewNode {
            VStack {
                switch value {
                case 0: Text("zero")
                case 1: Text("one"); Text("uno")
                default: Divider()
                }
            }.node
        }
        #expect(view(0).visibleTexts == ["zero"])
        #expect(view(1).visibleTexts == ["one", "uno"])
        #expect(view(5).children.map(\.typeName) == ["divider"])
    }

    @Test("Groups from helpers, loops and branches are flattened into the stack's children")
    func groupsFlattened() {
        let node = VStack {
            pair("a")
            for index in 0..<2 { pair("loop\(index)-") }
            if Self.on { pair("if") }
        }.node
        #expect(node.children.map(\.typeName).allSatisfy { $0 == "text" })
        #expect(node.visibleTexts == ["a1", "a2", "loop0-1", "loop0-2", "loop1-1", "loop1-2", "if1", "if2"])
    }

    @Test("Lists, rows, grids and modals flatten groups too")
    func containersFlatten() {
        let nodes = [
            List(label: "l") { pair("x") }.node, ListRow(label: "r") { pair("x") }.node,
            Grid(label: "g") { pair("x") }.node, Modal(title: "m") { pair("x") }.node, HStack { pair("x") }.node,
        ]
        for node in nodes { #expect(node.children.map(\.typeName) == ["text", "text"], "\(node.typeName)") }
    }

    @Test("A block of one element is that element; several make a group; none make an empty group")
    func finalResult() {
        #expect(ViewNode.flattenedGroup { Text("one") }.typeName == "text")
        let several = ViewNode.flattenedGroup { Text("a"); Text("b") }
        #expect(several.typeName == "group")
        #expect(several.children.count == 2)
        #expect(ViewNode.flattenedGroup { if Self.off { Text("never") } } == ViewNode.empty)
        #expect(VStack { if Self.off { Text("never") } }.node.children.isEmpty)
    }

    @Test("An image-only button without a label is flagged; labelled controls are not")
    func accessibilityProblems() {
        let labelled = VStack {
            Button("Vote", action: Action.pick(1))
            Button(image: .asset("x.png"), label: "Close", action: Action.pick(2))
            Image(.asset("decor.png"), label: nil)
            Image(.asset("photo.png"), label: "A photo")
        }.node
        #expect(labelled.accessibilityProblems.isEmpty)
        let unlabelled = [
            Button(image: .asset("x.png"), label: "", action: Action.pick(2)).node,
            Button(image: .asset("x.png"), label: "   ", action: Action.pick(2)).node,
            Button(image: .asset("x.png"), label: "\n", action: Action.pick(2)).node,
            Button("", action: Action.pick(3)).node,
            ListRow(label: "", action: Action.pick(4)) { Text("row") }.node,
        ]
        for node in unlabelled {
            #expect(node.accessibilityProblems == ["A \(node.typeName) has no accessibility label."], "\(node)")
        }
        #expect(Image(.asset("photo.png"), label: "").node.accessibilityProblems.count == 1)
        #expect(ListRow(label: "", id: "static") { Text("not interactive") }.node.accessibilityProblems.isEmpty)
    }

    @Test("Controls are found by label or id; disabled buttons offer no action")
    func queries() {
        let node = VStack {
            Button("Go", action: Action.pick(1), id: "go-button")
            Button("Stop", action: Action.pick(2), disabled: true)
            Text("label", id: "t")
        }.node
        #expect(node.interactiveNodes(matching: "Go").count == 1)
        #expect(node.interactiveNodes(matching: "go-button").count == 1)
        #expect(node.interactiveNodes(matching: "t").isEmpty)
        #expect(node.actionPayloads == [ActionPayload(Action.pick(1))])
    }
}

@Suite("A grid of fixed columns")
struct FixedGridTests {
    @Test("Grid(columns:) keeps its number of columns through the wire, clamped to 1…12; the flexible grid has none")
    func fixedColumns() throws {
        let board = Grid(label: "Board", columns: 3) { for square in 0..<9 { Text("\(square)") } }.node
        let decoded = try JSONDecoder().decode(ViewNode.self, from: JSONEncoder().encode(board))
        guard case .grid(let grid) = decoded else { Issue.record("not a grid"); return }
        #expect(grid.columns == 3 && grid.children.count == 9)
        let wideGrid = Grid(label: "Too wide", columns: 40) { Text("x") }
        guard case .grid(let wide) = wideGrid.node else { return }
        #expect(wide.columns == 12)
        let cards = Grid(label: "Cards") { Text("x") }
        guard case .grid(let flexible) = cards.node else { return }
        #expect(flexible.columns == nil && flexible.minItemWidth == 120)
        #expect(flexible.scrollAxis == nil && wide.scrollAxis == nil, "grids wrap; only a carousel scrolls")
    }

    @Test("Carousel is one row that scrolls sideways: its axis and item width go through the wire, the width clamped to 40…600")
    func carousel() throws {
        let scoops = Carousel(label: "Scoops", itemWidth: 96, id: "scoops") { for scoop in 1...8 { Button("Scoop \(scoop)", action: "\(scoop)") } }.node
        let decoded = try JSONDecoder().decode(ViewNode.self, from: JSONEncoder().encode(scoops))
        guard case .grid(let carousel) = decoded else { Issue.record("not a grid"); return }
        #expect(carousel.scrollAxis == .horizontal && carousel.minItemWidth == 96 && carousel.children.count == 8)
        #expect(carousel.label == "Scoops" && carousel.id == "scoops")
        let tiny = Carousel(label: "Tiny", itemWidth: 2) { Text("x") }
        let wide = Carousel(label: "Huge", itemWidth: 5_000) { Text("x") }
        guard case .grid(let narrow) = tiny.node, case .grid(let huge) = wide.node else { return }
        #expect(narrow.minItemWidth == 40 && huge.minItemWidth == 600)
    }
}
