import ArgumentParser
import Foundation
import ParlorImages
import ParlorKit

extension AppsCommand {
    /// `parlor apps icon FILE`: the `icon` value of a manifest, made from an image file.
    struct Icon: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the manifest's \"icon\" value for an SVG, PNG, JPEG, GIF or WebP file (a data: URL).")
        @Argument(help: "The image file.") var file: String

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure("Cannot read \(file).")
            }
            let source = try Self.icon(from: data, named: file)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(source), as: UTF8.self))
        }

        /// The icon a manifest gives for `data`: an SVG as percent-encoded markup (`ImageSource.svg`),
        /// an image as base64, cleaned of its metadata.
        /// - Throws: `CommandFailure` saying what to do when it is neither, or too long for a manifest.
        static func icon(from data: Data, named file: String) throws -> ImageSource {
            let source: ImageSource
            if let text = String(data: data, encoding: .utf8), text.contains("<svg") {
                source = .svg(text.trimmingCharacters(in: .whitespacesAndNewlines))
            } else {
                let image: PreparedImage
                do {
                    image = try UploadedImage.prepare(Array(data))
                } catch {
                    throw CommandFailure("\(file): \(error.message) An icon is an SVG, PNG, JPEG, GIF or WebP file.")
                }
                let text = "data:\(image.info.format.mimeType);base64," + Data(image.bytes).base64EncodedString()
                guard let url = URL(exactly: text) else { throw CommandFailure("\(file) cannot be written as a data: URL.") }
                source = .url(url)
            }
            guard case .url(let url) = source, url.absoluteString.count <= Limits.maxURLLength else {
                throw CommandFailure(
                    "\(file) makes an icon URL longer than \(Limits.maxURLLength) characters, the most a manifest takes: use a simpler SVG, a smaller image (64 × 64 is plenty), or an https URL of your own.")
            }
            return source
        }
    }
}
