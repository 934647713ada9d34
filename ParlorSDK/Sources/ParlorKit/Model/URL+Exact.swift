import Foundation

extension URL {
    /// `text` as a URL exactly as written, or nil when it is not one: when it holds characters a
    /// URL cannot (a space, `<`, a quote, a letter outside ASCII…).
    ///
    /// Foundation's `URL(string:)` would escape such characters, and with them every escape
    /// already in the text: `a=1%2B1&b=x y` becomes `a=1%252B1&b=x%20y`, whose `a` reads
    /// `1%2B1` instead of `1+1`. A URL from outside (an app's message, an image) is therefore
    /// read with this, kept byte for byte when valid and refused otherwise, never rewritten.
    /// - Parameter text: the URL as written.
    public init?(exactly text: String) {
        guard let url = URL(string: text, encodingInvalidCharacters: false), url.absoluteString == text else { return nil }
        self = url
    }

    /// Why `text` is not a URL as written, in a sentence that says how to write it.
    public static func inexactReason(_ text: String) -> String {
        let shown = text.count > 80 ? text.prefix(80) + "…" : Substring(text)
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")
        if let start = text.range(of: "://")?.upperBound {
            let authority = text[start...].prefix { !"/?#".contains($0) }
            if authority.unicodeScalars.contains(where: { !$0.isASCII }) {
                return "The URL '\(shown)' has a host outside ASCII ('\(authority.prefix(80))'), which a URL cannot: write the host in its ASCII (punycode) form, as `xn--bcher-kva.example` for `bücher.example`."
            }
        }
        if let bad = text.unicodeScalars.first(where: { !allowed.contains($0) }) {
            let what = bad == " " ? "a space" : bad.isASCII ? "'\(bad)'" : "'\(bad)' (outside ASCII)"
            let escape = String(bad).utf8.map { String(format: "%%%02X", $0) }.joined()
            return "The URL '\(shown)' holds \(what), which a URL cannot: percent-encode it (\(escape)), as URLState and QueryItems do, so that every reader gets the value sent."
        }
        return "'\(shown)' is not a URL as written: check its escapes (a % is followed by two hex digits) and brackets."
    }
}

extension KeyedDecodingContainer {
    /// A URL exactly as written (`URL(exactly:)`).
    /// - Throws: `DecodingError.dataCorrupted` saying how to write it.
    public func decodeExactURL(forKey key: Key) throws -> URL {
        let text = try decode(String.self, forKey: key)
        guard let url = URL(exactly: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: URL.inexactReason(text))
        }
        return url
    }

    /// A URL exactly as written, when present (`URL(exactly:)`).
    /// - Throws: `DecodingError.dataCorrupted` saying how to write it.
    public func decodeExactURLIfPresent(forKey key: Key) throws -> URL? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeExactURL(forKey: key)
    }
}
