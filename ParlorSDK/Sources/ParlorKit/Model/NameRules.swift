import Foundation

/// The one rule for text people choose to name things with: display names, conversation titles.
/// Trimmed; at most a number of characters as people count them (`Limits.length(of:)`, so a
/// letter under thousands of combining marks is long) and of UTF-8 bytes; and nothing that hides
/// or disguises text: no control characters, no line breaks, no bidirectional overrides or
/// isolates, no invisible (default-ignorable) characters, except the joiners and variation
/// selectors inside an emoji.
public enum NameRules {
    /// The most UTF-8 bytes a name may take per character it may have: enough for any script's
    /// clusters (a Devanagari syllable with its marks is 9 to 12), far below what a stuffed name needs.
    public static let bytesPerCharacter = 16

    /// The name as stored: trimmed.
    /// - Parameters:
    ///   - name: the name as typed.
    ///   - what: what the name is, for the error ("A display name").
    ///   - maxLength: the most characters.
    /// - Throws: `invalidValue` with a sentence naming the rule broken: blank, too long, or a
    ///   character that is not allowed.
    /// - Returns: the name trimmed of surrounding whitespace and line breaks.
    public static func check(_ name: String, what: String, maxLength: Int) throws(MessagesError) -> String {
        // Checked before trimming: an invisible character or line break at either end is refused,
        // not stripped without a word (Foundation's trimming takes some of them away).
        let scalars = Array(name.unicodeScalars)
        for character in name {
            for scalar in character.unicodeScalars where !isAllowed(scalar, in: character) {
                throw refusal(scalar, what: what)
            }
        }
        for (index, scalar) in scalars.enumerated() where scalar.properties.isJoinControl && !joins(at: index, in: scalars) {
            throw refusal(scalar, what: what)
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw MessagesError(.invalidValue, "\(what) needs at least one character.") }
        guard Limits.length(of: trimmed) <= maxLength, trimmed.utf8.count <= maxLength * bytesPerCharacter else {
            throw MessagesError(.invalidValue, "\(what) has at most \(maxLength) characters.")
        }
        return trimmed
    }

    private static func refusal(_ scalar: Unicode.Scalar, what: String) -> MessagesError {
        let code = String(scalar.value, radix: 16, uppercase: true)
        return MessagesError(
            .invalidValue,
            "\(what) cannot contain U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code): no control, invisible or text-direction characters.")
    }

    private static func isAllowed(_ scalar: Unicode.Scalar, in character: Character) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return false
        default:
            break
        }
        if properties.isBidiControl { return false }
        guard properties.isDefaultIgnorableCodePoint else { return true }
        // Joiners are judged by their neighbours (`joins`).
        if properties.isJoinControl { return true }
        // A variation selector chooses the look of the visible character it follows (❤️, 葛󠄀).
        if properties.isVariationSelector, let base = character.unicodeScalars.first {
            return !base.properties.isDefaultIgnorableCodePoint
        }
        // Tag characters spell a subdivision flag after 🏴 (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
        if (0xE0020...0xE007F).contains(scalar.value) { return character.unicodeScalars.first == "\u{1F3F4}" }
        return false
    }

    /// A zero-width joiner or non-joiner is part of writing only between two visible characters:
    /// letters and marks (Persian, Indic scripts) or emoji.
    private static func joins(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard index > 0, index + 1 < scalars.count else { return false }
        func visible(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark:
                true
            default:
                scalar.properties.isEmoji && scalar.value > 0x7F || scalar.properties.isVariationSelector
            }
        }
        return visible(scalars[index - 1]) && visible(scalars[index + 1])
    }
}
