import Foundation

/// Decodes `Decodable` values from JSON through a flat list of the document's tokens, looking
/// an object's members up by a scan of its few keys.
///
/// Foundation's `JSONDecoder` builds a dictionary of every object's members before the value's
/// `init(from:)` reads one of them; with the frames' many small objects that was most of an app
/// runner's time (`bench/README.md`, scenario 7). This decoder is strict: whatever it is not sure
/// to read exactly as Foundation would (a number with a fraction read as an integer, a duplicate
/// key, a `Decimal`, a super decoder, any error at all) makes it hand the whole document to
/// Foundation's `JSONDecoder`, whose value or error is then the answer. So a value decoded here is
/// the value Foundation would give, and every error is Foundation's, with its coding path. That
/// holds for what is read inside the `decode` call: a container kept past it still reads its
/// document, but its errors are the tape's own, so a type reads all it needs in `init(from:)`.
@_spi(Hosting)
public struct CompactJSONDecoder: Sendable {
    public var dates: CompactJSONEncoder.DateStrategy

    /// Foundation's defaults (`JSONDecoder()`): dates as seconds since 2001-01-01.
    public init(dates: CompactJSONEncoder.DateStrategy = .secondsSinceReferenceDate) {
        self.dates = dates
    }

    /// The JSON of every frame and API body: ISO 8601 dates.
    public static let wire = CompactJSONDecoder(dates: .iso8601)

    /// Decodes `type` from `data`.
    /// - Throws: the `DecodingError` Foundation's `JSONDecoder` throws for the same input.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let tape = JSONTape(data) {
            do {
                let value = try TapeDecoder(tape: tape, index: 0, dates: dates).decodeValue(T.self)
                if !tape.isUnsure { return value }
            } catch {
                // Foundation's decoder gives the error, with its coding path.
            }
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dates == .iso8601 ? .iso8601 : .deferredToDate
        return try decoder.decode(type, from: data)
    }

    /// Decodes `type` from JSON text.
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: Data(text.utf8))
    }
}

/// The `Decoder` for one token of the tape.
private final class TapeDecoder: Decoder {
    let tape: JSONTape
    let index: Int
    let dates: CompactJSONEncoder.DateStrategy

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(tape: JSONTape, index: Int, dates: CompactJSONEncoder.DateStrategy) {
        self.tape = tape
        self.index = index
        self.dates = dates
    }

    var token: JSONTape.Token { tape.tokens[index] }

    /// The most members an object read here may have: a member is found by a scan of the
    /// object's keys (and a key present twice is looked for on every read), which costs the square
    /// of its size; a larger object goes to Foundation's decoder, whose dictionary does not.
    static let maxScannedMembers = 64

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard token.kind == .object else { throw LeftToFoundation() }
        guard token.count <= Self.maxScannedMembers else { throw tape.unsure() }
        return KeyedDecodingContainer(TapeKeyed<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard token.kind == .array else { throw LeftToFoundation() }
        return TapeUnkeyed(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValue(decoder: self)
    }

    /// A decoder for the token at `index`.
    func child(_ index: Int) -> TapeDecoder {
        TapeDecoder(tape: tape, index: index, dates: dates)
    }

    // MARK: Values

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self, let string = try decodeString() as? T { return string }
        if T.self == Int.self, let int = try decodeInteger(Int.self) as? T { return int }
        if T.self == Bool.self, let bool = try decodeBool() as? T { return bool }
        if T.self == Double.self, let double = try decodeDouble() as? T { return double }
        if T.self == Date.self, let date = try decodeDate() as? T { return date }
        if T.self == URL.self, let url = try decodeURL() as? T { return url }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try decodeString()) as? T else { throw tape.unsure() }
            return data
        }
        if T.self == Decimal.self { throw tape.unsure() }
        return try T(from: self)
    }

    func decodeString() throws -> String {
        let token = token
        guard token.kind == .string || token.kind == .escapedString else { throw LeftToFoundation() }
        guard let string = tape.string(token) else { throw tape.unsure() }
        return string
    }

    func decodeBool() throws -> Bool {
        switch token.kind {
        case .true: return true
        case .false: return false
        default: throw LeftToFoundation()
        }
    }

    var isNull: Bool { token.kind == .null }

    /// An integer written as one (no fraction, no exponent) that fits; anything else is left to
    /// Foundation, whose rules for `1.0` or `1e2` as an integer are its own.
    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let token = token
        if token.kind == .number { throw tape.unsure() }
        guard token.kind == .integer else { throw LeftToFoundation() }
        let digits = tape.slice(token)
        var value: I = 0
        let negative = digits.first == UInt8(ascii: "-")
        for byte in digits.dropFirst(negative ? 1 : 0) {
            let digit = I(byte - UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { throw tape.unsure() }
            value = next
        }
        return value
    }

    func decodeDouble() throws -> Double {
        let token = token
        guard token.kind == .integer || token.kind == .number else { throw LeftToFoundation() }
        guard let value = Double(String(decoding: tape.slice(token), as: UTF8.self)), value.isFinite else { throw tape.unsure() }
        return value
    }

    func decodeFloat() throws -> Float {
        let double = try decodeDouble()
        let float = Float(double)
        guard float.isFinite else { throw tape.unsure() }
        return float
    }

    func decodeDate() throws -> Date {
        switch dates {
        case .secondsSinceReferenceDate: return Date(timeIntervalSinceReferenceDate: try decodeDouble())
        case .iso8601:
            let text = try decodeString()
            guard let date = try? Date(text, strategy: .iso8601) else { throw tape.unsure() }
            return date
        }
    }

    func decodeURL() throws -> URL {
        guard let url = URL(string: try decodeString()) else { throw tape.unsure() }
        return url
    }
}

private struct TapeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { [] }

    /// The index of `key`'s value; a key present twice is left to Foundation.
    private func valueIndex(_ key: Key) throws -> Int? {
        let tape = decoder.tape
        let name = key.stringValue
        var found: Int?
        var at = decoder.index + 1
        let end = Int(tape.tokens[decoder.index].next)
        while at < end {
            let keyToken = tape.tokens[at]
            if tape.key(keyToken, is: name) {
                guard found == nil else { throw tape.unsure() }
                found = at + 1
            }
            at = Int(tape.tokens[at + 1].next)
        }
        return found
    }

    private func child(_ key: Key) throws -> TapeDecoder {
        guard let index = try valueIndex(key) else { throw LeftToFoundation() }
        return decoder.child(index)
    }

    var allKeys: [Key] {
        let tape = decoder.tape
        var keys: [Key] = []
        var at = decoder.index + 1
        let end = Int(tape.tokens[decoder.index].next)
        while at < end {
            if let name = tape.string(tape.tokens[at]), let key = Key(stringValue: name) { keys.append(key) }
            at = Int(tape.tokens[at + 1].next)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { (try? valueIndex(key)).flatMap { $0 } != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decodeBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decodeString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decodeDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decodeFloat() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decodeInteger(Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(T.self) }

    /// A member that is absent or null is nil, as in Foundation's decoder.
    private func present(_ key: Key) throws -> TapeDecoder? {
        guard let index = try valueIndex(key) else { return nil }
        let child = decoder.child(index)
        return child.isNull ? nil : child
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key)?.decodeBool() }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key)?.decodeString() }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key)?.decodeDouble() }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key)?.decodeInteger(Int.self) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key)?.decodeInteger(Int64.self) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(key)?.decodeValue(T.self) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { throw decoder.tape.unsure() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.tape.unsure() }
}

private struct TapeUnkeyed: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let end: Int
    private var at: Int
    private(set) var currentIndex = 0
    let count: Int?
    var codingPath: [any CodingKey] { [] }
    var isAtEnd: Bool { at >= end }

    init(decoder: TapeDecoder) {
        self.decoder = decoder
        let token = decoder.token
        end = Int(token.next)
        at = decoder.index + 1
        count = Int(token.count)
    }

    /// The next element's decoder, moving past it.
    private mutating func next() throws -> TapeDecoder {
        guard at < end else { throw LeftToFoundation() }
        let child = decoder.child(at)
        at = Int(decoder.tape.tokens[at].next)
        currentIndex += 1
        return child
    }

    mutating func decodeNil() throws -> Bool {
        guard at < end else { throw LeftToFoundation() }
        guard decoder.tape.tokens[at].kind == .null else { return false }
        _ = try next()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decodeBool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().decodeString() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decodeDouble() }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decodeFloat() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decodeInteger(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decodeInteger(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decodeInteger(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decodeInteger(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decodeInteger(Int64.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decodeInteger(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decodeInteger(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decodeInteger(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decodeInteger(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decodeInteger(UInt64.self) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { throw decoder.tape.unsure() }
}

private struct TapeSingleValue: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { decoder.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloat() }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
}
