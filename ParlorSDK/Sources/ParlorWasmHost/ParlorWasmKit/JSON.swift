// JSON for Embedded Swift, which has neither Foundation nor Codable: a value, a reader for the
// calls Parlor writes and a writer for the answers (docs/APPS-WASM.md §1).

/// A JSON value. Objects keep their members in order; numbers keep the text they were written
/// with, so a value read and written again is unchanged.
public enum JSON {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// An integer, written as JSON writes it.
    public static func int(_ value: Int) -> JSON { .number("\(value)") }

    /// The member named `key` of an object; `null` when there is none, or for anything else.
    public subscript(key: String) -> JSON {
        guard case .object(let members) = self else { return .null }
        return withBytes(of: key) { key in
            for (name, value) in members where name.utf8.count == key.count {
                if withBytes(of: name, { memcmp($0.baseAddress, key.baseAddress, key.count) == 0 }) { return value }
            }
            return .null
        }
    }

    /// The element at `index` of an array; `null` past its end, or for anything else.
    public subscript(index: Int) -> JSON {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return .null
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as an `Int` when it is a whole number of at most 18 digits.
    public var int: Int? {
        guard case .number(let text) = self else { return nil }
        var value = 0
        var negative = false
        var digits = 0
        let read: Bool = withBytes(of: text) { bytes in
            for byte in bytes {
                if byte == UInt8(ascii: "-"), digits == 0, !negative {
                    negative = true
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 {
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    digits += 1
                } else {
                    return false
                }
            }
            return true
        }
        guard read, digits > 0 else { return nil }
        return negative ? -value : value
    }

    public var elements: [JSON] {
        if case .array(let elements) = self { return elements }
        return []
    }

    public var members: [(String, JSON)] {
        if case .object(let members) = self { return members }
        return []
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is the string `text`, byte for byte.
    public func isString(_ text: String) -> Bool {
        if case .string(let mine) = self { return same(mine, text) }
        return false
    }

    /// An action's name: the one key of `{"name": {…}}`, or the string of `"name"`.
    public var name: String? {
        if case .string(let text) = self { return text }
        if case .object(let members) = self, members.count == 1 { return members[0].0 }
        return nil
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(elements) }
    public init(nilLiteral: ()) { self = .null }
}

/// Whether two strings hold the same bytes: what the kit compares ids, names and keys it wrote
/// itself with. `==` compares as Unicode says (é written one way or two equal), which is what an
/// app means for text people typed; it works too (`parlor apps build` links the Unicode data).
public func same(_ a: String, _ b: String) -> Bool {
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    return withBytes(of: a) { x in withBytes(of: b) { y in memcmp(x.baseAddress, y.baseAddress, count) == 0 } }
}

/// `body` given `text`'s UTF-8 bytes as one buffer. The kit reads strings so, never as
/// `text.utf8`, and an app that reads a string byte by byte should too: in Embedded Swift, going
/// through a `String.UTF8View` copies and releases the string's storage for every byte, and under
/// Parlor's interpreter that was most of a Tic-Tac-Toe move's time (`same` comparing keys by
/// `elementsEqual`, `PercentEncoding.encode` writing the board's picture).
@inline(__always)
public func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    var text = text
    return text.withUTF8(body)
}

/// `text`'s UTF-8 bytes, copied at once (see `withBytes`).
func utf8Bytes(of text: String) -> [UInt8] {
    var out = ByteWriter(capacity: text.utf8.count)
    out.append(text)
    return out.array
}

/// How many bytes from `start` in `bytes` need no escape in a JSON string: none is a control
/// character, `"` or `\`. Read eight bytes at a time: a byte at a time, the loop costs Parlor's
/// interpreter about 28 operators a byte; this, about 4.
func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var index = start
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        // Whether some byte is below 0x20, or is zero once xored with `"` or `\` (exact for
        // whether one is, which is all this asks).
        let control = (word &- 0x20 &* ones) & ~word & highs
        let quote = word ^ (0x22 &* ones)
        let backslash = word ^ (0x5C &* ones)
        let special = control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)
        if special != 0 { break }
        index += 8
    }
    while index < bytes.count, !JSON.needsEscape(bytes[index]) { index += 1 }
    return index - start
}

/// Whether every byte is below 0x80.
func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where byte >= 0x80 { return false }
    return true
}

// MARK: Writing

extension JSON {
    /// The value as UTF-8 JSON text.
    public var text: [UInt8] {
        var out = ByteWriter(capacity: 1024)
        write(to: &out)
        return out.array
    }

    /// The value as a string of JSON text (an action in a view is one).
    public var textString: String {
        var out = ByteWriter()
        write(to: &out)
        return out.string
    }

    /// Appends the value as UTF-8 JSON text to `out`.
    public func write(to out: inout [UInt8]) {
        out.append(contentsOf: text)
    }

    func write(to out: inout ByteWriter) {
        switch self {
        case .null: out.appendLiteral("null")
        case .bool(let value): if value { out.appendLiteral("true") } else { out.appendLiteral("false") }
        case .number(let text): out.append(text)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (name, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(name, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ text: String, to out: inout ByteWriter) {
        out.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape are copied whole: this is most of every answer (an
        // SVG in a data URL, a caption), and byte by byte it is what an interpreter spends its time on.
        withBytes(of: text) { bytes in
            var start = 0
            while true {
                let end = start + plainRun(bytes, from: start)
                out.append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                guard end < bytes.count else { break }
                writeEscaped(bytes[end], to: &out)
                start = end + 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    static func writeEscaped(_ byte: UInt8, to out: inout ByteWriter) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            out.append(UInt8(ascii: "\\"))
            out.append(byte)
        case UInt8(ascii: "\n"): out.appendLiteral("\\n")
        case UInt8(ascii: "\r"): out.appendLiteral("\\r")
        case UInt8(ascii: "\t"): out.appendLiteral("\\t")
        case 0..<0x20:
            out.appendLiteral("\\u00")
            out.append(PercentEncoding.hexDigit(byte >> 4))
            out.append(PercentEncoding.hexDigit(byte & 0x0F))
        default: out.append(byte)
        }
    }
}

// MARK: Reading

/// Why JSON text could not be read.
public struct JSONError: Error {
    public var offset: Int
}

extension JSON {
    /// The deepest nesting read: Parlor's calls are far shallower.
    public static let maxDepth = 64

    /// Reads one JSON value filling `bytes` (spaces around it allowed).
    public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
        var reader = JSONReader(bytes: bytes)
        self = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw JSONError(offset: reader.index) }
    }

    /// Reads one JSON value from text.
    public init(parsing text: String) throws(JSONError) {
        var copy = utf8Bytes(of: text)
        let result: Result<JSON, JSONError> = copy.withUnsafeMutableBufferPointer { buffer in
            do throws(JSONError) {
                return .success(try JSON(parsing: UnsafeBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}

struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Whether the last string read had no escape, so that its bytes are its text.
    private(set) var lastStringIsAsWritten = false

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    func fail() -> JSONError { JSONError(offset: index) }

    mutating func expect(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw fail() }
        index += count
    }

    mutating func value(depth: Int) throws(JSONError) -> JSON {
        guard depth < JSON.maxDepth else { throw fail() }
        skipSpace()
        guard index < bytes.count else { throw fail() }
        switch bytes[index] {
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw fail() }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                guard bytes[index] == UInt8(ascii: ",") else { throw fail() }
                index += 1
            }
        case UInt8(ascii: "{"):
            index += 1
            var members: [(String, JSON)] = []
            // Where each name is written, while every one is ASCII without an escape (so written as
            // read): names are compared there.
            var written: [Range<Int>]? = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail() }
                let start = index + 1
                let name = try string()
                // A name given twice would let a lookup (the first) and what another reader takes
                // (often the last) disagree: refused, as a forged state's trick.
                let range = start..<(index - 1)
                if written != nil, lastStringIsAsWritten, isASCII(UnsafeBufferPointer(rebasing: bytes[range])) {
                    let base = bytes.baseAddress
                    for other in written ?? [] where other.count == range.count {
                        guard memcmp(base.map { $0 + other.lowerBound }, base.map { $0 + range.lowerBound }, range.count) != 0 else { throw fail() }
                    }
                    written?.append(range)
                } else {
                    written = nil
                    guard !members.contains(where: { same($0.0, name) }) else { throw fail() }
                }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail() }
                index += 1
                members.append((name, try value(depth: depth + 1)))
                skipSpace()
                guard index < bytes.count else { throw fail() }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                guard bytes[index] == UInt8(ascii: ",") else { throw fail() }
                index += 1
            }
        default: return .number(try number())
        }
    }

    mutating func number() throws(JSONError) -> String {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, reader.bytes[reader.index] >= UInt8(ascii: "0"), reader.bytes[reader.index] <= UInt8(ascii: "9") {
                reader.index += 1
            }
            return reader.index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let whole = index
        guard digits(&self) > 0 else { throw fail() }
        if bytes[whole] == UInt8(ascii: "0"), index - whole > 1 { throw fail() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail() }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail()
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// A string, its escapes read; the bytes of one that is not UTF-8 are replaced, as
    /// `String(decoding:)` does (Parlor writes only UTF-8).
    mutating func string() throws(JSONError) -> String {
        index += 1  // the opening quote
        // Most strings have no escape: read where they are, without a copy in between.
        let first = index
        index += plainRun(bytes, from: index)
        lastStringIsAsWritten = index < bytes.count && bytes[index] == UInt8(ascii: "\"")
        if lastStringIsAsWritten {
            index += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<(index - 1)]), as: UTF8.self)
        }
        // An escape, a control character or the end: what was read so far is the text's start.
        var out = ByteWriter(capacity: 16 + index - first)
        out.append(UnsafeBufferPointer(rebasing: bytes[first..<index]))
        while true {
            // A run without escapes is copied whole.
            let run = index
            index += plainRun(bytes, from: index)
            if index > run { out.append(UnsafeBufferPointer(rebasing: bytes[run..<index])) }
            guard index < bytes.count else { throw fail() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return out.string
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw fail() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800, scalar < 0xDC00, index + 6 <= bytes.count,
                        bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let saved = index
                        index += 2
                        let low = try hex4()
                        if low >= 0xDC00, low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = saved
                        }
                    }
                    appendUTF8(scalar, to: &out)
                default: throw fail()
                }
            case 0..<0x20:
                throw fail()
            default:
                out.append(byte)
            }
        }
    }

    /// `scalar` as UTF-8; a lone surrogate becomes U+FFFD.
    func appendUTF8(_ scalar: UInt32, to out: inout ByteWriter) {
        let value = (scalar >= 0xD800 && scalar < 0xE000) ? 0xFFFD : scalar
        switch value {
        case 0..<0x80: out.append(UInt8(value))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | value >> 6))
            out.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | value >> 12))
            out.append(UInt8(0x80 | value >> 6 & 0x3F))
            out.append(UInt8(0x80 | value & 0x3F))
        default:
            out.append(UInt8(0xF0 | value >> 18))
            out.append(UInt8(0x80 | value >> 12 & 0x3F))
            out.append(UInt8(0x80 | value >> 6 & 0x3F))
            out.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
