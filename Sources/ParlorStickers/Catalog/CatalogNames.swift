import Foundation

/// Turns folder and file names into pack ids, asset names and readable descriptions.
enum CatalogNames {
    /// Folder and file names that are never stickers in a folder pack.
    static let metadataFiles: Set<String> = ["contents.json", "pack.json"]
    static let ignoredExtensions: Set<String> = ["json", "md", "txt", "rtf", "plist", "strings"]

    /// A pack id from a name: lowercase ASCII letters, digits and dashes (`Party Time!` → `party-time`).
    static func packID(_ name: String) -> String {
        let id = slug(name.lowercased(), allowed: "-", maxLength: 64)
        return id.isEmpty ? "stickers" : id
    }

    /// A safe file-name stem for an asset: ASCII letters, digits, `-` and `_`.
    static func assetStem(_ name: String) -> String {
        let stem = slug(name, allowed: "-_", maxLength: 100)
        return stem.isEmpty ? "sticker" : stem
    }

    /// A description from a file name when the catalog gives none, as Xcode uses the sticker's
    /// name: `llamaKnows` → `Llama knows`, `happy_cat-2` → `Happy cat 2`.
    static func humanize(_ name: String) -> String {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name {
            if character == "-" || character == "_" || character == " " || character == "." {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else if let previous, character.isUppercase, previous.isLowercase || previous.isNumber {
                words.append(current)
                current = String(character)
            } else if let previous, character.isNumber != previous.isNumber, !current.isEmpty {
                words.append(current)
                current = String(character)
            } else {
                current.append(character)
            }
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        let sentence = words.map { $0.lowercased() }.joined(separator: " ")
        guard let first = sentence.first else { return "Sticker" }
        return String((first.uppercased() + sentence.dropFirst()).prefix(150))
    }

    /// Whether `name` (from a Contents.json or pack.json) names a file in the same folder: not
    /// empty, no path separators, not `.` or `..`, not hidden.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.contains("\\") && !name.hasPrefix(".") && name.count <= 255
    }

    /// `name` without its last extension.
    static func stem(_ name: String) -> String {
        (name as NSString).deletingPathExtension
    }

    /// The lowercased extension of `name`.
    static func pathExtension(_ name: String) -> String {
        (name as NSString).pathExtension.lowercased()
    }

    /// Orders file names as people number frames: `2.png` before `10.png`.
    static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.compare(rhs, options: [.numeric, .caseInsensitive]) == .orderedAscending
    }

    private static func slug(_ text: String, allowed: String, maxLength: Int) -> String {
        var result = ""
        var pendingDash = false
        for scalar in text.unicodeScalars {
            let keep = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || allowed.unicodeScalars.contains(scalar))
            if keep {
                if pendingDash, !result.isEmpty { result.append("-") }
                pendingDash = false
                result.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return String(result.prefix(maxLength)).trimmingCharacters(in: CharacterSet(charactersIn: "-_"))
    }
}
