/// One range of a `Range: bytes=…` request header (RFC 9110 §14.1.2), resolved against a
/// resource's length: media players (Safari's above all) fetch recordings by ranges. A header
/// with several ranges, or one that is not a byte range, is ignored (the whole resource is sent,
/// as §14.2 allows).
struct ByteRange: Equatable, Sendable {
    /// The first and last byte sent, inclusive.
    let first: Int
    let last: Int

    /// What `header` asks of a resource of `length` bytes.
    enum Request: Equatable {
        /// Send everything (no header, or one this server ignores).
        case whole
        case part(ByteRange)
        /// No byte of the range exists: 416 with `bytes */length`.
        case unsatisfiable
    }

    static func request(_ header: String?, length: Int) -> Request {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit) else { return .whole }
        if parts[0].isEmpty {
            // A suffix: the last N bytes.
            guard let count = Int(parts[1]) else { return .whole }
            guard count > 0, length > 0 else { return .unsatisfiable }
            return .part(ByteRange(first: max(0, length - count), last: length - 1))
        }
        guard let first = Int(parts[0]) else { return .whole }
        guard first < length else { return .unsatisfiable }
        let last = parts[1].isEmpty ? length - 1 : min(Int(parts[1]) ?? length - 1, length - 1)
        guard last >= first else { return .whole }
        return .part(ByteRange(first: first, last: last))
    }

    /// The `Content-Range` value for it, of a resource of `length` bytes.
    func contentRange(of length: Int) -> String { "bytes \(first)-\(last)/\(length)" }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
