import Foundation

/// A size as a sentence says it to people: "820 bytes", "14 KB", "10.5 MB", in decimal units and
/// the same steps as the browser's `formatSize` (attachments.js), so a limit in an error reads
/// like the sizes the page shows beside files.
enum ByteCount {
    static func text(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\(Int((Double(bytes) / 1000).rounded())) KB" }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
