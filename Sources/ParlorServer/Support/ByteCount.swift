import Foundation

/// A size as a sentence says it to people: "820 bytes", "14 KB", "10.5 MB", in decimal units and
/// the same steps as the browser's `formatSize` (attachments.js), so a limit in an error reads
/// like the sizes the page shows beside files.
enum ByteCount {
    /// `bytes` rounded to the nearest step, as the page shows a file's size.
    static func text(_ bytes: Int) -> String { text(bytes, rounding: .toNearestOrAwayFromZero) }

    /// A limit, rounded down: "at most 10.4 MB" never promises a byte more than is allowed.
    static func limit(_ bytes: Int) -> String { text(bytes, rounding: .down) }

    private static func text(_ bytes: Int, rounding: FloatingPointRoundingRule) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\(Int((Double(bytes) / 1000).rounded(rounding))) KB" }
        let tenths = (Double(bytes) / 100_000).rounded(rounding)
        return String(format: "%.1f MB", tenths / 10)
    }
}
