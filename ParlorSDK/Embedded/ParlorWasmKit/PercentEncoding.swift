/// Percent-encoding (RFC 3986) for URLs as written: every byte but the unreserved characters.
public enum PercentEncoding {
    /// `text` with every byte but `A–Z a–z 0–9 - . _ ~` written as `%XX`.
    public static func encode(_ text: String) -> String {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        withBytes(of: text) { bytes in
            out.reserveCapacity(bytes.count)
            for byte in bytes {
                if isUnreserved(byte) {
                    out.append(byte)
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0x0F)])
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` with each `%XX` read back; nil for a `%` not followed by two hex digits.
    public static func decode(_ text: String) -> String? {
        var out: [UInt8] = []
        let bytes = utf8Bytes(of: text)
        var index = 0
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
        let prefix = utf8Bytes(of: base + "?")
        let bytes = utf8Bytes(of: url)
        guard bytes.count >= prefix.count, bytes[0..<prefix.count].elementsEqual(prefix) else {
            throw AppError(.malformedURLState, "This message's address is not this app's.")
        }
        var start = prefix.count
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            let item = bytes[start..<end]
            guard let equals = item.firstIndex(of: UInt8(ascii: "=")),
                let name = PercentEncoding.decode(String(decoding: bytes[start..<equals], as: UTF8.self)),
                let value = PercentEncoding.decode(String(decoding: bytes[(equals + 1)..<end], as: UTF8.self))
            else {
                throw AppError(.malformedURLState, "This message's address holds an item that is not name=value.")
            }
            items.append((name, value))
            start = end + 1
        }
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
        var url = base
        for (index, item) in items.enumerated() {
            url += index == 0 ? "?" : "&"
            url += PercentEncoding.encode(item.name) + "=" + PercentEncoding.encode(item.value)
        }
        return url
    }
}
