import Foundation
import ParlorKit
import Testing

/// `HTMLEntities` against an independent implementation of the same standard: Python's
/// `html.unescape`, whose outputs tools/generate_html_unescape_cases.py wrote into
/// `HTMLUnescapeCases` (every name, numeric edges, ambiguous ampersands, random text).
@Suite("HTML character references: the same as Python's html.unescape")
struct HTMLEntitiesUnescapeTests {
    @Test("Every case decodes to exactly html.unescape's code points, but where the standard keeps what Python drops")
    func matchesPython() throws {
        let cases = try JSONDecoder().decode([[String]].self, from: Data(HTMLUnescapeCases.json.utf8))
        #expect(cases.count > 6_000)
        var mismatches: [String] = []
        var keptWherePythonDrops = 0
        for row in cases {
            guard row.count >= 2 else {
                Issue.record("A case without its expected value: \(row)")
                continue
            }
            let decoded = HTMLEntities.decode(row[0])
            // Code points, not `==`: Swift's string equality would let a decomposed é pass for é.
            if Array(decoded.unicodeScalars) != Array(row[1].unicodeScalars) {
                mismatches.append("\(row[0].debugDescription) → \(decoded.debugDescription), html.unescape \(row[1].debugDescription)")
            }
            if row.count == 3 {
                keptWherePythonDrops += 1
                // The one deliberate difference: the standard keeps a control or noncharacter reference.
                #expect(row[0].contains("&#") && decoded.unicodeScalars.count > row[2].unicodeScalars.count, "\(row[0].debugDescription)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, e.g. \(mismatches.prefix(20).joined(separator: "; "))")
        #expect(keptWherePythonDrops > 0)
    }
}
