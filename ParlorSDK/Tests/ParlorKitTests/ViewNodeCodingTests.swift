import Foundation
import ParlorKit
import Testing

@Suite("The view tree on the wire")
struct ViewNodeCodingTests {
    enum Action: Codable, Sendable, Hashable { case go, rename(String), pick(Int), toggle(Bool) }

    static let allTypeNames: Set<String> = [
        "stack", "text", "image", "button", "list", "row", "grid", "textField", "toggle", "picker", "link", "webPage",
        "stickerBrowser", "spacer", "divider", "modal", "group",
    ]

    /// One node of every type, built with the DSL.
    static func sampleNodes() throws -> [ViewNode] {
        let page = try #require(URL(string: "https://example.org/page?x=1&y=2"))
        let sticker = try Sticker(id: "party/cake.png", image: .asset("cake.png"), localizedDescription: "A cake")
        let group = ViewNode.flattenedGroup { Text("one"); Text("two") }
        return [
            VStack(alignment: .center, spacing: 8) { Text("in a stack"); Spacer(minLength: 4) }.node,
            HStack { Text("left"); Text("right") }.node,
            Text("Hello \"world\" ✓", style: .headline, color: .accent, id: "greeting").node,
            Image(.svg("<svg xmlns='http://www.w3.org/2000/svg'/>"), label: "A drawing", width: 30, height: 20, id: "pic").node,
            Image(.asset("decor.png"), label: nil).node,
            Button("Go", action: Action.go, role: .destructive, image: .asset("go.png"), label: "Go now", disabled: true, id: "go").node,
            Button(image: .asset("x.png"), label: "Close", action: Action.pick(3)).node,
            List(label: "Items", id: "list") { ListRow(label: "First", action: Action.pick(1), selected: true) { Text("1") } }.node,
            ListRow(label: "Plain row") { Text("no action") }.node,
            Grid(label: "Cells", minItemWidth: 44, id: "grid") { Text("a"); Text("b") }.node,
            TextField("Title", text: "Party", id: "title", placeholder: "Name it", kind: .multiline, maxLength: 40,
                      onChange: Action.rename, onSubmit: Action.rename).node,
            Toggle("Notify", isOn: true, id: "notify", onChange: Action.toggle).node,
            Picker("Size", selection: 2, options: [("S", 1), ("M", 2)], id: "size", onChange: Action.pick).node,
            Link("Read", url: page).node,
            WebPage(url: page, title: "A page").node,
            StickerBrowser(label: "Stickers", stickers: [sticker], gridSize: .large).node,
            Spacer().node,
            Divider().node,
            Modal(title: "Details") { Text("inside") }.node,
            group,
        ]
    }

    @Test("Every node type encodes with its type name and decodes back equal")
    func everyTypeRoundTrips() throws {
        let nodes = try Self.sampleNodes()
        #expect(Set(nodes.map(\.typeName)) == Self.allTypeNames)
        for node in nodes {
            let data = try JSONEncoder().encode(node)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["type"] as? String == node.typeName)
            #expect(try JSONDecoder().decode(ViewNode.self, from: data) == node, "\(node.typeName)")
        }
    }

    @Test("A whole tree round-trips, nested nodes included")
    func wholeTree() throws {
        let nodes = try Self.sampleNodes()
        let tree = VStack { for node in nodes { node } }.node
        let decoded = try JSONDecoder().decode(ViewNode.self, from: try JSONEncoder().encode(tree))
        #expect(decoded == tree)
        #expect(decoded.allNodes.count == tree.allNodes.count)
    }

    @Test("Text encodes as documented")
    func textShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(Text("Hi").node), as: UTF8.self)
        #expect(json == #"{"style":"body","text":"Hi","type":"text"}"#)
    }

    @Test("An unknown or missing type fails to decode, also deep in a tree", arguments: [
        #"{"type":"marquee","text":"hi"}"#,
        #"{"text":"hi","style":"body"}"#,
        #"{"type":7}"#,
        #"{"type":"stack","axis":"vertical","alignment":"leading","children":[{"type":"blink"}]}"#,
        #"{"type":"text","text":"hi","style":"shouting"}"#,
        #"["type","text"]"#,
    ])
    func undecodable(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ViewNode.self, from: Data(json.utf8)) }
    }
}

extension ViewNode {
    /// What a builder block of several lines makes: a group node.
    static func flattenedGroup(@ViewBuilder _ content: () -> ViewNode) -> ViewNode { content() }
}
