import Foundation

/// Thrown inside the decoder for a value of another kind than asked (which Foundation refuses
/// too), or when it leaves a document to Foundation (`JSONTape.unsure()`).
struct LeftToFoundation: Error {}

/// A JSON document as a list of tokens in document order; a container's token is followed by
/// its members (an object's as key, value, key, value…) and says where the token after them is.
final class JSONTape {
    enum Kind: UInt8 { case object, array, string, escapedString, number, integer, `true`, `false`, null }

    struct Token {
        var kind: Kind
        /// A string's content (without its quotes) or a number's text, as a byte range.
        var start: Int32
        var end: Int32
        /// The index of the token after this one and everything inside it.
        var next: Int32
        /// An object's members or an array's elements.
        var count: Int32
    }

    let bytes: UnsafeMutableBufferPointer<UInt8>
    // One tape serves one `decode` call on one thread: the run-time exclusivity checks of a
    // class's stored properties guard nothing here, and cost a token read each.
    @exclusivity(unchecked) private(set) var tokens: [Token] = []
    /// Set when something was read that Foundation might read otherwise (a number with a
    /// fraction as an integer, a key present twice…), even if the value caught the error and
    /// went on: the whole document is then decoded by Foundation.
    @exclusivity(unchecked) private(set) var isUnsure = false

    /// Marks the document for Foundation and returns the error that unwinds to it.
    func unsure() -> LeftToFoundation {
        isUnsure = true
        return LeftToFoundation()
    }

    /// Nil when `data` is not JSON this tape reads exactly as Foundation would (Foundation then
    /// decides what it is); deeper than 256 levels counts as such.
    init?(_ data: Data) {
        guard data.count < Int32.max else { return nil }
        bytes = .allocate(capacity: data.count)
        _ = bytes.initialize(from: data)
        tokens.reserveCapacity(data.count / 8 + 4)
        var parser = Parser(bytes: UnsafeBufferPointer(bytes), tape: self)
        guard parser.parseDocument() else { return nil }
    }

    deinit { bytes.deallocate() }

    fileprivate func append(_ token: Token) -> Int {
        tokens.append(token)
        return tokens.count - 1
    }

    fileprivate func finish(_ index: Int, count: Int) {
        tokens[index].next = Int32(tokens.count)
        tokens[index].count = Int32(count)
    }

    func slice(_ token: Token) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)])
    }

    /// A string token's text, its escapes resolved.
    func string(_ token: Token) -> String? {
        let raw = slice(token)
        guard token.kind == .escapedString else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard let unit = Self.hex4(raw, at: index) else { return nil }
                index += 4
                var scalar: Unicode.Scalar?
                if (0xD800..<0xDC00).contains(unit) {
                    guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                        let low = Self.hex4(raw, at: index + 2), (0xDC00..<0xE000).contains(low)
                    else { return nil }
                    index += 6
                    scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                } else {
                    scalar = Unicode.Scalar(unit)
                }
                guard let scalar else { return nil }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default: out.append(escape)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for byte in raw[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Whether an object key token spells `key`.
    func key(_ token: Token, is key: String) -> Bool {
        if token.kind == .escapedString { return string(token) == key }
        let raw = slice(token)
        var key = key
        return key.withUTF8 { utf8 in
            guard utf8.count == raw.count else { return false }
            guard let mine = utf8.baseAddress, let theirs = raw.baseAddress else { return true }  // both empty
            return memcmp(mine, theirs, raw.count) == 0
        }
    }

    /// A strict JSON parser (RFC 8259): what it accepts Foundation accepts too.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let tape: JSONTape
        var index = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>, tape: JSONTape) {
            self.bytes = bytes
            self.tape = tape
        }

        mutating func parseDocument() -> Bool {
            skipSpace()
            guard parseValue() else { return false }
            skipSpace()
            return index == bytes.count
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        private mutating func parseValue() -> Bool {
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "{"): return parseObject()
            case UInt8(ascii: "["): return parseArray()
            case UInt8(ascii: "\""): return parseString()
            case UInt8(ascii: "t"): return parseLiteral("true", .true)
            case UInt8(ascii: "f"): return parseLiteral("false", .false)
            case UInt8(ascii: "n"): return parseLiteral("null", .null)
            default: return parseNumber()
            }
        }

        private mutating func parseLiteral(_ literal: StaticString, _ kind: Kind) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count, let base = bytes.baseAddress, memcmp(base + index, literal.utf8Start, count) == 0
            else { return false }
            let token = tape.append(Token(kind: kind, start: Int32(index), end: Int32(index + count), next: 0, count: 0))
            index += count
            tape.finish(token, count: 0)
            return true
        }

        private mutating func parseObject() -> Bool {
            parseContainer(.object, closer: UInt8(ascii: "}")) { parser in
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\""), parser.parseString() else {
                    return false
                }
                parser.skipSpace()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ":") else { return false }
                parser.index += 1
                parser.skipSpace()
                return parser.parseValue()
            }
        }

        private mutating func parseArray() -> Bool {
            parseContainer(.array, closer: UInt8(ascii: "]")) { $0.parseValue() }
        }

        /// An object or an array: `member` reads one member (an object's key, colon and value, or
        /// an array's element), separated by commas up to `closer`.
        private mutating func parseContainer(_ kind: Kind, closer: UInt8, member: (inout Parser) -> Bool) -> Bool {
            depth += 1
            guard depth <= 256 else { return false }
            defer { depth -= 1 }
            let token = tape.append(Token(kind: kind, start: Int32(index), end: 0, next: 0, count: 0))
            index += 1
            skipSpace()
            var members = 0
            if index < bytes.count, bytes[index] == closer {
                index += 1
            } else {
                while true {
                    skipSpace()
                    guard member(&self) else { return false }
                    members += 1
                    skipSpace()
                    guard index < bytes.count else { return false }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                    } else if bytes[index] == closer {
                        index += 1
                        break
                    } else {
                        return false
                    }
                }
            }
            tape.finish(token, count: members)
            return true
        }

        /// A string: no control characters, valid escapes (a surrogate only in a pair), valid UTF-8.
        private mutating func parseString() -> Bool {
            index += 1
            let start = index
            var escaped = false
            var ascii = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 { return false }
                if byte >= 0x80 { ascii = false }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    guard index + 1 < bytes.count else { return false }
                    switch bytes[index + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "u"):
                        index += 2
                    default: return false
                    }
                    continue
                }
                index += 1
            }
            guard index < bytes.count else { return false }
            let end = index
            index += 1
            if !ascii, String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) == nil { return false }
            let token = Token(kind: escaped ? .escapedString : .string, start: Int32(start), end: Int32(end), next: 0, count: 0)
            let at = tape.append(token)
            tape.finish(at, count: 0)
            // Escapes are checked in full (hex digits, surrogate pairs) once, here.
            return !escaped || tape.string(token) != nil
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        private mutating func parseNumber() -> Bool {
            let start = index
            var integer = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integer = false
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                integer = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return false }
            }
            let at = tape.append(Token(kind: integer ? .integer : .number, start: Int32(start), end: Int32(index), next: 0, count: 0))
            tape.finish(at, count: 0)
            return true
        }

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
    }
}
