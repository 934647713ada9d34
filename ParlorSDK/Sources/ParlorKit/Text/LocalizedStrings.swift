/// An app's texts in the languages it speaks: Parlor's `NSLocalizedString`, a table per language
/// (key → text) written in the app.
///
/// ```swift
/// static let strings = LocalizedStrings([
///     "fr": ["Roll": "Lancer", "No rolls yet": "Pas encore de lancer"],
///     "de": ["Roll": "Würfeln"],
/// ])
/// Button(Self.strings["Roll", in: environment], action: Action.roll)
/// ```
///
/// The person's language is `environment.language` in `body` and `context.language` in hooks: the
/// one their browser asks for, or the one they chose in Settings, as a BCP 47 tag (`fr-CA`). A
/// text is looked up in that language's table, then in its base language's (`fr`), and is the key
/// itself when neither has it: keys are written in the app's own language, so an app with no
/// table for someone's language shows its own words. A message's texts are the sender's words,
/// as in Messages: each recipient reads what was written.
public struct LocalizedStrings: Sendable, Hashable {
    /// Language tag, lowercased → key → text.
    private let tables: [String: [String: String]]

    /// The app's tables.
    /// - Parameter tables: language tag (`fr`, `pt-BR`) → key → text.
    public init(_ tables: [String: [String: String]]) {
        var lowered: [String: [String: String]] = [:]
        for (language, table) in tables { lowered[language.lowercased(), default: [:]].merge(table) { _, new in new } }
        self.tables = lowered
    }

    /// The languages the app has tables for, as given (lowercased).
    public var languages: [String] { tables.keys.sorted() }

    /// `key`'s text in `language`: its table's, else its base language's, else `key`.
    /// - Parameters:
    ///   - key: the text in the app's own language.
    ///   - language: a BCP 47 tag (`fr-CA`); `_` is read as `-`.
    public subscript(key: String, language language: String) -> String {
        for tag in Self.fallbacks(of: language) {
            if let text = tables[tag]?[key] { return text }
        }
        return key
    }

    /// `key`'s text in the language of the person `environment` draws for.
    public subscript(key: String, in environment: ViewEnvironment) -> String {
        self[key, language: environment.language]
    }

    /// `key`'s text in `language`, each `%@` in it replaced by the next of `arguments`, in order
    /// (`strings.format("from %@", language: context.language, name)`): translations may move
    /// the value within the sentence, not reorder several.
    public func format(_ key: String, language: String, _ arguments: String...) -> String {
        var result = ""
        var rest = Substring(self[key, language: language])
        var values = arguments.makeIterator()
        while let range = rest.range(of: "%@") {
            result += rest[..<range.lowerBound]
            result += values.next() ?? "%@"
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// `text` as a language tag (BCP 47's shape: a 2–8 letter language, then up to seven
    /// subtags of 1–8 letters or digits, `-` or `_` between them, at most 35 characters in all),
    /// with `_` written `-`; nil for anything else.
    public static func languageTag(_ text: String) -> String? {
        let tag = text.replacingOccurrences(of: "_", with: "-")
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard tag.count <= 35, let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
            parts.count <= 8, parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { return nil }
        return tag
    }

    /// The tags to try for `language`, most specific first: `zh-hant-tw`, `zh-hant`, `zh`.
    static func fallbacks(of language: String) -> [String] {
        var parts = language.lowercased().replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        var tags: [String] = []
        while !parts.isEmpty {
            tags.append(parts.joined(separator: "-"))
            parts.removeLast()
        }
        return tags
    }
}
