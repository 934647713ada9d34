import ParlorKit

/// The HTML standard's tokenizer, as much of it as reading a page's head needs: start and end
/// tags with their attributes, read as a browser reads them, with comments, doctypes and bogus
/// comments skipped whole, and the content of the elements whose content is text (`<script>`,
/// `<style>`, `<title>`, …) taken as text, never as markup.
///
/// A browser's tree builder tells its tokenizer when an element's content is text; this one
/// decides by the element's name alone, as the tree builder does in a document's head:
/// - `<script>`: script text, up to its `</script>` as the standard's script states find it
///   (a `<!--` section may hold a `<script>…</script>` that does not end it);
/// - `<style>`, `<noscript>` (as in a browser running scripts), `<noframes>`, `<iframe>`,
///   `<noembed>`, `<xmp>`: raw text, skipped;
/// - `<title>`, `<textarea>`: text with its character references decoded, given as `.text`;
/// - `<plaintext>`: everything after it.
/// Foreign content (`<svg>`, `<math>`), which only a body holds, is not told apart.
struct HTMLTokenizer {
    /// What the tokenizer reads, in order.
    enum Token: Equatable, Sendable {
        /// `<name …>`: the name and the attributes' names lowercased, the values with their
        /// character references decoded; of an attribute written twice, the first.
        case startTag(name: String, attributes: [String: String])
        /// `</name …>`.
        case endTag(name: String)
        /// The content of a `<title>` or `<textarea>`, references decoded, right after its
        /// start tag (empty when it has none).
        case text(String)
    }

    /// How an element's content is read, when it is text.
    enum ContentKind {
        case script, rawText, escapableRawText, plainText

        init?(element name: String) {
            switch name {
            case "script": self = .script
            case "style", "noscript", "noframes", "iframe", "noembed", "xmp": self = .rawText
            case "title", "textarea": self = .escapableRawText
            case "plaintext": self = .plainText
            default: return nil
            }
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    /// The element whose content is text, just opened: its content comes next.
    private var openTextElement: (name: String, kind: ContentKind)?

    init(_ html: String) {
        bytes = Array(html.utf8)
    }

    /// The next token; nil at the end of the input.
    mutating func next() -> Token? {
        if let element = openTextElement {
            openTextElement = nil
            if let text = readContent(of: element.name, as: element.kind) { return .text(text) }
        }
        while let open = nextIndex(of: .lessThan, from: index) {
            index = open + 1
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            if byte == UInt8(ascii: "!") {
                skipMarkupDeclaration()
            } else if byte == UInt8(ascii: "?") {
                skipBogusComment()
            } else if byte == .slash {
                if let token = readEndTag() { return token }
            } else if Self.isASCIIAlpha(byte) {
                guard let (name, attributes) = readTag(keepingAttributes: true) else { return nil }
                if let kind = ContentKind(element: name) { openTextElement = (name, kind) }
                return .startTag(name: name, attributes: attributes)
            }
            // Anything else: the `<` was text.
        }
        index = bytes.count
        return nil
    }

    // MARK: Tags

    /// After `</`: the end tag, or nil when it is no tag (`</>` is dropped, `</3` a bogus comment).
    private mutating func readEndTag() -> Token? {
        index += 1
        guard index < bytes.count else { return nil }
        if Self.isASCIIAlpha(bytes[index]) {
            return readTag(keepingAttributes: false).map { .endTag(name: $0.name) }
        }
        if bytes[index] == .greaterThan {
            index += 1
        } else {
            skipBogusComment()
        }
        return nil
    }

    /// The tag whose name starts at `index`, read up to its `>`; nil when the input ends first,
    /// since a browser drops a tag cut off.
    private mutating func readTag(keepingAttributes: Bool) -> (name: String, attributes: [String: String])? {
        let nameStart = index
        while index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != .slash, bytes[index] != .greaterThan {
            index += 1
        }
        let name = text(nameStart..<index, lowercased: true)
        var attributes: [String: String] = [:]
        while true {
            while index < bytes.count, Self.isWhitespace(bytes[index]) || bytes[index] == .slash { index += 1 }
            guard index < bytes.count else { return cutOff() }
            if bytes[index] == .greaterThan {
                index += 1
                return (name, attributes)
            }
            // An attribute's name: its first character may be `=`, the rest anything but these.
            let attributeStart = index
            index += 1
            while index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != .slash,
                  bytes[index] != .greaterThan, bytes[index] != .equals {
                index += 1
            }
            let attributeEnd = index
            while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
            var value: Range<Int> = index..<index
            if index < bytes.count, bytes[index] == .equals {
                index += 1
                while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
                guard index < bytes.count else { return cutOff() }
                let quote = bytes[index]
                if quote == .doubleQuote || quote == .singleQuote {
                    guard let close = nextIndex(of: quote, from: index + 1) else { return cutOff() }
                    value = (index + 1)..<close
                    index = close + 1
                } else if quote != .greaterThan {
                    let start = index
                    while index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != .greaterThan { index += 1 }
                    value = start..<index
                }
            }
            guard keepingAttributes else { continue }
            let attribute = text(attributeStart..<attributeEnd, lowercased: true)
            if attributes[attribute] == nil {
                attributes[attribute] = HTMLEntities.decode(attributeValue: text(value, lowercased: false))
            }
        }
    }

    /// The end of the input inside a tag: the tag is dropped and nothing follows.
    private mutating func cutOff() -> (name: String, attributes: [String: String])? {
        index = bytes.count
        return nil
    }

    // MARK: Comments and declarations

    /// After `<!`: a comment up to its `-->` (or `--!>`; `<!-->` and `<!--->` are empty
    /// comments), anything else (a doctype, `<![CDATA[`) up to the next `>`.
    private mutating func skipMarkupDeclaration() {
        guard matches("!--", at: index) else { return skipBogusComment() }
        var cursor = index + 3
        if matches(">", at: cursor) || matches("->", at: cursor) {
            index = nextIndex(of: .greaterThan, from: cursor).map { $0 + 1 } ?? bytes.count
            return
        }
        while let dash = nextIndex(of: .hyphen, from: cursor) {
            if matches("-->", at: dash) {
                index = dash + 3
                return
            }
            if matches("--!>", at: dash) {
                index = dash + 4
                return
            }
            cursor = dash + 1
        }
        index = bytes.count
    }

    /// A bogus comment (`<?xml …>`, `</3>`, `<!x>`): up to the next `>`.
    private mutating func skipBogusComment() {
        index = nextIndex(of: .greaterThan, from: index).map { $0 + 1 } ?? bytes.count
    }

    // MARK: Elements whose content is text

    /// Reads the content of the element `name` just opened, leaving `index` at its end tag (or
    /// the end of the input); its text when the element's content is text a reader sees.
    private mutating func readContent(of name: String, as kind: ContentKind) -> String? {
        let start = index
        switch kind {
        case .plainText:
            index = bytes.count
            return nil
        case .script:
            index = scriptEnd(from: start)
            return nil
        case .rawText:
            index = endTag(name, from: start) ?? bytes.count
            return nil
        case .escapableRawText:
            index = endTag(name, from: start) ?? bytes.count
            return HTMLEntities.decode(text(start..<index, lowercased: false))
        }
    }

    /// Where the first `</name` that ends the element is (followed by white space, `/` or `>`).
    private func endTag(_ name: String, from start: Int) -> Int? {
        var cursor = start
        while let open = nextIndex(of: .lessThan, from: cursor) {
            if isEndTag(name, at: open) { return open }
            cursor = open + 1
        }
        return nil
    }

    /// Where a script's text ends, by the standard's script data states: at a `</script`,
    /// unless it is inside a `<!--` section that opened a `<script` (double escaped).
    private func scriptEnd(from start: Int) -> Int {
        enum State { case data, escaped, doubleEscaped }
        var state = State.data
        var cursor = start
        while cursor < bytes.count {
            let byte = bytes[cursor]
            guard byte == .lessThan || byte == .hyphen else {
                cursor += 1
                continue
            }
            switch state {
            case .data:
                if isEndTag("script", at: cursor) { return cursor }
                if matches("<!--", at: cursor) {
                    state = .escaped
                    cursor += 2  // to the dashes, which may be those of `-->` (`<!-->`)
                    continue
                }
            case .escaped:
                if matches("-->", at: cursor) {
                    state = .data
                    cursor += 3
                    continue
                }
                if isEndTag("script", at: cursor) { return cursor }
                if byte == .lessThan, isTagName("script", at: cursor + 1) {
                    state = .doubleEscaped
                    cursor += 7
                    continue
                }
            case .doubleEscaped:
                if matches("-->", at: cursor) {
                    state = .data
                    cursor += 3
                    continue
                }
                if isEndTag("script", at: cursor) {
                    state = .escaped
                    cursor += 8
                    continue
                }
            }
            cursor += 1
        }
        return bytes.count
    }

    /// Whether `</name` followed by white space, `/` or `>` starts at `position` (ASCII case ignored).
    private func isEndTag(_ name: String, at position: Int) -> Bool {
        matches("</", at: position) && isTagName(name, at: position + 2)
    }

    /// Whether `name` followed by white space, `/` or `>` starts at `position` (ASCII case ignored).
    private func isTagName(_ name: String, at position: Int) -> Bool {
        var cursor = position
        for expected in name.utf8 {
            guard cursor < bytes.count, bytes[cursor] | 0x20 == expected else { return false }
            cursor += 1
        }
        guard cursor < bytes.count else { return false }
        return Self.isWhitespace(bytes[cursor]) || bytes[cursor] == .slash || bytes[cursor] == .greaterThan
    }

    // MARK: Bytes

    private func matches(_ literal: StaticString, at position: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position >= 0, position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[position + $0] == expected[$0] }
        }
    }

    private func nextIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes[start...].firstIndex(of: byte)
    }

    /// The bytes in `range` as text, U+0000 made U+FFFD as a browser does, ASCII letters
    /// lowercased when asked.
    private func text(_ range: Range<Int>, lowercased: Bool) -> String {
        let slice = bytes[range]
        guard lowercased || slice.contains(0) else { return String(decoding: slice, as: UTF8.self) }
        var copy: [UInt8] = []
        copy.reserveCapacity(slice.count)
        for byte in slice {
            switch byte {
            case 0: copy += [0xEF, 0xBF, 0xBD]
            case UInt8(ascii: "A")...UInt8(ascii: "Z") where lowercased: copy.append(byte | 0x20)
            default: copy.append(byte)
            }
        }
        return String(decoding: copy, as: UTF8.self)
    }

    /// HTML's white space (a carriage return is a line feed once the input is preprocessed).
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    static func isASCIIAlpha(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}

private extension UInt8 {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let slash = UInt8(ascii: "/")
    static let equals = UInt8(ascii: "=")
    static let hyphen = UInt8(ascii: "-")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
}
