/// Percent-encoding (RFC 3986) for URLs as written: every byte but the unreserved characters.
public enum PercentEncoding {
    /// `text` with every byte but `A–Z a–z 0–9 - . _ ~` written as `%XX`.
    public static func encode(_ text: String) -> String {
        var out = ByteWriter()
        encode(text, to: &out)
        return out.string
    }

    /// Appends `text` percent-encoded to `out`, runs of unreserved bytes copied whole.
    static func encode(_ text: String, to out: inout ByteWriter) {
        withBytes(of: text) { bytes in
            guard let base = bytes.baseAddress else { return }
            let unreserved = unreservedTable.utf8Start
            var start = 0
            var index = 0
            while index < bytes.count {
                if unreserved[Int(base[index])] == UInt8(ascii: "1") {
                    index += 1
                    continue
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                appendEscaped(base[index], to: &out)
                index += 1
                start = index
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }
    }

    /// `1` at each byte that is written as itself (`A–Z a–z 0–9 - . _ ~`): one load a byte,
    /// where the comparisons cost the interpreter several operators.
    static let unreservedTable: StaticString = """
        0000000000000000000000000000000000000000000001101111111111000000\
        0111111111111111111111111110000101111111111111111111111111100010\
        0000000000000000000000000000000000000000000000000000000000000000\
        0000000000000000000000000000000000000000000000000000000000000000
        """

    /// `%XX`, out of the loop above so that its code is not in the loop's.
    @inline(never)
    static func appendEscaped(_ byte: UInt8, to out: inout ByteWriter) {
        out.append(UInt8(ascii: "%"))
        out.append(hexDigit(byte >> 4))
        out.append(hexDigit(byte & 0x0F))
    }

    /// The upper-case hex digit of `value` (0–15).
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// `text` with each `%XX` read back; nil for a `%` not followed by two hex digits.
    public static func decode(_ text: String) -> String? {
        withBytes(of: text) { decode($0) }
    }

    /// `bytes` with each `%XX` read back; nil for a `%` not followed by two hex digits. Bytes
    /// with no `%` (most names and values) become the string at once.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard var index = bytes.firstIndex(of: UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        var out = ByteWriter(capacity: bytes.count)
        out.append(UnsafeBufferPointer(rebasing: bytes[0..<index]))
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard let byte = escaped(bytes, at: index) else { return nil }
                out.append(byte)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out.string
    }

    /// The byte the `%` at `index` stands for; nil when two hex digits do not follow it.
    static func escaped(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt8? {
        guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
        return high << 4 | low
    }

    /// Whether every `%` in `bytes` is followed by two hex digits.
    static func isEncoded(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard escaped(bytes, at: index) != nil else { return false }
                index += 3
            } else {
                index += 1
            }
        }
        return true
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A message's state as query items on its URL, as ParlorKit's `QueryItems` writes them:
/// `https://example.org/app?name=value&…`, names and values percent-encoded.
///
/// The items are kept as the URL writes them, and an item's value is read only when asked for:
/// a lookup compares bytes, where comparing Swift `String`s costs Parlor's interpreter hundreds
/// of operators each.
public struct QueryItems {
    /// The query as written: `name=value&name=value`.
    private var query: [UInt8] = []
    /// Where an item's name and value are in `query`, and whether its name has a `%` escape.
    private typealias Span = (name: Range<Int>, value: Range<Int>, nameIsEncoded: Bool)
    private var spans: [Span] = []

    public init() {}

    /// Reads the items of `url`, which must be `base` followed by `?`.
    /// - Throws: `malformedURLState` for another address, or an item that is not `name=value`.
    public init(url: String, base: String) throws(AppError) {
        let read: Result<([UInt8], [Span]), AppError> = withBytes(of: url) { bytes in
            // `base?` begins the address.
            let begins: Bool = withBytes(of: base) { prefix in
                bytes.count > prefix.count && bytes[prefix.count] == UInt8(ascii: "?")
                    && memcmp(bytes.baseAddress, prefix.baseAddress, prefix.count) == 0
            }
            guard begins else { return .failure(AppError(.malformedURLState, "This message's address is not this app's.")) }
            let query = Array(UnsafeBufferPointer(rebasing: bytes[(base.utf8.count + 1)...]))
            var spans: [Span] = []
            let valid: Bool = query.withUnsafeBufferPointer { query in
                var start = 0
                while start <= query.count {
                    var end = start
                    while end < query.count, query[end] != UInt8(ascii: "&") { end += 1 }
                    var equals = start
                    while equals < end, query[equals] != UInt8(ascii: "=") { equals += 1 }
                    guard equals < end, PercentEncoding.isEncoded(UnsafeBufferPointer(rebasing: query[start..<end])) else { return false }
                    let encoded = UnsafeBufferPointer(rebasing: query[start..<equals]).contains(UInt8(ascii: "%"))
                    spans.append((start..<equals, (equals + 1)..<end, encoded))
                    start = end + 1
                }
                return true
            }
            guard valid else {
                return .failure(AppError(.malformedURLState, "This message's address holds an item that is not name=value."))
            }
            return .success((query, spans))
        }
        (query, spans) = try read.get()
    }

    /// Each item's name and value, percent-decoded, in the URL's order.
    public var items: [(name: String, value: String)] {
        spans.map { (text(at: $0.name), text(at: $0.value)) }
    }

    public mutating func append(_ name: String, _ value: String) {
        var item = ByteWriter()
        if !spans.isEmpty { item.append(UInt8(ascii: "&")) }
        let start = query.count + item.count
        PercentEncoding.encode(name, to: &item)
        let equals = query.count + item.count
        item.append(UInt8(ascii: "="))
        PercentEncoding.encode(value, to: &item)
        query.append(contentsOf: item.array)
        spans.append((start..<equals, (equals + 1)..<query.count, query[start..<equals].contains(UInt8(ascii: "%"))))
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        let found: Int? = withBytes(of: name) { key in
            query.withUnsafeBufferPointer { query in
                for (index, span) in spans.enumerated() {
                    if !span.nameIsEncoded {
                        if span.name.count == key.count, memcmp(query.baseAddress.map { $0 + span.name.lowerBound }, key.baseAddress, key.count) == 0 {
                            return index
                        }
                    } else if let decoded = PercentEncoding.decode(UnsafeBufferPointer(rebasing: query[span.name])), same(decoded, name) {
                        return index
                    }
                }
                return nil
            }
        }
        return found.map { text(at: spans[$0].value) }
    }

    /// The first value of `name`.
    /// - Throws: `malformedURLState` when there is none.
    public func require(_ name: String) throws(AppError) -> String {
        guard let value = self[name] else { throw AppError(.malformedURLState, "This message's address has no '\(name)'.") }
        return value
    }

    /// `base?name=value&…`. Items read from a URL are written as that URL wrote them (`%7e` stays
    /// `%7e`); items appended are percent-encoded as ParlorKit encodes them.
    public func url(base: String) -> String {
        var url = ByteWriter(capacity: base.utf8.count + 1 + query.count)
        url.append(base)
        if !spans.isEmpty {
            url.append(UInt8(ascii: "?"))
            query.withUnsafeBufferPointer { url.append($0) }
        }
        return url.string
    }

    /// The decoded text of `range` of the query (checked when it was read).
    private func text(at range: Range<Int>) -> String {
        query.withUnsafeBufferPointer { PercentEncoding.decode(UnsafeBufferPointer(rebasing: $0[range])) } ?? ""
    }
}
