import Foundation

/// A JSON value read forgivingly, for hand-edited and tool-written catalogs: keys match without
/// regard to case, dashes, underscores or spaces (`grid-size`, `gridSize`, `Grid_Size`), and
/// numbers and strings stand in for each other.
struct LenientJSON {
    /// What JSONSerialization made: strings, numbers, arrays, dictionaries, NSNull.
    private let value: Any

    private init(value: Any) { self.value = value }

    /// The largest JSON file read; a catalog's Contents.json is a few hundred bytes.
    static let maxFileSize = 1024 * 1024

    /// Parses `data`.
    /// - Throws: the parser's error when `data` is not JSON.
    init(data: Data) throws {
        value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// Folds a key to the form keys are compared in: lowercase letters and digits only.
    static func fold(_ key: String) -> String {
        String(key.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// The value of the first of `keys` present (each compared folded).
    subscript(_ keys: String...) -> LenientJSON? { self[keys] }

    /// The value of the first of `keys` present (each compared folded).
    subscript(_ keys: [String]) -> LenientJSON? {
        guard let object = value as? [String: Any] else { return nil }
        for key in keys.map(Self.fold) {
            if let match = object.first(where: { Self.fold($0.key) == key }) { return LenientJSON(value: match.value) }
        }
        return nil
    }

    /// A string, or a number written as one; nil for anything else or an empty string.
    var string: String? {
        let text: String?
        switch value {
        case let string as String: text = string
        case let number as Int: text = String(number)
        case let number as Double: text = String(number)
        case let number as NSNumber: text = number.stringValue
        default: text = nil
        }
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed?.isEmpty == false ? trimmed : nil
    }

    /// A number, or a string holding one.
    var double: Double? {
        switch value {
        case let number as Int: Double(number)
        case let number as Double: number
        case let number as NSNumber: number.doubleValue
        case let string as String: Double(string.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// The elements of an array; a single object counts as an array of one.
    var array: [LenientJSON]? {
        if let array = value as? [Any] { return array.map { LenientJSON(value: $0) } }
        if value is [String: Any] { return [self] }
        return nil
    }

    /// Whether the value is an object.
    var isObject: Bool { value is [String: Any] }
}
