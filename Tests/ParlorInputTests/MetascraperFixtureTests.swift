import Foundation
@testable import ParlorInput
import ParlorStore
import Testing

/// Link cards read from real pages' heads: the pages metascraper tests itself on, with what
/// metascraper reads from them (Fixtures/metascraper/README.md). Every field agrees with
/// metascraper or is listed, with its reason, in Fixtures/metascraper/differences.txt.
@Suite("Link cards from real pages' heads (metascraper's fixtures)")
struct MetascraperFixtureTests {
    /// What metascraper read from one page (expected.json).
    struct Expected: Decodable {
        var url: String
        var title: String?
        var description: String?
        var image: String?
        var publisher: String?
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/metascraper")

    /// The listed differences, "page field" → reason, from lines `page field: reason`.
    static func knownDifferences() throws -> [String: String] {
        let text = try String(contentsOf: folder.appendingPathComponent("differences.txt"), encoding: .utf8)
        var differences: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.allSatisfy(\.isWhitespace) {
            let parts = line.split(separator: ":", maxSplits: 1)
            let key = parts[0].split(separator: " ").joined(separator: " ")
            #expect(parts.count == 2 && !parts[1].allSatisfy(\.isWhitespace), "\(key): every listed difference says why")
            #expect(differences[key] == nil, "\(key) is listed twice")
            differences[key] = parts.count == 2 ? String(parts[1]) : ""
        }
        return differences
    }

    /// `text` without the typography metascraper adds to titles and descriptions (its
    /// `smartquotes` step curls quotes, and a description's closing "..." becomes "…"): both
    /// sides are compared without it.
    static func unstyled(_ text: String?) -> String? {
        guard let text else { return nil }
        var plain = String(text.map { character -> Character in
            switch character {
            case "‘", "’", "′": "'"
            case "“", "”", "″": "\""
            default: character
            }
        })
        for ending in ["...", ".."] where plain.hasSuffix(ending) {
            plain = String(plain.dropLast(ending.count)).trimmingCharacters(in: .whitespaces) + "…"
            break
        }
        return plain
    }

    @Test("Title, description, image and site name agree with metascraper's, or the difference is listed with its reason")
    func fieldsAgreeWithMetascraper() throws {
        let expected = try JSONDecoder().decode(
            [String: Expected].self, from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
        #expect(expected.count >= 40)
        var unexplained = try Self.knownDifferences()
        var agreeing = 0
        for (page, fields) in expected.sorted(by: { $0.key < $1.key }) {
            let html = try String(contentsOf: Self.folder.appendingPathComponent("pages/\(page).html"), encoding: .utf8)
            let address = try #require(URL(string: fields.url))
            let card = LinkPreviewPage.preview(of: html, at: address)
            /// metascraper's value as a card keeps it: the same white space and length limits.
            let limited = { (value: String?, length: Int) in
                value.map { LinkPreviewPage.cut(LinkPreviewPage.clean($0), to: length) }.flatMap { $0.isEmpty ? nil : $0 }
            }
            let comparisons: [(field: String, ours: String?, theirs: String?)] = [
                ("title", Self.unstyled(card?.title), Self.unstyled(limited(fields.title, LinkPreviewPage.maxTitleLength))),
                ("description", Self.unstyled(card?.description), Self.unstyled(limited(fields.description, LinkPreviewPage.maxDescriptionLength))),
                ("image", card?.imageURL, fields.image),
                ("publisher", card?.siteName, limited(fields.publisher, LinkPreviewPage.maxSiteNameLength)),
            ]
            for (field, ours, theirs) in comparisons {
                let key = "\(page) \(field)"
                let reason = unexplained.removeValue(forKey: key)
                if ours == theirs {
                    agreeing += 1
                    #expect(reason == nil, "\(key) agrees now (\(ours ?? "nil")): take it off differences.txt")
                } else {
                    #expect(reason != nil, "\(key): the card has \(ours.debugDescription), metascraper \(theirs.debugDescription)")
                }
            }
        }
        #expect(unexplained.isEmpty, "differences.txt lists pages or fields there are not: \(unexplained.keys.sorted())")
        print("metascraper fixtures: \(agreeing) of \(expected.count * 4) fields agree")
    }
}
