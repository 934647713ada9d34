/// An image checked and cleaned by `UploadedImage.prepare`: the bytes to hash and store, and
/// what they hold.
public struct PreparedImage: Sendable, Hashable {
    /// The image without its metadata, pixels unchanged: what to hash and store.
    public var bytes: [UInt8]
    /// The format, size and frames of `bytes`; `byteCount` is `bytes.count`.
    public var info: ImageInfo

    /// Creates a prepared image; `UploadedImage.prepare` makes them.
    public init(bytes: [UInt8], info: ImageInfo) {
        self.bytes = bytes
        self.info = info
    }
}
