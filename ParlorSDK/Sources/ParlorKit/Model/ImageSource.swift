import Foundation

/// Where an image comes from.
///
/// - `asset`: a file bundled with the app (its `Assets` folder), by file name.
/// - `url`: an `http(s)` URL, or a `data:` URL carrying the image inline (see `svg(_:)`).
/// - `upload`: an image the app produced and uploaded once (`Conversation.upload(image:)`).
public enum ImageSource: Sendable, Hashable, Codable {
    /// A file bundled with the app, by file name.
    case asset(String)
    /// An `http(s)` URL, or a `data:` URL carrying the image inline.
    case url(URL)
    /// An image the app produced and uploaded once (`Conversation.upload(image:)`), by the id
    /// Parlor gave it (its SHA-256, 64 hex digits): use it again in views and messages instead of
    /// sending its bytes each time. The person it was uploaded for sees it; everyone in a
    /// conversation sees it once a message there shows it (as its template's image, or as a
    /// sticker the app made), for as long as that message stays. An upload no message shows is
    /// kept for a day, like any upload: uploading the same bytes again returns the same id and
    /// keeps it another day.
    case upload(String)

    /// An SVG drawing carried inline as a `data:image/svg+xml` URL; apps draw with it
    /// (the tic-tac-toe board is one), no image library needed.
    /// - Parameter markup: the SVG document, as text.
    /// - Returns: a `.url` source carrying the drawing.
    public static func svg(_ markup: String) -> ImageSource {
        // A data URL built from percent-encoded ASCII always parses.
        .url(URL(string: "data:image/svg+xml;charset=utf-8," + PercentEncoding.encode(markup)) ?? URL(fileURLWithPath: "/"))
    }

    private enum CodingKeys: String, CodingKey { case asset, url, upload }

    /// Decodes a source from `{"asset": name}`, `{"url": url}` or `{"upload": id}`.
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let name = try container.decodeIfPresent(String.self, forKey: .asset) {
            self = .asset(name)
        } else if let id = try container.decodeIfPresent(String.self, forKey: .upload) {
            self = .upload(id)
        } else {
            self = .url(try container.decodeExactURL(forKey: .url))
        }
    }

    /// Encodes the source as `{"asset": name}` or `{"url": url}`.
    /// - Parameter encoder: the encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .asset(let name): try container.encode(name, forKey: .asset)
        case .url(let url): try container.encode(url, forKey: .url)
        case .upload(let id): try container.encode(id, forKey: .upload)
        }
    }

    /// Whether `id` has the shape of an upload's id: 64 lowercase hex digits.
    public static func isUploadID(_ id: String) -> Bool {
        id.utf8.count == 64 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Checks the source: an asset name without path separators; a URL with an allowed scheme and
    /// at most `Limits.maxURLLength` characters, or `Limits.maxInlineImageLength` for an inline `data:` image.
    public func validate() throws(MessagesError) {
        switch self {
        case .upload(let id):
            guard Self.isUploadID(id) else {
                throw MessagesError(.fileNotFound, "'\(id.prefix(70))' is not an uploaded image's id; use what conversation.upload(image:) returned.")
            }
        case .asset(let name):
            guard !name.isEmpty, !name.contains("/"), !name.contains(".."), name.count <= 200 else {
                throw MessagesError(.fileNotFound, "The image asset name '\(name.prefix(60))' is not a plain file name.")
            }
        case .url(let url):
            let scheme = url.scheme?.lowercased() ?? ""
            guard Limits.urlSchemes.contains(scheme) else {
                throw MessagesError(.improperFileURL, "An image URL must use http, https or data, not '\(scheme)'.")
            }
            if scheme == "data", url.absoluteString.count > Limits.maxInlineImageLength {
                throw MessagesError(
                    .mediaExceedsMaxSize,
                    "An inline image is \(url.absoluteString.count) characters; the limit is \(Limits.maxInlineImageLength).")
            }
            if scheme != "data", url.absoluteString.count > Limits.maxURLLength {
                throw MessagesError(
                    .urlExceedsMaxSize,
                    "An image URL is \(url.absoluteString.count) characters; the limit is \(Limits.maxURLLength).")
            }
        }
    }
}
