import Foundation
@_spi(Hosting) import ParlorKit
import Testing

@Suite("Identifiers as text: the same as Foundation's UUID text, without its C helpers")
struct IdentifierTextTests {
    @Test("Random UUIDs: the same text as uuidString, read back by both parsers, in either case")
    func formatsAndParsesLikeFoundation() {
        var generator = SeededGenerator(seed: 38)
        for _ in 0..<2_000 {
            let uuid = UUID(uuid: (
                .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator),
                .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator),
                .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator),
                .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator),
                .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator), .random(in: 0...255, using: &generator),
                .random(in: 0...255, using: &generator)))
            #expect(UUIDText.string(uuid) == uuid.uuidString)
            #expect(MessageID(uuid).description == uuid.uuidString)
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
    }

    @Test("Only the canonical form is read: near misses Foundation's sscanf on Linux would take are refused")
    func refusesNearMisses() {
        let valid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        var texts = ["", valid + "0", String(valid.dropLast()), " " + String(valid.dropLast()), valid.replacingOccurrences(of: "-", with: ""),
                     "{\(valid.dropFirst().dropLast())}", "0x21E1F8-C36C-495A-93FC-0C247A3E6E5F", "+621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                     "E621E1F8-C36C-495A-93FC-0C247A3E6E5É", "E621E1F8-C36C-495A-93FC-0C247A3E6E5\u{301}"]
        // Each position replaced by each character that a lenient parser might take.
        for offset in 0..<36 {
            for replacement in ["g", "G", "-", " ", "+", "x", "0", "f", "\u{0}", "é"] {
                var characters = Array(valid)
                characters[offset] = Character(replacement)
                texts.append(String(characters))
            }
        }
        var refused = 0
        for text in texts {
            let bytes = Array(text.utf8)
            let canonical = bytes.count == 36 && bytes.indices.allSatisfy { index in
                [8, 13, 18, 23].contains(index) ? bytes[index] == UInt8(ascii: "-") : Character(Unicode.Scalar(bytes[index])).isHexDigit
            }
            #expect(UUIDText.parse(text) == (canonical ? UUID(uuidString: text) : nil), "\(text.debugDescription)")
            #expect(MessageID(text)?.uuid == UUIDText.parse(text))
            if !canonical { refused += 1 }
        }
        #expect(refused > 300, "the near misses are mostly not canonical")
    }

    @Test("New identifiers are version 4 UUIDs, and all different")
    func randomIdentifiers() {
        let made = (0..<1_000).map { _ in MessageID() }
        #expect(Set(made).count == made.count)
        for id in made {
            let text = id.description
            #expect(Array(text)[14] == "4", "version 4: \(text)")
            #expect("89AB".contains(Array(text)[19]), "RFC 4122 variant: \(text)")
        }
    }

    @Test("Identifiers sort as their text does")
    func ordersLikeText() {
        let ids = (0..<500).map { _ in ConversationID() }
        #expect(ids.sorted().map(\.description) == ids.map(\.description).sorted())
    }
}
