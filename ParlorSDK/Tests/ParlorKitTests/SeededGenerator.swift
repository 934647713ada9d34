/// A deterministic pseudo-random generator (SplitMix64), so a failing random case can be replayed
/// from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Pieces that URL and JSON coding tend to get wrong: separators, escapes, percent signs,
    /// multi-scalar emoji, combining marks on their own, control and invisible characters.
    static let pieces: [String] = [
        "&", "=", "%", "+", " ", "#", "?", "/", ";", ",", ":", "@", "%zz", "%25", "%2B", "a", "Z", "0", "9",
        "-", "_", ".", "~", "é", "e\u{301}", "\u{301}", "\u{0327}", "🎉", "👍🏽", "👨‍👩‍👧", "🇫🇷", "日本語", "Ω",
        "\n", "\r\n", "\t", "\"", "'", "\\", "<", ">", "ß", "\u{0}", "\u{200B}", "\u{FEFF}", "\u{2028}", "\u{2042}",
    ]

    /// A string of up to `maxPieces` random pieces; sometimes empty.
    mutating func string(maxPieces: Int = 8) -> String {
        let count = Int.random(in: 0...maxPieces, using: &self)
        return (0..<count).map { _ in Self.pieces.randomElement(using: &self) ?? "" }.joined()
    }
}

/// Whether two strings hold exactly the same Unicode scalars (stricter than `==`, which compares
/// canonically equivalent strings as equal).
func sameScalars(_ lhs: String, _ rhs: String) -> Bool {
    Array(lhs.unicodeScalars) == Array(rhs.unicodeScalars)
}
