import Foundation
import ParlorKit

/// The text a reader sees of a feed's title: markup removed, scripts and styles dropped with
/// their content, character references decoded, whitespace runs made one space.
///
/// ```swift
/// FeedText.plain("safe&lt;script>location.href='//x'&lt;/script> news", as: .html)  // "safe news"
/// ```
enum FeedText {
    /// `raw` (an element's text as the XML parser gave it) as a reader sees it, read as `type`.
    ///
    /// In any text but `.literal`, a whole `<script>…</script>` or `<style>…</style>` element left
    /// after decoding (a title escaped twice, or RSS's HTML in text) is dropped too, content included.
    static func plain(_ raw: String, as type: FeedTextType) -> String {
        switch type {
        case .text, .markup: withoutScripts(HTMLEntities.decode(raw)).collapsingWhitespace
        case .html: withoutScripts(HTMLEntities.decode(withoutTags(raw))).collapsingWhitespace
        case .literal: raw.collapsingWhitespace
        case .base64(let decoded): base64Text(raw).map { plain($0, as: decoded) } ?? ""
        }
    }

    /// `html` without its tags (`<b>`, `</a>`, `<img src="…">`), each replaced by a space, and
    /// without its `script` and `style` elements, content included (an unclosed one runs to the
    /// end, as in a browser). A `<` that starts no tag (`a < b`) is text.
    static func withoutTags(_ html: String) -> String {
        strip(html, everyTag: true)
    }

    /// `text` without its whole `script` and `style` elements, content included; the rest as written.
    static func withoutScripts(_ text: String) -> String {
        guard text.contains("<") else { return text }
        return strip(text, everyTag: false)
    }

    /// The text that `raw`, base64 with any whitespace, encodes: nil unless it is valid base64 of
    /// UTF-8 text without control characters other than line breaks and tabs.
    static func base64Text(_ raw: String) -> String? {
        let compact = raw.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact), let text = String(validating: data, as: UTF8.self),
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !"\n\r\t".unicodeScalars.contains($0) })
        else { return nil }
        return text
    }

    /// The elements whose content is never shown.
    private static let hiddenElements = ["script", "style"]

    /// `text` without its script and style elements and, when `everyTag`, its other tags. Linear
    /// in the text's length: the next `>` is looked for once for every stretch, and an element
    /// found unclosed once is not looked for again.
    private static func strip(_ text: String, everyTag: Bool) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        /// The next `>` at or after `index`; `scalars.count` when there is none.
        var close = -1
        var unclosed: Set<String> = []
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "<", index + 1 < scalars.count, startsTag(scalars[index + 1]) else {
                result.append(scalar)
                index += 1
                continue
            }
            if close < index { close = scalars[index...].firstIndex(of: ">") ?? scalars.count }
            guard close < scalars.count else {
                if everyTag { break }  // an unclosed tag: the rest is inside it
                result.append(scalar)
                index += 1
                continue
            }
            let name = String(String.UnicodeScalarView(scalars[(index + 1)...].prefix(8).prefix { $0.properties.isAlphabetic })).lowercased()
            if hiddenElements.contains(name) {
                if !unclosed.contains(name), let end = endOfElement(name, in: scalars, from: close + 1) {
                    result.append(" ")
                    index = end
                    continue
                }
                unclosed.insert(name)
                if everyTag { break }  // unclosed: hidden to the end, as in a browser
            } else if everyTag {
                result.append(" ")
                index = close + 1
                continue
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    /// Whether `<` followed by `scalar` starts a tag, a comment or a declaration.
    private static func startsTag(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar == "/" || scalar == "!" || scalar == "?"
    }

    /// The index just past `</name…>` after `start`, ignoring ASCII case; nil when there is none.
    private static func endOfElement(_ name: String, in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        let pattern = Array("</\(name)".unicodeScalars)
        var position = start
        while position + pattern.count <= scalars.count {
            let candidate = scalars[position..<(position + pattern.count)]
            // The pattern is `</` and lowercase ASCII letters; an uppercase letter is 32 below its lowercase.
            if zip(candidate, pattern).allSatisfy({ $0.0 == $0.1 || ($0.1.properties.isAlphabetic && $0.0.value + 32 == $0.1.value) }),
               let close = scalars[(position + pattern.count)...].firstIndex(of: ">") {
                return close + 1
            }
            position += 1
        }
        return nil
    }
}
