/// Removes what an image says about where, when and with what it was made, keeping its pixels
/// exactly: nothing is decoded or re-encoded. Each format's parts are copied as they are, and
/// only those a viewer needs to show the pixels as meant are kept (an allowlist, so a kind of
/// metadata nobody listed is dropped too); whatever follows the image's end is dropped.
///
/// The output is deterministic and stripping it again gives the same bytes.
package enum MetadataStripper {
    /// `bytes` without their metadata.
    /// - Parameters:
    ///   - bytes: an image that `ImageInspector` read as `format`.
    ///   - format: its format.
    /// - Throws: `ImageParseError` when the bytes cannot be cut into the format's parts, or hold
    ///   a part no browser could show (an unknown critical PNG chunk).
    package static func strip(_ bytes: [UInt8], format: ImageFormat) throws(ImageParseError) -> [UInt8] {
        switch format {
        case .png, .apng: try strippedPNG(bytes)
        case .gif: try strippedGIF(bytes)
        case .jpeg: try strippedJPEG(bytes)
        case .webp: try strippedWebP(bytes)
        }
    }
}
