/// What of a feed's XML reaches `XMLParser`: the document with its processing instructions
/// removed, after refusing what could make the parser read outside the document or expand it.
///
/// A small tokenizer, as XML sees the document (character data, tags and their quoted attribute
/// values, comments, CDATA sections, declarations), never a search through the bytes: a CDATA
/// section is passed on untouched, so `<![CDATA[ <!DOCTYPE html> ]]>` or
/// `<![CDATA[Why <?php is better]]>` is text, as the parser reads it.
///
/// - Processing instructions (`<?xml-stylesheet …?>`) are removed, each replaced by a space:
///   FoundationXML on Linux ends the process on one without data (`<?x?>`: it reaches
///   strlen(NULL); found by the feed fuzzer). An XML declaration is kept at the start only when it
///   is exactly one (version, encoding, standalone).
/// - A document type naming an outside DTD (`<!DOCTYPE rss PUBLIC "…" "http://…">`) is passed on
///   without it, so the parser cannot load it.
/// - Refused: a declaration of entities (`<!ENTITY …>`: no entity expansion, no external
///   entities), and attribute-list and notation declarations, on which FoundationXML on Linux ends the
///   process (`<!ATTLIST r a CDATA #IMPLIED>`, `<!NOTATION n SYSTEM "x">`: null pointers; found
///   by fuzzing this screen). A document type with none of these (no internal subset, or one of
///   element declarations, comments and instructions) is the parser's to read.
/// - A document type named `html` is a web page, refused as one.
/// - A character XML does not allow (a control character other than tab and line breaks, U+FFFE,
///   U+FFFF) becomes a space, as a lenient reader would read past it: libxml2 recovers from one
///   inside a comment and reads on past where this tokenizer's comment ended (`<!--` U+0010
///   `<?x?>`, found by the feed fuzzer). As a last net, an instruction that still reaches the
///   parser is given a character of data (`withDataInEveryInstruction`).
/// - Not well-formed, and cut there: a `<` inside a tag or declaration, a tag that does not start
///   with a name, markup other than declarations inside the document type, a CDATA section
///   outside the document's element. The parser recovers from such errors and could then read an
///   instruction where this tokenizer saw text, so it is given the document up to the first one
///   only, and `problem` says what it was: the parser can still tell a web page or another format
///   from its start, which says more to a person than where the XML broke.
enum XMLScreen {
    /// The document as the parser may read it, and what was not well-formed, when something was.
    struct Screened: Hashable, Sendable {
        /// The document, instructions removed, up to where it stopped being well-formed.
        var text: String
        /// Why the document is not well-formed, when the screen found so; the text stops there.
        var problem: String?
    }

    /// `text` as the parser may read it.
    /// - Throws: `FeedError(.malformed)` for what is refused, saying what it is.
    static func screened(_ text: String) throws(FeedError) -> Screened {
        var scanner = Scanner(withAllowedCharacters(Array(text.utf8)))
        try scanner.run()
        return Screened(text: String(decoding: withDataInEveryInstruction(scanner.output), as: UTF8.self), problem: scanner.problem)
    }

    /// UTF-8 `bytes` with each character XML 1.0 does not allow replaced by a space: a control
    /// character other than tab, line feed and carriage return, U+FFFE and U+FFFF.
    static func withAllowedCharacters(_ bytes: [UInt8]) -> [UInt8] {
        var output = bytes
        var index = 0
        while index < output.count {
            let byte = output[index]
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                output[index] = 0x20
            } else if byte == 0xEF, index + 2 < output.count, output[index + 1] == 0xBF, output[index + 2] == 0xBE || output[index + 2] == 0xBF {
                output.replaceSubrange(index...(index + 2), with: [0x20])
            }
            index += 1
        }
        return output
    }

    /// `bytes` with a character of data in each processing instruction that has none (`<?x?>`,
    /// `<?x ?>`) outside CDATA sections and comments, which are kept as written: a space and a
    /// zero-width space. The scanner removes every instruction it reads; this is the net for one
    /// that a parser recovering from an error reads where the scanner read something else.
    /// FoundationXML on Linux ends the process on an instruction without data: libxml2 hands it a
    /// null pointer for the data, which it reads as a C string.
    static func withDataInEveryInstruction(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        while index < bytes.count {
            // A CDATA section or a comment, kept as written.
            let kept = bytes.has("<![CDATA[", at: index) ? bytes.end(of: "]]>", from: index + 9)
                : bytes.has("<!--", at: index) ? bytes.end(of: "-->", from: index + 4) : nil
            if let kept {
                output.append(contentsOf: bytes[index..<kept])
                index = kept
                continue
            }
            output.append(bytes[index])
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?") else {
                index += 1
                continue
            }
            // The target: up to a blank, `?` or a bracket.
            var end = index + 2
            while end < bytes.count, !blanks.contains(bytes[end]), !"?<>".utf8.contains(bytes[end]) { end += 1 }
            var after = end
            while after < bytes.count, blanks.contains(bytes[after]) { after += 1 }
            let empty = end > index + 2 && after + 1 < bytes.count && bytes[after] == UInt8(ascii: "?") && bytes[after + 1] == UInt8(ascii: ">")
            output.append(contentsOf: bytes[(index + 1)..<end])
            if empty { output.append(contentsOf: [0x20, 0xE2, 0x80, 0x8B]) }
            index = end
        }
        return output
    }

    /// The XML declaration's shape, when a document starts with `<?xml `.
    static let declaration = #"^<\?xml\s+version\s*=\s*["']1\.[0-9]["'](\s+encoding\s*=\s*["'][A-Za-z0-9._-]+["'])?(\s+standalone\s*=\s*["'](yes|no)["'])?\s*\?>"#

    /// Walks the document once, copying what the parser may read to `output`.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var output: [UInt8] = []
        /// The elements open, as far as the tags say.
        var depth = 0
        /// Whether the document type's internal subset (`[ … ]`) is being read.
        var inSubset = false
        /// What was not well-formed, where the screen stopped.
        var problem: String?

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count)
        }

        mutating func run() throws(FeedError) {
            try copyDeclaration()
            while index < bytes.count {
                let byte = bytes[index]
                if inSubset, byte == UInt8(ascii: "]") {
                    inSubset = false
                    copy(to: index + 1)
                } else if byte != UInt8(ascii: "<") {
                    let next = bytes[index...].firstIndex { $0 == UInt8(ascii: "<") || (inSubset && $0 == UInt8(ascii: "]")) }
                    copy(to: next ?? bytes.count)
                } else if bytes.has("<?", at: index) {
                    // A space in its place, so that what surrounds it cannot join into a new `<?`.
                    output.append(UInt8(ascii: " "))
                    index = bytes.end(of: "?>", from: index + 2)
                } else if bytes.has("<!--", at: index) {
                    copy(to: bytes.end(of: "-->", from: index + 4))
                } else if bytes.has("<![CDATA[", at: index) {
                    guard depth > 0, !inSubset else { return stop("XML with a CDATA section outside its elements") }
                    copy(to: bytes.end(of: "]]>", from: index + 9))
                } else if bytes.has("<!", at: index) {
                    try declaration()
                } else {
                    tag()
                }
            }
        }

        /// Copies the XML declaration, when the document starts with one.
        private mutating func copyDeclaration() throws(FeedError) {
            guard bytes.has("<?xml", at: index), bytes.count > 5, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[5]) else { return }
            let end = bytes.end(of: "?>", from: 5)
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            guard text.range(of: XMLScreen.declaration, options: .regularExpression) != nil else {
                throw .malformed("an XML declaration that is not one")
            }
            copy(to: end)
        }

        /// A start, end or empty-element tag: copied, and the depth followed.
        private mutating func tag() {
            let isEnd = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
            let nameStart = index + (isEnd ? 2 : 1)
            guard !inSubset, nameStart < bytes.count, Self.isNameStart(bytes[nameStart]) else {
                return stop("XML that is not well-formed: a “<” that starts no tag")
            }
            guard let close = closingBracket(from: nameStart, stopsAtBracket: false) else {
                return copy(to: bytes.count)  // cut off: the parser says so
            }
            if isEnd {
                depth = max(depth - 1, 0)
            } else if bytes[close - 1] != UInt8(ascii: "/") {
                depth += 1
            }
            copy(to: close + 1)
        }

        /// A declaration: the document type, or one of its internal subset.
        private mutating func declaration() throws(FeedError) {
            let keyword = word(at: index + 2)
            switch keyword {
            case "ENTITY":
                throw .malformed("XML that declares entities")
            case "DOCTYPE" where depth == 0 && !inSubset, "doctype" where depth == 0 && !inSubset:
                guard let close = closingBracket(from: index + 9, stopsAtBracket: true) else { return copy(to: bytes.count) }
                let words = String(decoding: bytes[(index + 9)..<close], as: UTF8.self).split(whereSeparator: \.isWhitespace)
                if words.first?.lowercased() == "html" { throw .malformed(SyndicationFeed.webPage) }
                guard keyword == "DOCTYPE" else { return stop("XML that is not well-formed: a “<!doctype” declaration") }
                inSubset = bytes[close] == UInt8(ascii: "[")
                if words.count > 1, words[1] == "SYSTEM" || words[1] == "PUBLIC", let name = words.first {
                    // The outside DTD (Netscape's RSS 0.91 names one) is left out: the parser
                    // never sees where it is, so it cannot load it.
                    output.append(contentsOf: Array("<!DOCTYPE \(name)".utf8) + [bytes[close]])
                    index = close + 1
                } else {
                    copy(to: close + 1)
                }
            case "ATTLIST", "NOTATION":
                // FoundationXML on Linux ends the process on an attribute list without a default
                // (`#IMPLIED`) or a notation without a public id: each hands Swift a null pointer.
                throw .malformed("XML that declares \(keyword == "ATTLIST" ? "attribute lists" : "notations")")
            case "ELEMENT":
                guard inSubset else { return stop("XML that is not well-formed: a “<!\(keyword)” outside a document type") }
                guard let close = closingBracket(from: index + 2, stopsAtBracket: false) else { return copy(to: bytes.count) }
                copy(to: close + 1)
            default:
                stop("XML that is not well-formed: a “<!\(keyword.prefix(20))” declaration")
            }
        }

        /// The index of the `>` that closes the markup, skipping quoted values (or of the `[` that
        /// opens a document type's internal subset); nil when the document ends first, or when a
        /// `<` comes before it, quoted or not (then `problem` says so).
        private mutating func closingBracket(from start: Int, stopsAtBracket: Bool) -> Int? {
            var quote: UInt8?
            for position in start..<bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "<") {
                    stop("XML that is not well-formed: a “<” inside a tag")
                    return nil
                }
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") || (stopsAtBracket && byte == UInt8(ascii: "[")) {
                    return position
                }
            }
            return nil
        }

        /// The ASCII letters at `start` (`DOCTYPE`, `ENTITY`).
        private func word(at start: Int) -> String {
            let letters = bytes[min(start, bytes.count)...].prefix { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            return String(decoding: letters, as: UTF8.self)
        }

        private mutating func copy(to end: Int) {
            output.append(contentsOf: bytes[index..<end])
            index = end
        }

        /// Stops at what is not well-formed: nothing more is copied.
        private mutating func stop(_ reason: String) {
            problem = reason
            index = bytes.count
        }

        /// Whether an element name may start with `byte`: a letter, `_`, `:` or any non-ASCII character.
        private static func isNameStart(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":") || byte >= 0x80
        }
    }
}

extension [UInt8] {
    /// Whether `prefix` is written at `start`.
    fileprivate func has(_ prefix: StaticString, at start: Int) -> Bool {
        let pattern = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return start >= 0 && count - start >= pattern.count && self[start..<(start + pattern.count)].elementsEqual(pattern)
    }

    /// The index just past `terminator`, searched from `start`; the end without one.
    fileprivate func end(of terminator: StaticString, from start: Int) -> Int {
        let pattern = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        var position = start
        while position + pattern.count <= count {
            if self[position] == pattern[0], self[position..<(position + pattern.count)].elementsEqual(pattern) {
                return position + pattern.count
            }
            position += 1
        }
        return count
    }
}
