import Foundation

/// The one rule for text people choose to name things with: display names, conversation titles.
/// Trimmed; at most a number of characters as people count them (`Limits.length(of:)`, so a
/// letter under thousands of combining marks is long) and of UTF-8 bytes; and nothing that hides
/// or disguises text: no control characters, no line breaks, no bidirectional overrides or
/// isolates, no invisible (default-ignorable) characters, except the joiners and variation
/// selectors inside an emoji.
public enum NameRules {
    /// The most UTF-8 bytes a name may take per character it may have.
    public static let bytesPerCharacter = 4

    /// The name as stored: trimmed.
    /// - Parameters:
    ///   - what: what the name is, for the error ("A display name").
    ///   - maxLength: the most characters.
    /// - Throws: `invalidValue` with a sentence naming the rule broken: blank, too long, or a
    ///   character that is not allowed.
    public static func check(_ name: String, what: String, maxLength: Int) throws(MessagesError) -> String {
        // Checked before trimming: an invisible character or line break at either end is refused,
        // not stripped without a word (Foundation's trimming takes some of them away).
        for character in name {
            for scalar in character.unicodeScalars where !isAllowed(scalar, in: character) {
                let code = String(scalar.value, radix: 16, uppercase: true)
                throw MessagesError(
                    .invalidValue,
                    "\(what) cannot contain U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code): no control, invisible or text-direction characters.")
            }
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw MessagesError(.invalidValue, "\(what) needs at least one character.") }
        guard Limits.length(of: trimmed) <= maxLength, trimmed.utf8.count <= maxLength * bytesPerCharacter else {
            throw MessagesError(.invalidValue, "\(what) has at most \(maxLength) characters.")
        }
        return trimmed
    }

    private static func isAllowed(_ scalar: Unicode.Scalar, in character: Character) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return false
        default:
            break
        }
        guard properties.isDefaultIgnorableCodePoint || properties.isBidiControl else { return true }
        // Emoji need the zero-width joiner and variation selectors (👨‍👩‍👧, ❤️).
        let joinsEmoji = scalar == "\u{200D}" || (0xFE0E...0xFE0F).contains(scalar.value)
        return joinsEmoji && character.unicodeScalars.contains { $0.properties.isEmoji && $0.value > 0x7F }
    }
}
