extension HTMLEntities {
    /// HTML's named references, read once from `namedReferenceList`, and the longest-match
    /// lookup the standard's tokenizer does.
    struct NamedReferences: Sendable {
        /// The characters of each name as written after `&`, `;` included when it has one.
        let characters: [String: String]
        /// The longest name, its `;` included.
        let longestName: Int
        /// The longest legacy name (one a browser reads without `;`).
        let longestLegacyName: Int

        static let table = NamedReferences(list: HTMLEntities.namedReferenceList)

        /// The table in `list`'s lines (`name hex hex…`).
        init(list: String) {
            var characters: [String: String] = [:]
            for line in list.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard let name = fields.first else { continue }
                var text = ""
                for code in fields.dropFirst() {
                    guard let value = UInt32(code, radix: 16), let scalar = Unicode.Scalar(value) else { continue }
                    text.unicodeScalars.append(scalar)
                }
                characters[String(name)] = text
            }
            self.characters = characters
            longestName = characters.keys.map(\.utf8.count).max() ?? 0
            longestLegacyName = characters.keys.filter { !$0.hasSuffix(";") }.map(\.utf8.count).max() ?? 0
        }

        /// The characters of the named reference at `start` (an `&`) and its length in bytes: the
        /// longest name in the table that follows. Nil when none does, or when, in an attribute,
        /// a legacy name without `;` is followed by `=` or an ASCII letter or digit.
        func reference(in bytes: [UInt8], at start: Int, inAttribute: Bool) -> (String, Int)? {
            let nameStart = start + 1
            var end = nameStart
            while end < bytes.count, end - nameStart < longestName, isASCIIAlphanumeric(bytes[end]) { end += 1 }
            guard end > nameStart else { return nil }
            // A name with its `;` can only be the whole run of letters and digits.
            if end < bytes.count, bytes[end] == semicolon,
               let text = characters[String(decoding: bytes[nameStart...end], as: UTF8.self)] {
                return (text, end + 1 - start)
            }
            for length in stride(from: min(end - nameStart, longestLegacyName), through: 1, by: -1) {
                let nameEnd = nameStart + length
                guard let text = characters[String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)] else { continue }
                if inAttribute, nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: "=") || isASCIIAlphanumeric(bytes[nameEnd]) {
                    return nil
                }
                return (text, length + 1)
            }
            return nil
        }
    }
}
