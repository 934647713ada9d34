import Foundation
import ParlorStore

/// Reads a web page's card from its HTML head: the Open Graph tags (`og:title`,
/// `og:description`, `og:image`, `og:site_name`), else the Twitter card tags, else `<title>` and
/// `<meta name="description">`. Written for untrusted pages: no parser state beyond the tags, text
/// cleaned of control and invisible characters, every field cut to its length, and the image
/// only as an absolute http(s) address.
public enum LinkPreviewPage {
    static let maxTitleLength = 200
    static let maxDescriptionLength = 300
    static let maxSiteNameLength = 100
    static let maxImageURLLength = 2048

    /// The card for the page at `page` whose HTML is `html`; nil when it has no title.
    /// - Parameter base: the address the page was read from after redirects (relative image
    ///   addresses are resolved against it); `page` when nil.
    public static func preview(of html: String, at page: URL, base: URL? = nil) -> StoredLinkPreview? {
        let head = Self.head(of: html)
        var meta: [String: String] = [:]
        for attributes in tags(named: "meta", in: head) {
            guard let key = (attributes["property"] ?? attributes["name"])?.lowercased(), let content = attributes["content"] else { continue }
            if meta[key] == nil { meta[key] = content }
        }
        let first = { (keys: [String]) in keys.lazy.compactMap { meta[$0].map(clean) }.first { !$0.isEmpty } }
        guard let title = first(["og:title", "twitter:title"]) ?? titleElement(in: head).map(clean).flatMap({ $0.isEmpty ? nil : $0 }) else {
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

    /// The document up to its `</head>` (or its `<body>`): where the tags are.
    static func head(of html: String) -> Substring {
        for marker in ["</head", "<body"] {
            if let end = html.range(of: marker, options: .caseInsensitive) { return html[..<end.lowerBound] }
        }
        return html[...]
    }

    /// The attributes (names lowercased, values with entities decoded) of each `<name …>` tag.
    static func tags(named name: String, in html: Substring) -> [[String: String]] {
        var found: [[String: String]] = []
        let scalars = Array(html.unicodeScalars)
        let opening = Array("<\(name)".unicodeScalars)
        var index = 0
        while index + opening.count < scalars.count {
            guard scalars[index] == "<", matches(opening, in: scalars, at: index),
                  !isNameCharacter(scalars[index + opening.count])
            else {
                index += 1
                continue
            }
            var attributes: [String: String] = [:]
            index += opening.count
            while index < scalars.count, scalars[index] != ">" {
                if scalars[index].properties.isWhitespace || scalars[index] == "/" {
                    index += 1
                    continue
                }
                var key = ""
                while index < scalars.count, !scalars[index].properties.isWhitespace, !"=>/".unicodeScalars.contains(scalars[index]) {
                    key.unicodeScalars.append(scalars[index])
                    index += 1
                }
                while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
                var value = ""
                let hasValue = index < scalars.count && scalars[index] == "="
                if hasValue {
                    index += 1
                    while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
                    if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                        let quote = scalars[index]
                        index += 1
                        while index < scalars.count, scalars[index] != quote {
                            value.unicodeScalars.append(scalars[index])
                            index += 1
                        }
                        index += 1
                    } else {
                        while index < scalars.count, !scalars[index].properties.isWhitespace, scalars[index] != ">" {
                            value.unicodeScalars.append(scalars[index])
                            index += 1
                        }
                    }
                }
                if key.isEmpty {
                    if !hasValue, index < scalars.count, scalars[index] != ">" { index += 1 }  // a stray character
                } else if attributes[key.lowercased()] == nil {
                    attributes[key.lowercased()] = decodeEntities(value)
                }
            }
            found.append(attributes)
        }
        return found
    }

    /// The text of the `<title>` element.
    static func titleElement(in html: Substring) -> String? {
        guard let open = html.range(of: "<title", options: .caseInsensitive),
              let close = html.range(of: "</title", options: .caseInsensitive, range: open.upperBound..<html.endIndex),
              let start = html.range(of: ">", range: open.upperBound..<close.lowerBound)
        else { return nil }
        return decodeEntities(String(html[start.upperBound..<close.lowerBound]))
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#39;`, `&nbsp;` and numeric references
    /// decoded; anything else kept as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            var decoded: String?
            if let value = named[String(name)] {
                decoded = value
            } else if name.hasPrefix("#x") || name.hasPrefix("#X") {
                decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if name.hasPrefix("#") {
                decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let decoded {
                result += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
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

    private static func matches(_ word: [Unicode.Scalar], in scalars: [Unicode.Scalar], at index: Int) -> Bool {
        for (offset, scalar) in word.enumerated() {
            let candidate = scalars[index + offset]
            guard candidate == scalar || (candidate.properties.isUppercase && candidate.properties.lowercaseMapping == String(scalar)) else { return false }
        }
        return true
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "-" || scalar == "_" || scalar == ":"
    }
}
