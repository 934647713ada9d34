/// The one place where an image from outside (a photo sent in a conversation, an avatar, a
/// group photo, an image fetched through the image proxy) is checked and cleaned before the
/// server hashes and stores it, so that a photo does not tell where, when or with what it was
/// taken.
///
/// ```swift
/// let prepared = try UploadedImage.prepare(Array(body))
/// let key = SHA256.hash(data: prepared.bytes)
/// try await store.put(prepared.bytes, key: key, type: prepared.info.format.mimeType)
/// ```
///
/// Never traps, whatever the bytes: every declared length is checked before it is used.
public enum UploadedImage {
    /// Checks and cleans an image: finds its format by content (never by a name or a declared
    /// type), reads its size from its headers, checks it against `budget` without decoding it,
    /// and removes its metadata (`MetadataStripper`: Exif but its orientation, XMP, IPTC,
    /// comments, text chunks, trailers) while keeping the compressed pixels byte for byte.
    ///
    /// The result is deterministic, and preparing it again gives the same bytes.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - budget: the size limits; the defaults suit photos.
    /// - Returns: the bytes to hash and store, with their format, size and frames.
    /// - Throws: `ImageRefusal` with `.unsupportedFormat` (not a PNG, APNG, GIF, JPEG or
    ///   WebP), `.unreadable` (truncated or damaged), `.tooManyPixels` or `.animationTooLarge`
    ///   (over `budget`); its `message` is a sentence to show the sender.
    public static func prepare(_ bytes: [UInt8], budget: PixelBudget = PixelBudget()) throws(ImageRefusal) -> PreparedImage {
        let geometry = try checkedGeometry(bytes, budget: budget)
        let cleaned: [UInt8]
        do {
            cleaned = try MetadataStripper.strip(bytes, format: geometry.info.format)
        } catch {
            throw ImageRefusal(error)
        }
        var info = geometry.info
        info.byteCount = cleaned.count
        return PreparedImage(bytes: cleaned, info: info)
    }

    /// Checks an image's format and size only, without cleaning it: cheaper than `prepare`,
    /// for bytes that are passed on but not stored (the image proxy's answers).
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - budget: the size limits.
    /// - Returns: the image's format, size and frames.
    /// - Throws: `ImageRefusal`, as `prepare`.
    @discardableResult
    public static func checkBudget(_ bytes: [UInt8], budget: PixelBudget = PixelBudget()) throws(ImageRefusal) -> ImageInfo {
        try checkedGeometry(bytes, budget: budget).info
    }

    /// One fuzzing input (for `parlor-fuzz`): prepares `bytes` and, when they are accepted,
    /// checks what must hold of every prepared image. Refusals are fine; a broken promise stops
    /// the process, as a fuzzer wants.
    ///
    /// Checked: preparing the output again gives the same bytes and facts (idempotence), and
    /// `checkBudget` accepts the output with the same facts.
    public static func fuzz(_ bytes: [UInt8]) {
        guard let prepared = try? prepare(bytes) else { return }
        guard let again = try? prepare(prepared.bytes) else { preconditionFailure("a prepared image was refused when prepared again") }
        precondition(again == prepared, "preparing a prepared image changed it")
        let checked = try? checkBudget(prepared.bytes)
        precondition(checked == prepared.info, "checkBudget read a prepared image differently")
    }

    /// The image's geometry, checked against `budget`.
    private static func checkedGeometry(_ bytes: [UInt8], budget: PixelBudget) throws(ImageRefusal) -> ImageGeometry {
        let geometry: ImageGeometry
        do {
            geometry = try ImageInspector.geometry(of: bytes)
        } catch {
            throw ImageRefusal(error)
        }
        try budget.check(geometry)
        return geometry
    }
}
