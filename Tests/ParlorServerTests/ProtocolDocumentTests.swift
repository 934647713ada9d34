import Foundation
import ParlorInput
import ParlorServer
import Testing

/// docs/PROTOCOL.md is the reference for clients in other languages: its tables of client
/// frames (§3) and server frames (§4) list exactly the frame types the code knows.
@Suite("docs/PROTOCOL.md lists every frame type")
struct ProtocolDocumentTests {
    @Test("§3's table lists every client frame type with the fields the server reads, optional ones marked so")
    func clientFrames() throws {
        let documented = try Self.rows(inSectionStarting: "## 3. Client frames", endingAt: "### 3.1")
        #expect(Set(documented.keys) == Set(Wire.ClientFrame.Kind.allCases.map(\.rawValue)))
        for kind in Wire.ClientFrame.Kind.allCases {
            let fields = kind.fields.map { DocumentedField(name: $0.name, isOptional: !$0.isRequired) }
            #expect(documented[kind.rawValue] == fields, "§3, \(kind.rawValue)")
        }
    }

    @Test("§4's table lists every server frame type with the fields the server writes")
    func serverFrames() throws {
        let documented = try Self.rows(inSectionStarting: "## 4. Server frames", endingAt: "## 5.")
        #expect(Set(documented.keys) == Set(Wire.ServerFrame.Kind.allCases.map(\.rawValue)))
        for kind in Wire.ServerFrame.Kind.allCases {
            #expect(documented[kind.rawValue]?.map(\.name) == kind.fields.map(\.name), "§4, \(kind.rawValue)")
        }
    }

    /// A field as a table's Fields column names it: the first `code` of each comma-separated item
    /// (commas inside parentheses or braces belong to the item); "(optional" in the item marks it.
    struct DocumentedField: Equatable, CustomStringConvertible {
        var name: String
        var isOptional: Bool
        var description: String { isOptional ? "\(name)?" : name }
    }

    /// The rows of the table in one section: its `type` column → its Fields column.
    static func rows(inSectionStarting start: String, endingAt end: String) throws -> [String: [DocumentedField]] {
        let text = try String(contentsOf: OpenAPISpec.packageRoot.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix(start) })
        let last = try #require(lines[first...].dropFirst().firstIndex { $0.hasPrefix(end) })
        var rows: [String: [DocumentedField]] = [:]
        for index in first..<last where lines[index].hasPrefix("| `") && !lines[index + 1].hasPrefix("|--") {  // not the header
            let cells = lines[index].split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 3 else { continue }
            let type = cells[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[type] = Self.fields(in: String(cells[2]))
        }
        #expect(!rows.isEmpty, "no table rows in \(start)")
        return rows
    }

    static func fields(in cell: String) -> [DocumentedField] {
        var items: [String] = []
        var item = ""
        var depth = 0
        for character in cell {
            switch character {
            case "(", "{": depth += 1
            case ")", "}": depth -= 1
            case "," where depth == 0:
                items.append(item)
                item = ""
                continue
            default: break
            }
            item.append(character)
        }
        items.append(item)
        return items.compactMap { item in
            guard let open = item.firstIndex(of: "`") else { return nil }
            let name = item[item.index(after: open)...].prefix { $0 != "`" }
            return DocumentedField(name: String(name), isOptional: item.contains("(optional"))
        }
    }
}
