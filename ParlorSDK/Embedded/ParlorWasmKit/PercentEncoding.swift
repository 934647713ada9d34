/// Percent-encoding (RFC 3986) for URLs as written: every byte but the unreserved characters.
public enum PercentEncoding {
    /// `text` with every byte but `A–Z a–z 0–9 - . _ ~` written as `%XX`.
    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        encode(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` percent-encoded to `out`.
    static func encode(_ text: String, to out: inout [UInt8]) {
        withBytes(of: text) { bytes in
            out.reserveCapacity(out.count + bytes.count)
            for byte in bytes {
                if isUnreserved(byte) {
                    out.append(byte)
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0x0F))
                }
            }
        }
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
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<index]))
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
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
public struct QueryItems {
    public private(set) var items: [(name: String, value: String)] = []

    public init() {}

    /// Reads the items of `url`, which must be `base` followed by `?`.
    /// - Throws: `malformedURLState` for another address, or an item that is not `name=value`.
    public init(url: String, base: String) throws(AppError) {
        let read: Result<[(name: String, value: String)], AppError> = withBytes(of: url) { bytes in
            // `base?` begins the address.
            let begins: Bool = withBytes(of: base) { prefix in
                guard bytes.count > prefix.count, bytes[prefix.count] == UInt8(ascii: "?") else { return false }
                for index in 0..<prefix.count where bytes[index] != prefix[index] { return false }
                return true
            }
            guard begins else { return .failure(AppError(.malformedURLState, "This message's address is not this app's.")) }
            var items: [(name: String, value: String)] = []
            var start = base.utf8.count + 1
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
                var equals = start
                while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                guard equals < end,
                    let name = PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[start..<equals])),
                    let value = PercentEncoding.decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]))
                else {
                    return .failure(AppError(.malformedURLState, "This message's address holds an item that is not name=value."))
                }
                items.append((name, value))
                start = end + 1
            }
            return .success(items)
        }
        items = try read.get()
    }

    public mutating func append(_ name: String, _ value: String) { items.append((name, value)) }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        for item in items where same(item.name, name) { return item.value }
        return nil
    }

    /// The first value of `name`.
    /// - Throws: `malformedURLState` when there is none.
    public func require(_ name: String) throws(AppError) -> String {
        guard let value = self[name] else { throw AppError(.malformedURLState, "This message's address has no '\(name)'.") }
        return value
    }

    /// `base?name=value&…`.
    public func url(base: String) -> String {
        var url: [UInt8] = []
        withBytes(of: base) { url.append(contentsOf: $0) }
        for (index, item) in items.enumerated() {
            url.append(index == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            PercentEncoding.encode(item.name, to: &url)
            url.append(UInt8(ascii: "="))
            PercentEncoding.encode(item.value, to: &url)
        }
        return String(decoding: url, as: UTF8.self)
    }
}
