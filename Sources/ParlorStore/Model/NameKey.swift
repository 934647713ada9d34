import Foundation

/// What a display name looks like, for telling apart names people could take for each other: an
/// outside app named `Tic Tac Toe`, `TIC-TAC-TOE`, `Tíc-Tac-Toe`, `Tic-Tac-T0e` or with a
/// Cyrillic `Т` next to the built-in Tic-Tac-Toe.
///
/// Compatibility forms, case, width and accents are folded away (NFKD), as are spaces,
/// punctuation and symbols; the Cyrillic and Greek letters that are drawn like Latin ones become
/// those; what is left is keyed as a username is (`UsernameKey`: o/0, rn/m, vv/w), with i, l, 1
/// and I as one letter.
/// This covers the look-alikes a name in a store list is forged with, not every confusable
/// Unicode knows (TR39's table is not among the packages Parlor builds on).
public enum NameKey {
    public static func of(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        let latin = String(folded.decomposedStringWithCompatibilityMapping.unicodeScalars.compactMap { scalar -> Character? in
            if let ascii = lookAlikes[scalar] { return ascii }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .spaceSeparator, .lineSeparator, .paragraphSeparator,
                 .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
                 .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
                 .control, .format:
                return nil
            default:
                return Character(scalar)
            }
        })
        // Case is gone, so `I` (like `l`) may have been an `i`: i, l, 1 and I are one letter here.
        let key = UsernameKey.of(latin.replacingOccurrences(of: "i", with: "l"))
        // A name of symbols only (`🎲🎲`) keeps its symbols, spaces aside: folded to nothing,
        // every such name would be taken for every other.
        guard key.isEmpty else { return key }
        return String(folded.decomposedStringWithCompatibilityMapping.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))
    }

    /// Cyrillic and Greek letters (lowercase: the name is case-folded first) drawn like Latin ones.
    static let lookAlikes: [Unicode.Scalar: Character] = [
        "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k", "м": "m", "н": "h",
        "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "ı": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
        "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    ]
}
