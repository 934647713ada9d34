import Foundation
@testable import ParlorServer
import Testing

/// The browser's emoji picker offers Unicode's emoji list (js/emojidata.js, generated from
/// emoji-test.txt): every one of them must be taken as a reaction by the server's own rule, which
/// reads Swift's Unicode properties, not that list.
@Suite("The emoji picker's list")
struct EmojiPickerDataTests {
    static func offered() throws -> [String] {
        let file = OpenAPISpec.packageRoot.appendingPathComponent("Sources/ParlorServer/Web/js/emojidata.js")
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: /\ {4}\['([^']+)', '.*\],/).map { String($0.1) }
        }
    }

    @Test("Every emoji the picker offers is one reaction to the server, flags, keycaps and families included")
    func everyEmojiIsAReaction() throws {
        let emoji = try Self.offered()
        #expect(emoji.count > 1_800, "the whole list, not a part of it")
        #expect(Set(emoji).count == emoji.count, "each emoji once")
        var refused: [String] = []
        for character in emoji {
            do { try Reactions.check(character) } catch { refused.append(character) }
        }
        #expect(refused.isEmpty, "refused as reactions: \(refused.prefix(20))")
        for sample in ["😂", "🇫🇷", "#️⃣", "👨‍👩‍👧‍👦", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "❤️"] {
            #expect(emoji.contains(sample), "\(sample) is offered")
        }
        // Skin tones are not listed (pasted into the search, they are offered as they are).
        #expect(!emoji.contains("👍🏽"))
        #expect(throws: Never.self) { try Reactions.check("👍🏽") }
    }
}
