import Foundation
import ParlorStore

/// Reads a web page's card from its HTML head: the Open Graph tags (`og:title`,
/// `og:description`, `og:image`, `og:site_name`), else the Twitter card tags, else `<title>` and
/// `<meta name="description">`. The head is read as a browser reads it (`HTMLHead`): what only
/// looks like a tag inside a comment, a script, a style sheet or a template is not one, and
/// character references are decoded by the HTML standard's whole table (`HTMLEntities`).
/// Written for untrusted pages: one pass over the text, text cleaned of control and invisible
/// characters, every field cut to its length, and the image only as an absolute http(s) address.
public enum LinkPreviewPage {
    static let maxTitleLength = 200
    static let maxDescriptionLength = 300
    static let maxSiteNameLength = 100
    static let maxImageURLLength = 2048

    /// Whether `html` holds the whole head, as a browser reads it: a `</head>` or `<body>` that
    /// is markup (not inside a comment or a script), so nothing after it is needed for the card.
    public static func headIsComplete(in html: String) -> Bool {
        HTMLHead(parsing: html).isComplete
    }

    /// The card for the page at `page` whose HTML is `html`; nil when it has no title.
    /// - Parameter base: the address the page was read from after redirects (relative image
    ///   addresses are resolved against it); `page` when nil.
    public static func preview(of html: String, at page: URL, base: URL? = nil) -> StoredLinkPreview? {
        let head = HTMLHead(parsing: html)
        var meta: [String: String] = [:]
        for attributes in head.metas {
            guard let key = (attributes["property"] ?? attributes["name"])?.lowercased(), let content = attributes["content"] else { continue }
            if meta[key] == nil { meta[key] = content }
        }
        let first = { (keys: [String]) in keys.lazy.compactMap { meta[$0].map(clean) }.first { !$0.isEmpty } }
        guard let title = first(["og:title", "twitter:title"]) ?? head.title.map(clean).flatMap({ $0.isEmpty ? nil : $0 }) else {
            return nil
        }
        let image = first(["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"]).flatMap { imageURL($0, on: base ?? page) }
        return StoredLinkPreview(
            url: page.absoluteString,
            title: cut(title, to: maxTitleLength),
            description: first(["og:description", "twitter:description", "description"]).map { cut($0, to: maxDescriptionLength) },
            imageURL: image,
            siteName: first(["og:site_name"]).map { cut($0, to: maxSiteNameLength) })
    }

    /// `text` as an absolute http(s) address, resolved against the page's.
    static func imageURL(_ text: String, on page: URL) -> String? {
        guard let url = URL(string: text, relativeTo: page)?.absoluteURL, let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        let address = url.absoluteString
        return address.count <= maxImageURLLength ? address : nil
    }

    /// White space runs made one space; control, format (invisible, text-direction) and private
    /// use characters left out.
    static func clean(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .privateUse, .surrogate, .unassigned: continue
            default: break
            }
            if pendingSpace {
                result += " "
                pendingSpace = false
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// At most `length` characters, "…" ending what was cut.
    static func cut(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)).trimmingCharacters(in: .whitespaces) + "…"
    }
}
