/// Why an image's bytes could not be read as the format they claim to be. Package-wide: callers
/// turn it into an error of their own that names the file (`ImageRefusal`, or the sticker
/// module's `MessagesError`).
package struct ImageParseError: Error, Sendable {
    /// Completes "its content …": what is wrong with the bytes, for a person.
    package let reason: String
    /// Whether the bytes are of a kind Parlor does not take at all (HEIC, SVG, text…), rather
    /// than a supported format that is damaged.
    package let isUnsupportedFormat: Bool

    /// An error completing "its content …" with `reason`.
    package init(_ reason: String, unsupportedFormat: Bool = false) {
        self.reason = reason
        self.isUnsupportedFormat = unsupportedFormat
    }

    /// The error for bytes that end before what `format` declares.
    package static func truncated(_ format: String) -> ImageParseError {
        ImageParseError("ends in the middle of its \(format) data (the file is truncated)")
    }
}
