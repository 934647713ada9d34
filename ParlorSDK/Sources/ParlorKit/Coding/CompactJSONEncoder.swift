import Foundation

/// Encodes `Encodable` values as compact JSON, writing each value straight into one byte buffer.
///
/// Foundation's `JSONEncoder` first builds a tree of every object (a dictionary per object, boxed
/// values) and then writes it out; on the hot paths (every frame to a browser or an app, every
/// stored record) that tree was a fifth of the server's time and most of an app runner's encoding
/// (`bench/README.md`, scenario 7). This encoder writes as the value's `encode(to:)` runs, so an
/// object costs its bytes and nothing more. The JSON is the same value Foundation's encoder gives
/// for the same options (keys in the order they are encoded, not sorted): numbers as Swift prints
/// them, `Data` in Base64, a `URL` as its absolute string, a `Date` as the chosen strategy says.
///
/// Streaming needs containers used the way synthesized and hand-written `Codable` code uses them:
/// one at a time, innermost first. A value that writes to a container after a sibling of it was
/// opened, asks for a super encoder, or encodes a `Decimal`, is encoded by Foundation's
/// `JSONEncoder` instead, so the result is always correct; only the speed differs.
@_spi(Hosting)
public struct CompactJSONEncoder: Sendable {
    /// How a `Date` is written.
    public enum DateStrategy: Sendable {
        /// Seconds since 2001-01-01 as a number, Foundation's default (`deferredToDate`).
        case secondsSinceReferenceDate
        /// An ISO 8601 string such as `2026-12-02T00:55:00Z` (Foundation's `.iso8601`).
        case iso8601
    }

    public var dates: DateStrategy
    /// Whether `/` is written as `\/`, as Foundation does unless told `.withoutEscapingSlashes`.
    public var escapesSlashes: Bool
    /// Whether a dictionary's entries are written in the order of their keys, so that equal values
    /// always give the same bytes (a dictionary's own order differs between equal ones). The
    /// members of other objects come in the order their `encode(to:)` writes them, which is the
    /// same every time; Foundation's `.sortedKeys` sorts those too, which a stream cannot.
    public var sortsDictionaryKeys: Bool

    /// Foundation's defaults (`JSONEncoder()`): dates as numbers, slashes escaped. Stored records
    /// use it.
    public init(dates: DateStrategy = .secondsSinceReferenceDate, escapesSlashes: Bool = true, sortsDictionaryKeys: Bool = false) {
        self.dates = dates
        self.escapesSlashes = escapesSlashes
        self.sortsDictionaryKeys = sortsDictionaryKeys
    }

    /// The JSON of every frame (to browsers and apps) and every HTTP API body: ISO 8601 dates,
    /// slashes as they are.
    public static let wire = CompactJSONEncoder(dates: .iso8601, escapesSlashes: false)

    /// The JSON of `value`, as bytes.
    /// - Throws: `EncodingError.invalidValue` for a number JSON cannot hold (NaN, infinity), as
    ///   Foundation's encoder does, or whatever the value's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try bytes(of: value))
    }

    /// The JSON of `value`, as text.
    public func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try bytes(of: value), as: UTF8.self)
    }

    func bytes<T: Encodable>(of value: T) throws -> [UInt8] {
        let writer = JSONStreamWriter(dates: dates, escapesSlashes: escapesSlashes, sortsDictionaryKeys: sortsDictionaryKeys)
        do {
            try writer.writeValue(value, depth: 0)
            writer.closeAll()
            if !writer.isBroken { return writer.output }
        } catch where writer.isBroken {
            // Encoded again below, the way Foundation does it.
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = dates == .iso8601 ? .iso8601 : .deferredToDate
        encoder.outputFormatting = escapesSlashes ? [] : [.withoutEscapingSlashes]
        if sortsDictionaryKeys { encoder.outputFormatting.insert(.sortedKeys) }
        return Array(try encoder.encode(value))
    }
}

/// The `Encoder` a value's `encode(to:)` is given: its container goes at `depth`.
final class JSONStreamEncoder: Encoder {
    let writer: JSONStreamWriter
    let depth: Int
    /// The container this encoder opened (a second request returns the same one, as `Codable` allows).
    @exclusivity(unchecked) private var opened: (serial: Int, isKeyed: Bool)?
    @exclusivity(unchecked) private var wroteSingleValue = false

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(writer: JSONStreamWriter, depth: Int) {
        self.writer = writer
        self.depth = depth
    }

    private func open(keyed: Bool) throws(JSONStreamWriter.NotStreamable) -> Int {
        if let opened {
            guard opened.isKeyed == keyed else { throw writer.unstreamable() }
            return opened.serial
        }
        guard !wroteSingleValue else { throw writer.unstreamable() }
        writer.closeAbove(depth - 1)
        let serial = try writer.openContainer(
            keyed ? UInt8(ascii: "{") : UInt8(ascii: "["), closer: keyed ? UInt8(ascii: "}") : UInt8(ascii: "]"), depth: depth)
        opened = (serial, keyed)
        return serial
    }

    /// What `superEncoder()` returns: the stream cannot place what is encoded through it, so the
    /// value is marked for Foundation's encoder and the encoder's containers refuse every write.
    static func unstreamable(_ writer: JSONStreamWriter) -> JSONStreamEncoder {
        _ = writer.unstreamable()
        let encoder = JSONStreamEncoder(writer: writer, depth: Int.max)
        encoder.wroteSingleValue = true
        return encoder
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        do {
            return KeyedEncodingContainer(KeyedStream<Key>(writer: writer, depth: depth, serial: try open(keyed: true)))
        } catch {
            return KeyedEncodingContainer(KeyedStream<Key>(writer: writer, depth: depth, serial: -1))
        }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        do {
            return UnkeyedStream(writer: writer, depth: depth, serial: try open(keyed: false))
        } catch {
            return UnkeyedStream(writer: writer, depth: depth, serial: -1)
        }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueStream(encoder: self)
    }

    /// Called before a single value is written: at most one, and not beside a container.
    func beginSingleValue() throws(JSONStreamWriter.NotStreamable) {
        guard opened == nil, !wroteSingleValue else { throw writer.unstreamable() }
        wroteSingleValue = true
    }
}

private struct KeyedStream<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    let depth: Int
    let serial: Int
    var codingPath: [any CodingKey] { [] }

    private func begin(_ key: Key) throws {
        try writer.beginElement(depth: depth, serial: serial)
        writer.writeKey(key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        writer.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key)
        writer.writeBool(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        writer.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key)
        try writer.writeDouble(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key)
        try writer.writeFloat(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try begin(key)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try begin(key); writer.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try writer.writeValue(value, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        do {
            try begin(key)
            let nested = try writer.openContainer(UInt8(ascii: "{"), closer: UInt8(ascii: "}"), depth: depth + 1)
            return KeyedEncodingContainer(KeyedStream<NestedKey>(writer: writer, depth: depth + 1, serial: nested))
        } catch {
            return KeyedEncodingContainer(KeyedStream<NestedKey>(writer: writer, depth: depth + 1, serial: -1))
        }
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        do {
            try begin(key)
            let nested = try writer.openContainer(UInt8(ascii: "["), closer: UInt8(ascii: "]"), depth: depth + 1)
            return UnkeyedStream(writer: writer, depth: depth + 1, serial: nested)
        } catch {
            return UnkeyedStream(writer: writer, depth: depth + 1, serial: -1)
        }
    }

    mutating func superEncoder() -> any Encoder { JSONStreamEncoder.unstreamable(writer) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { JSONStreamEncoder.unstreamable(writer) }
}

private struct UnkeyedStream: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    let depth: Int
    let serial: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(writer: JSONStreamWriter, depth: Int, serial: Int) {
        self.writer = writer
        self.depth = depth
        self.serial = serial
    }

    private mutating func begin() throws {
        try writer.beginElement(depth: depth, serial: serial)
        count += 1
    }

    mutating func encodeNil() throws {
        try begin()
        writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws { try begin(); writer.writeBool(value) }
    mutating func encode(_ value: String) throws { try begin(); writer.writeString(value) }
    mutating func encode(_ value: Double) throws { try begin(); try writer.writeDouble(value) }
    mutating func encode(_ value: Float) throws { try begin(); try writer.writeFloat(value) }
    mutating func encode(_ value: Int) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try begin(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try begin(); writer.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        try writer.writeValue(value, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        do {
            try begin()
            let nested = try writer.openContainer(UInt8(ascii: "{"), closer: UInt8(ascii: "}"), depth: depth + 1)
            return KeyedEncodingContainer(KeyedStream<NestedKey>(writer: writer, depth: depth + 1, serial: nested))
        } catch {
            return KeyedEncodingContainer(KeyedStream<NestedKey>(writer: writer, depth: depth + 1, serial: -1))
        }
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        do {
            try begin()
            let nested = try writer.openContainer(UInt8(ascii: "["), closer: UInt8(ascii: "]"), depth: depth + 1)
            return UnkeyedStream(writer: writer, depth: depth + 1, serial: nested)
        } catch {
            return UnkeyedStream(writer: writer, depth: depth + 1, serial: -1)
        }
    }

    mutating func superEncoder() -> any Encoder { JSONStreamEncoder.unstreamable(writer) }
}

private struct SingleValueStream: SingleValueEncodingContainer {
    let encoder: JSONStreamEncoder
    var codingPath: [any CodingKey] { [] }
    private var writer: JSONStreamWriter { encoder.writer }

    init(encoder: JSONStreamEncoder) {
        self.encoder = encoder
    }

    mutating func encodeNil() throws { try encoder.beginSingleValue(); writer.writeNull() }
    mutating func encode(_ value: Bool) throws { try encoder.beginSingleValue(); writer.writeBool(value) }
    mutating func encode(_ value: String) throws { try encoder.beginSingleValue(); writer.writeString(value) }
    mutating func encode(_ value: Double) throws { try encoder.beginSingleValue(); try writer.writeDouble(value) }
    mutating func encode(_ value: Float) throws { try encoder.beginSingleValue(); try writer.writeFloat(value) }
    mutating func encode(_ value: Int) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encoder.beginSingleValue(); writer.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.beginSingleValue()
        try writer.writeValue(value, depth: encoder.depth)
    }
}

