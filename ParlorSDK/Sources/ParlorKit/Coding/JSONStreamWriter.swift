import Foundation

/// The buffer the containers of one `CompactJSONEncoder.encode` write to, and the stack of the
/// containers still open (innermost last).
final class JSONStreamWriter {
    /// Thrown when a value uses containers in a way a stream cannot follow; the caller then
    /// encodes it with Foundation's encoder.
    struct NotStreamable: Error {}

    struct Open {
        let serial: Int
        let closer: UInt8
        var isEmpty = true
    }

    // One writer serves one `encode` call on one thread: the run-time exclusivity checks of a
    // class's stored properties (a quarter of the time, measured) guard nothing here.
    @exclusivity(unchecked) private(set) var output: [UInt8] = []
    @exclusivity(unchecked) private var open: [Open] = []
    @exclusivity(unchecked) private var nextSerial = 0
    let dates: CompactJSONEncoder.DateStrategy
    let escapesSlashes: Bool
    let sortsDictionaryKeys: Bool

    init(dates: CompactJSONEncoder.DateStrategy, escapesSlashes: Bool, sortsDictionaryKeys: Bool) {
        self.dates = dates
        self.escapesSlashes = escapesSlashes
        self.sortsDictionaryKeys = sortsDictionaryKeys
        output.reserveCapacity(512)
    }

    // MARK: Containers

    /// Opens a container at `depth` (the stack's height once it is open, less one).
    func openContainer(_ opener: UInt8, closer: UInt8, depth: Int) throws(NotStreamable) -> Int {
        guard open.count == depth else { throw unstreamable() }
        output.append(opener)
        nextSerial += 1
        open.append(Open(serial: nextSerial, closer: closer))
        return nextSerial
    }

    /// Makes the container `serial` at `depth` the innermost one (closing those opened inside
    /// it) and writes the comma before its next element.
    func beginElement(depth: Int, serial: Int) throws(NotStreamable) {
        closeAbove(depth)
        guard open.count == depth + 1, open[depth].serial == serial else { throw unstreamable() }
        if open[depth].isEmpty {
            open[depth].isEmpty = false
        } else {
            output.append(UInt8(ascii: ","))
        }
    }

    /// Closes every container deeper than `depth`.
    func closeAbove(_ depth: Int) {
        while open.count > depth + 1, let last = open.popLast() {
            output.append(last.closer)
        }
    }

    func closeAll() {
        while let last = open.popLast() {
            output.append(last.closer)
        }
    }

    /// Writes `"key":`.
    func writeKey(_ key: String) {
        writeString(key)
        output.append(UInt8(ascii: ":"))
    }

    // MARK: Values

    /// Set when a value used its containers in a way the stream cannot follow, even if the value
    /// caught the error itself: the output is then thrown away.
    @exclusivity(unchecked) var isBroken = false

    /// Writes any value whose container (or single value) goes at `depth`.
    func writeValue<T: Encodable>(_ value: T, depth: Int) throws {
        if try writePrimitive(value) { return }
        if sortsDictionaryKeys, let dictionary = value as? any KeyedDictionary {
            try writeObject(dictionary.entriesInKeyOrder(), depth: depth)
            return
        }
        let encoder = JSONStreamEncoder(writer: self, depth: depth)
        let before = output.count
        try value.encode(to: encoder)
        if output.count == before {
            // A value that encodes nothing is an empty object, as with Foundation's encoder.
            output.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        }
        closeAbove(depth - 1)
    }

    /// Writes a dictionary's entries as one object, in the order given.
    private func writeObject(_ entries: [(key: String, value: any Encodable)], depth: Int) throws {
        closeAbove(depth - 1)
        let serial = try openContainer(UInt8(ascii: "{"), closer: UInt8(ascii: "}"), depth: depth)
        for entry in entries {
            try beginElement(depth: depth, serial: serial)
            writeKey(entry.key)
            try writeValue(entry.value, depth: depth + 1)
        }
        closeAbove(depth - 1)
    }

    /// Writes the values JSON has its own form for (and those Foundation's encoder writes its own
    /// way); false when `value` is none of them. Types are compared before any cast: a dynamic
    /// cast costs far more than the comparison of two metadata pointers.
    private func writePrimitive<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == String.self, let string = value as? String {
            writeString(string)
        } else if T.self == Int.self, let int = value as? Int {
            writeInteger(int)
        } else if T.self == Bool.self, let bool = value as? Bool {
            writeBool(bool)
        } else if T.self == Double.self, let double = value as? Double {
            try writeDouble(double)
        } else if T.self == Date.self, let date = value as? Date {
            try writeDate(date)
        } else if T.self == URL.self, let url = value as? URL {
            writeString(url.absoluteString)
        } else if T.self == Data.self, let data = value as? Data {
            writeString(data.base64EncodedString())
        } else if T.self == Decimal.self {
            throw unstreamable()
        } else {
            return false
        }
        return true
    }

    /// Marks the output broken and returns the error that says so.
    func unstreamable() -> NotStreamable {
        isBroken = true
        return NotStreamable()
    }

    /// Writes JSON already written by an encoder with this writer's settings (`EncodedJSON`).
    func writeEncoded(_ bytes: [UInt8]) {
        output.append(contentsOf: bytes)
    }

    func writeNull() {
        output.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    func writeBool(_ value: Bool) {
        if value {
            output.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            output.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
    }

    func writeInteger<I: FixedWidthInteger>(_ value: I) {
        if value == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { output.append(UInt8(ascii: "-")) }
        let start = output.count
        while magnitude > 0 {
            output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        }
        output[start...].reverse()
    }

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        writeNumberText(value.description)
    }

    func writeFloat(_ value: Float) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        writeNumberText(value.description)
    }

    /// A number as Swift prints it, without a trailing `.0` (as Foundation writes it).
    private func writeNumberText(_ text: String) {
        var text = text
        if text.hasSuffix(".0") { text.removeLast(2) }
        output.append(contentsOf: text.utf8)
    }

    func writeDate(_ date: Date) throws {
        switch dates {
        case .secondsSinceReferenceDate: try writeDouble(date.timeIntervalSinceReferenceDate)
        case .iso8601: writeString(date.formatted(.iso8601))
        }
    }

    func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var plainFrom = 0
            let slashes = escapesSlashes
            for index in bytes.indices {
                let byte = bytes[index]
                // Most bytes need nothing: a few comparisons rather than the switch below.
                if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "/") || !slashes {
                    continue
                }
                let escape: UInt8  // 0: written as \u00XX
                switch byte {
                case UInt8(ascii: "\""): escape = UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
                case UInt8(ascii: "/"): escape = UInt8(ascii: "/")
                case 0x0A: escape = UInt8(ascii: "n")
                case 0x0D: escape = UInt8(ascii: "r")
                case 0x09: escape = UInt8(ascii: "t")
                case 0x08: escape = UInt8(ascii: "b")
                case 0x0C: escape = UInt8(ascii: "f")
                case 0x00..<0x20: escape = 0
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<index]))
                plainFrom = index + 1
                output.append(UInt8(ascii: "\\"))
                if escape != 0 {
                    output.append(escape)
                } else {
                    output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    output.append(Self.hexDigits[Int(byte >> 4)])
                    output.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// A dictionary that `Codable` writes as an object, its keys strings or integers
/// (`CompactJSONEncoder.sortsDictionaryKeys`).
protocol KeyedDictionary {
    /// The entries with their keys as written, in key order.
    func entriesInKeyOrder() -> [(key: String, value: any Encodable)]
}

extension Dictionary: KeyedDictionary where Key: CodingKeyRepresentable, Value: Encodable {
    func entriesInKeyOrder() -> [(key: String, value: any Encodable)] {
        map { (key: $0.key.codingKey.stringValue, value: $0.value as any Encodable) }.sorted { $0.key < $1.key }
    }
}
