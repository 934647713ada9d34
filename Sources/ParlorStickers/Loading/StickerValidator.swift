import Foundation
import ParlorImages
import ParlorKit

/// The sticker rules, checked on a file's content (never its extension): a PNG, APNG, GIF or
/// JPEG image of at most `Limits.maxStickerFileSize` bytes, 300 to 618 pixels on each side
/// (`Limits.stickerPixelRange`), with a description of at most
/// `Limits.maxStickerDescriptionLength` characters.
///
/// ```swift
/// let info = try StickerValidator.validateImage(data, file: "wave.png")
/// print(info.format, info.width, info.height, info.isAnimated)
/// ```
public enum StickerValidator {
    /// Checks an image's bytes and returns what they hold.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - file: the name used in error messages.
    ///   - gridSize: the pack's grid size, to suggest the right pixel size.
    /// - Throws: `MessagesError` with `.stickerFileImproperFileSize` (too large),
    ///   `.stickerFileImproperFileFormat` (not a supported or intact image) or
    ///   `.stickerFileImproperFileAttributes` (pixel size out of range).
    public static func validateImage(_ data: Data, file: String, gridSize: StickerGridSize? = nil) throws(MessagesError) -> ImageInfo {
        try checkSize(data.count, file: file)
        let info: ImageInfo
        do {
            info = try ImageInspector.inspect([UInt8](data))
        } catch {
            throw MessagesError(
                .stickerFileImproperFileFormat,
                "\(file) \(error.reason). A sticker must be a PNG, APNG, GIF or JPEG image; export it again in one of these formats.")
        }
        // Apple's sticker formats: a WebP, which photos may be, is not one of them.
        guard info.format != .webp else {
            throw MessagesError(
                .stickerFileImproperFileFormat,
                "\(file) is a WebP image. A sticker must be a PNG, APNG, GIF or JPEG image; export it again in one of these formats.")
        }
        let range = Limits.stickerPixelRange
        guard range.contains(info.width), range.contains(info.height) else {
            let side = gridSize?.pixelSize ?? StickerGridSize.regular.pixelSize
            throw MessagesError(
                .stickerFileImproperFileAttributes,
                "\(file) is \(info.width)×\(info.height) px; stickers must be \(range.lowerBound) to \(range.upperBound) px on each side. Resize it (\(side)×\(side) px suits a \(gridSize ?? .regular) grid).")
        }
        return info
    }

    /// Checks a sticker's description (what screen readers say).
    /// - Throws: `MessagesError(.stickerFileImproperFileAttributes)` when it is too long.
    public static func validateDescription(_ description: String, file: String) throws(MessagesError) {
        let limit = Limits.maxStickerDescriptionLength
        guard description.count <= limit else {
            throw MessagesError(
                .stickerFileImproperFileAttributes,
                "The description of \(file) is \(description.count) characters; the limit is \(limit). Shorten its accessibility-label.")
        }
    }

    /// Reads a file, checking its size before reading it so a huge file is never loaded.
    /// - Parameters:
    ///   - url: the file.
    ///   - name: the name used in error messages.
    ///   - maxSize: the largest file accepted (`Limits.maxStickerFileSize` for a sticker).
    /// - Throws: `MessagesError` with `.fileNotFound` (missing), `.fileUnreadable` (a folder, or
    ///   unreadable) or `.stickerFileImproperFileSize` (larger than `maxSize`).
    public static func readFile(at url: URL, name: String, maxSize: Int = Limits.maxStickerFileSize) throws(MessagesError) -> Data {
        let kind = maxSize == Limits.maxStickerFileSize ? "a sticker file" : "this file"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw MessagesError(.fileNotFound, "\(name) does not exist. Add the file, or remove it from the pack's Contents.json or pack.json.")
        }
        guard !isDirectory.boolValue else {
            throw MessagesError(.fileUnreadable, "\(name) is a folder where an image file was expected. Put the image file there instead.")
        }
        let declaredSize = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        try checkSize(declaredSize, file: name, limit: maxSize, kind: kind)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MessagesError(.fileUnreadable, "\(name) could not be read (\(error.localizedDescription)). Check that the file is readable.")
        }
        try checkSize(data.count, file: name, limit: maxSize, kind: kind)
        return data
    }

    private static func checkSize(
        _ byteCount: Int, file: String, limit: Int = Limits.maxStickerFileSize, kind: String = "a sticker file"
    ) throws(MessagesError) {
        guard byteCount <= limit else {
            let kilobytes = (byteCount + 1023) / 1024
            throw MessagesError(
                .stickerFileImproperFileSize,
                "\(file) is \(kilobytes) KB; \(kind) may be at most \(limit / 1024) KB. Save it smaller (fewer colours, fewer frames or more compression).")
        }
    }
}
