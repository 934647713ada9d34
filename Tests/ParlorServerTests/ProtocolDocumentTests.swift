import Foundation
import ParlorInput
import ParlorServer
import Testing

/// docs/PROTOCOL.md is the reference for clients in other languages: its tables of client
/// frames (§3) and server frames (§4) list exactly the frame types the code knows.
@Suite("docs/PROTOCOL.md lists every frame type")
struct ProtocolDocumentTests {
    @Test("Every client frame type is in §3's table, and every type there is one the server reads")
    func clientFrames() throws {
        let documented = try Self.types(inSectionStarting: "## 3. Client frames", endingAt: "### 3.1")
        #expect(documented == Set(Wire.ClientFrame.Kind.allCases.map(\.rawValue)))
    }

    @Test("Every server frame type is in §4's table, and every type there is one the server sends")
    func serverFrames() throws {
        let documented = try Self.types(inSectionStarting: "## 4. Server frames", endingAt: "## 5.")
        #expect(documented == Set(Wire.ServerFrame.Kind.allCases.map(\.rawValue)))
    }

    /// The `type` column of the table in one section: rows that start with "| `name` |".
    static func types(inSectionStarting start: String, endingAt end: String) throws -> Set<String> {
        let text = try String(contentsOf: OpenAPISpec.packageRoot.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix(start) })
        let last = try #require(lines[first...].dropFirst().firstIndex { $0.hasPrefix(end) })
        var types: Set<String> = []
        for index in first..<last where lines[index].hasPrefix("| `") && !lines[index + 1].hasPrefix("|--") {  // not the header
            let cell = lines[index].dropFirst(3).prefix { $0 != "`" }
            types.insert(String(cell))
        }
        #expect(!types.isEmpty, "no table rows in \(start)")
        return types
    }
}
