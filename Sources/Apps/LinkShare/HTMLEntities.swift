/// Decodes the HTML character references that Reddit's JSON carries in titles, URLs and domains
/// (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`, `&#8217;`, `&#x1F600;` …), so a reader sees
/// `Tom & Jerry`, not `Tom &amp; Jerry`.
///
/// One pass, left to right: `&amp;lt;` becomes `&lt;` (text escaped twice keeps one level, as a
/// browser shows it). A reference that is unknown or lacks its `;` is left as written; a numeric
/// reference to no character (0, a surrogate, past U+10FFFF) becomes U+FFFD, as in a browser.
///
/// ```swift
/// HTMLEntities.decode("Rust &amp; Go: &quot;fast&quot; &#8212; or not?")  // Rust & Go: "fast" — or not?
/// ```
public enum HTMLEntities {
    /// The named references decoded: the five XML ones and the typography Reddit titles use.
    static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "ndash": "\u{2013}", "mdash": "\u{2014}", "hellip": "\u{2026}",
        "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
        "copy": "\u{A9}", "reg": "\u{AE}", "trade": "\u{2122}",
    ]

    /// The longest reference looked for, `&` and `;` included (`&#x10FFFF;` is 10).
    static let maxReferenceLength = 12

    /// `text` with its character references replaced by the characters they stand for.
    public static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let scalars = Array(text.unicodeScalars)
        var decoded = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let (scalar, length) = reference(at: index, in: scalars) {
                decoded.append(scalar)
                index += length
            } else {
                decoded.append(scalars[index])
                index += 1
            }
        }
        return String(decoded)
    }

    /// The character of the reference starting at `start` (an `&`) and the reference's length.
    private static func reference(at start: Int, in scalars: [Unicode.Scalar]) -> (Unicode.Scalar, Int)? {
        let end = min(scalars.count, start + maxReferenceLength)
        guard let semicolon = scalars[(start + 1)..<end].firstIndex(of: ";"), semicolon > start + 1 else { return nil }
        let name = String(String.UnicodeScalarView(scalars[(start + 1)..<semicolon]))
        let length = semicolon - start + 1
        if name.hasPrefix("#") {
            return numericReference(String(name.dropFirst())).map { ($0, length) }
        }
        return named[name].map { ($0, length) }
    }

    /// The character of a numeric reference's digits (`39`, `x27`); nil when they are not digits.
    private static func numericReference(_ digits: String) -> Unicode.Scalar? {
        let isHex = digits.first == "x" || digits.first == "X"
        let number = isHex ? String(digits.dropFirst()) : digits
        guard !number.isEmpty, number.count <= 8, number.allSatisfy(\.isHexDigit),
              let value = UInt32(number, radix: isHex ? 16 : 10) else { return nil }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }
}
