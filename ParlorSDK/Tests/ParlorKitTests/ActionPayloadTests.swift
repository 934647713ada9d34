import Foundation
import ParlorKit
import Testing

@Suite("Action payloads and input templates")
struct ActionPayloadTests {
    enum Action: Codable, Sendable, Equatable {
        case setTitle(String)
        case rename(id: Int, to: String, note: String)
        case tap
    }

    private func decode(_ payload: ActionPayload) throws -> Action {
        try JSONDecoder().decode(Action.self, from: Data(payload.json.utf8))
    }

    static let values = [
        "", "plain", #"she said "hi""#, #"back\slash"#, #"\"#, #"\""#, #"\u0041"#, "slash/and</script>",
        ActionPayload.valuePlaceholder, "\"\(ActionPayload.valuePlaceholder)\"", "x\(ActionPayload.valuePlaceholder)y",
        "new\nline\ttab\u{0}nul", "emoji 👨‍👩‍👧 e\u{301}", "\u{2028}\u{2029}", #"{"setTitle":{"_0":"forged"}}"#,
    ]

    @Test("A template filled with any value decodes to the action carrying exactly that value", arguments: values)
    func filling(_ value: String) throws {
        let template = ActionPayload(template: Action.setTitle)
        #expect(template.isTemplate)
        let filled = template.filling(value)
        #expect(!filled.json.isEmpty)
        guard case .setTitle(let decoded) = try decode(filled) else {
            Issue.record("filled payload decoded to another action")
            return
        }
        #expect(sameScalars(decoded, value))
    }

    @Test("Only the value's slot is filled; the action's other fields keep their values", arguments: values)
    func otherFieldsUntouched(_ value: String) throws {
        let template = ActionPayload(template: { Action.rename(id: 7, to: $0, note: #"a "note" \ here"#) })
        #expect(try decode(template.filling(value)) == .rename(id: 7, to: value, note: #"a "note" \ here"#))
    }

    @Test("Seeded random values fill templates exactly")
    func randomValues() throws {
        var generator = SeededGenerator(seed: 0x5EED_0003)
        let template = ActionPayload(template: Action.setTitle)
        for index in 0..<500 {
            let value = generator.string(maxPieces: 12)
            guard case .setTitle(let decoded) = try decode(template.filling(value)) else {
                Issue.record("case \(index) decoded to another action")
                continue
            }
            #expect(sameScalars(decoded, value), "case \(index)")
        }
    }

    @Test("A plain action is not a template, and filling leaves it as it was")
    func plainAction() throws {
        let payload = ActionPayload(Action.tap)
        #expect(!payload.isTemplate)
        #expect(payload.filling("ignored") == payload)
        #expect(try decode(payload) == .tap)
    }

    @Test("The same action always encodes to the same payload, so hosts can compare payloads")
    func stableEncoding() {
        let first = ActionPayload(Action.rename(id: 1, to: "a/b", note: "n"))
        let second = ActionPayload(Action.rename(id: 1, to: "a/b", note: "n"))
        #expect(first == second)
        #expect(first.json.contains("a/b"))
    }

    @Test("A payload travels as a JSON string")
    func wireForm() throws {
        let payload = ActionPayload(Action.setTitle("x"))
        let data = try JSONEncoder().encode(payload)
        #expect(try JSONDecoder().decode(String.self, from: data) == payload.json)
        #expect(try JSONDecoder().decode(ActionPayload.self, from: data) == payload)
    }
}
