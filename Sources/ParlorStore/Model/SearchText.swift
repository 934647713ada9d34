import Foundation
import ParlorKit

/// How text is searched, written once for both engines: a message's words are folded (case and
/// diacritics) and stored space-separated, so SQLite's FTS5 and PostgreSQL's `simple` text search
/// see the same words; a query is folded the same way, and each of its words matches the start of
/// a word (`meet` finds "Meeting"), except a one-letter word, which matches only itself (a
/// one-letter prefix would make the index match nearly every message).
public struct SearchTerms: Sendable, Hashable {
    /// The longest query, in characters.
    public static let maxQueryLength = 200
    /// The most words of a query that count: the first ones (a longer query finds what its first
    /// words find), so no query makes the index match more than this many prefixes.
    public static let maxWords = 8

    /// The query's words, folded, in order, without repeats, at most `maxWords`; never empty.
    public let words: [String]

    /// The words of `query`; nil when it has none (only spaces or punctuation). The caller checks
    /// its length first (`maxQueryLength`).
    public init?(_ query: String) {
        var seen = Set<String>()
        let words = Self.words(in: query).filter { seen.insert($0).inserted }.prefix(Self.maxWords)
        guard !words.isEmpty else { return nil }
        self.words = Array(words)
    }

    /// The words of `text`, folded: runs of letters and digits, lowercased, without diacritics.
    public static func words(in text: String) -> [String] {
        asciiWords(in: text) ?? unicodeWords(in: text)
    }

    /// `words(in:)` for a text of ASCII only, from its bytes: the same words (there, a letter or
    /// digit is `A-Z`, `a-z` or `0-9`, and folding is lowercasing) without the cost of Unicode
    /// characters and Foundation's folding, which were a tenth of the CPU of sending a message.
    /// Nil for any other text.
    static func asciiWords(in text: String) -> [String]? {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                word.append(byte + 32)
            case 0x80...:
                return nil
            default:
                if !word.isEmpty {
                    words.append(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                }
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// `words(in:)` through Unicode whatever the text (to check `asciiWords` against).
    static func unicodeWords(in text: String) -> [String] {
        wordRanges(in: text).map { fold(text[$0]) }
    }

    /// Where each word of `text` is, in `text` itself (for highlighting what matched).
    public static func wordRanges(in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start: String.Index?
        for index in text.indices {
            let character = text[index]
            if character.isLetter || character.isNumber {
                if start == nil { start = index }
            } else if let begun = start {
                ranges.append(begun..<index)
                start = nil
            }
        }
        if let start { ranges.append(start..<text.endIndex) }
        return ranges
    }

    /// One word as it is indexed and searched.
    public static func fold(_ word: some StringProtocol) -> String {
        String(word).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// What the index stores for a message: its words, folded, space-separated.
    public static func indexText(_ text: String) -> String {
        words(in: text).joined(separator: " ")
    }

    /// Whether a query word matches the words it starts (else only itself).
    public static func matchesPrefix(_ word: String) -> Bool { word.count > 1 }

    /// Whether a word of a message (folded) is one this query looks for.
    public func matches(folded word: String) -> Bool {
        words.contains { Self.matchesPrefix($0) ? word.hasPrefix($0) : word == $0 }
    }
}

extension StoredContent {
    /// What people read in the message: a text's text (a mention as `mentionName` says it: left
    /// out of the index, whose words do not change when people rename themselves); a sticker's
    /// description; an app message's captions, image titles, summary and spoken label
    /// (participant mentions left out: they are ids, not words).
    public func searchableText(mentionName: (UserID) -> String = { _ in "" }) -> String {
        switch self {
        case .text(let text, _, _): return MentionTokens.replacing(in: text, with: mentionName)
        case .sticker(let sticker, _): return sticker.localizedDescription
        case .attachment(let attachment): return attachment.name
        // Names change: the line is drawn from ids when read, and not searched.
        case .event: return ""
        case .app(let message):
            let layout = message.layout?.template
            let parts = [
                layout?.caption, layout?.subcaption, layout?.trailingCaption, layout?.trailingSubcaption,
                layout?.imageTitle, layout?.imageSubtitle, message.summaryText, message.accessibilityLabel,
            ]
            var seen = Set<String>()
            return parts.compactMap { $0.map(Self.withoutMentions) }.filter { !$0.isEmpty && seen.insert($0).inserted }
                .joined(separator: "\n")
        }
    }

    /// `text` without participant mentions (`ParticipantID.mention`: its opening and a UUID in its
    /// 8-4-4-4-12 hex form), and without the spaces left at its ends. A scan of the bytes:
    /// Foundation's regular expressions compiled the pattern on every app message committed.
    static func withoutMentions(_ text: String) -> String {
        let opening = mentionOpening
        guard let first = opening.first, text.utf8.contains(first) else { return text.trimmingCharacters(in: .whitespaces) }
        let bytes = Array(text.utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == first, bytes[index...].starts(with: opening), isUUID(bytes, from: index + opening.count) {
                index += opening.count + uuidLength
            } else {
                kept.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: kept, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    private static let mentionOpening = Array(ParticipantID.mentionOpening.utf8)
    private static let uuidLength = 36

    /// Whether `bytes` hold a UUID's text (hex digits, dashes after the 8th, 12th, 16th and 20th) at `start`.
    private static func isUUID(_ bytes: [UInt8], from start: Int) -> Bool {
        guard start + uuidLength <= bytes.count else { return false }
        for offset in 0..<uuidLength {
            let byte = bytes[start + offset]
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): continue
                default: return false
                }
            }
        }
        return true
    }

    /// What the search index holds for this content.
    public var searchIndexText: String { SearchTerms.indexText(searchableText()) }
}
