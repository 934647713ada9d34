/// Decodes HTML's character references (`&amp;`, `&eacute;`, `&#8212;`, `&#x1F600;`) as a browser
/// does: the HTML standard's whole table of 2,231 names, numeric references, and its rules for
/// references that are malformed.
///
/// - Named references match the longest name in the table: `&notin;` is `∉`, while `&notit;` is
///   `¬it;` (`&not` is one of the legacy names a browser also reads without `;`, like `&amp`,
///   `&lt` and `&copy`). An `&` that starts no reference stays as written (`AT&T`, `&foo;`).
/// - Numeric references, decimal or hexadecimal, need no `;`. `&#0;`, surrogates and numbers
///   past U+10FFFF become U+FFFD; `&#128;`–`&#159;` are read as Windows-1252, as the standard says
///   (`&#150;` is `–`); other control characters and noncharacters are kept.
/// - One pass, left to right: `&amp;lt;` is `&lt;` (text escaped twice keeps one level, as a
///   browser shows it).
///
/// Use ``decode(_:)`` for text (an element's content, Reddit's or a feed's escaped titles) and
/// ``decode(attributeValue:)`` for an attribute's value or a URL, where a bare legacy name
/// followed by `=` or a letter or digit stays as written (`?a=1&copy=2` keeps its `&copy`).
///
/// ```swift
/// HTMLEntities.decode("Rust &amp; Go: &quot;fast&quot; &#8212; or not?")  // Rust & Go: "fast" — or not?
/// HTMLEntities.decode("Caf&eacute; &raquo; Tom&rsquo;s")                 // Café » Tom’s
/// HTMLEntities.decode(attributeValue: "/search?q=x&region=eu&amp;lang=en")  // /search?q=x&region=eu&lang=en
/// ```
public enum HTMLEntities {
    /// `text` with its character references replaced by the characters they stand for, read as
    /// a browser reads an element's text.
    /// - Parameter text: text that may hold references; text without `&` is returned as is.
    /// - Returns: the decoded text. Never fails: what is not a reference stays as written.
    public static func decode(_ text: String) -> String {
        decode(text, inAttribute: false)
    }

    /// `value` with its character references replaced, read as a browser reads an attribute's
    /// value: as ``decode(_:)``, except that a legacy name without its `;` that is followed by `=`
    /// or an ASCII letter or digit is left as written, so that query strings keep their
    /// parameters (`&copy=2`, `&region=eu`, `&notify`).
    /// - Parameter value: an attribute's value (`content`, `href`) or a URL taken from one.
    /// - Returns: the decoded value.
    public static func decode(attributeValue value: String) -> String {
        decode(value, inAttribute: true)
    }

    static let ampersand = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")

    private static func decode(_ text: String, inAttribute: Bool) -> String {
        guard text.utf8.contains(ampersand) else { return text }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ampersand, let (replacement, length) = reference(in: bytes, at: index, inAttribute: inAttribute) {
                decoded.append(contentsOf: replacement.utf8)
                index += length
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        // References are ASCII, so cutting them out of valid UTF-8 leaves valid UTF-8.
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The characters of the reference at `start` (an `&`) and its length in bytes; nil when no
    /// reference starts there.
    static func reference(in bytes: [UInt8], at start: Int, inAttribute: Bool) -> (String, Int)? {
        let next = start + 1
        guard next < bytes.count else { return nil }
        if bytes[next] == UInt8(ascii: "#") {
            return numericReference(in: bytes, at: start)
        }
        return NamedReferences.table.reference(in: bytes, at: start, inAttribute: inAttribute)
    }

    /// Whether `byte` is an ASCII letter or digit.
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
