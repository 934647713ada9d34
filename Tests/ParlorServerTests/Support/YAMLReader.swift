import Foundation

/// A YAML value as docs/openapi.yaml uses them.
indirect enum YAMLNode: Equatable, Sendable {
    case scalar(String)
    case map([(key: String, value: YAMLNode)])
    case list([YAMLNode])

    static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.map(let a), .map(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    subscript(key: String) -> YAMLNode? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    var entries: [(key: String, value: YAMLNode)] {
        if case .map(let entries) = self { return entries }
        return []
    }

    var items: [YAMLNode] {
        if case .list(let items) = self { return items }
        return []
    }

    var string: String? {
        if case .scalar(let value) = self { return value }
        return nil
    }
}

struct YAMLError: Error, CustomStringConvertible {
    let line: Int
    let problem: String
    var description: String { "line \(line): \(problem)" }
}

/// Reads the YAML subset docs/openapi.yaml is written in: block mappings and block lists (by
/// indentation), flow lists of scalars (`[a, b]`), `{}`, quoted and plain scalars, `|` and `>`
/// block texts, and whole-line comments. Anything else is an error, so the spec stays readable by it.
struct YAMLReader {
    private var lines: [(number: Int, indent: Int, text: String)] = []
    private var position = 0

    static func parse(_ text: String) throws -> YAMLNode {
        var reader = YAMLReader()
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if raw.hasPrefix("\t") { throw YAMLError(line: index + 1, problem: "tabs are not allowed") }
            let indent = raw.prefix { $0 == " " }.count
            reader.lines.append((index + 1, indent, String(raw.dropFirst(indent)).trimmingCharacters(in: .whitespaces)))
        }
        guard let first = reader.lines.first else { return .map([]) }
        let node = try reader.block(indent: first.indent)
        if reader.position < reader.lines.count {
            throw YAMLError(line: reader.lines[reader.position].number, problem: "unexpected indentation")
        }
        return node
    }

    private mutating func block(indent: Int) throws -> YAMLNode {
        guard position < lines.count else { return .map([]) }
        return lines[position].text.hasPrefix("- ") || lines[position].text == "-" ? try list(indent: indent) : try map(indent: indent)
    }

    private mutating func list(indent: Int) throws -> YAMLNode {
        var items: [YAMLNode] = []
        while position < lines.count, lines[position].indent == indent, lines[position].text.hasPrefix("-") {
            let line = lines[position]
            let rest = String(line.text.dropFirst()).trimmingCharacters(in: .whitespaces)
            if rest.isEmpty {
                position += 1
                items.append(try nested(deeperThan: indent))
            } else if Self.splitKey(rest) != nil {
                // "- key: value" starts a mapping whose other keys are indented under the key.
                let keyIndent = indent + (line.text.count - rest.count)
                lines[position] = (line.number, keyIndent, rest)
                items.append(try map(indent: keyIndent))
            } else {
                position += 1
                items.append(try scalar(rest, line: line.number, indent: indent))
            }
        }
        return .list(items)
    }

    private mutating func map(indent: Int) throws -> YAMLNode {
        var entries: [(key: String, value: YAMLNode)] = []
        while position < lines.count, lines[position].indent == indent, !lines[position].text.hasPrefix("- ") {
            let line = lines[position]
            guard let (key, rest) = Self.splitKey(line.text) else { throw YAMLError(line: line.number, problem: "expected 'key: value'") }
            if entries.contains(where: { $0.key == key }) { throw YAMLError(line: line.number, problem: "duplicate key '\(key)'") }
            position += 1
            let value: YAMLNode = rest.isEmpty ? try nested(deeperThan: indent) : try scalar(rest, line: line.number, indent: indent)
            entries.append((key, value))
        }
        return .map(entries)
    }

    private mutating func nested(deeperThan indent: Int) throws -> YAMLNode {
        guard position < lines.count, lines[position].indent > indent else { return .scalar("") }
        return try block(indent: lines[position].indent)
    }

    private mutating func scalar(_ text: String, line: Int, indent: Int) throws -> YAMLNode {
        if text == "|" || text == ">" || text == "|-" || text == ">-" {
            var parts: [String] = []
            while position < lines.count, lines[position].indent > indent {
                parts.append(lines[position].text)
                position += 1
            }
            return .scalar(parts.joined(separator: text.hasPrefix("|") ? "\n" : " "))
        }
        if text == "{}" { return .map([]) }
        if text.hasPrefix("[") {
            guard text.hasSuffix("]") else { throw YAMLError(line: line, problem: "a flow list must end on its line") }
            let inner = text.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
            if inner.isEmpty { return .list([]) }
            return .list(inner.split(separator: ",").map { .scalar(Self.unquote($0.trimmingCharacters(in: .whitespaces))) })
        }
        if text.hasPrefix("{") || text.hasPrefix("&") || text.hasPrefix("*") {
            throw YAMLError(line: line, problem: "flow mappings, anchors and aliases are not supported")
        }
        return .scalar(Self.unquote(text))
    }

    /// Splits `key: value` (the key possibly quoted); nil when the line is not a mapping entry.
    static func splitKey(_ text: String) -> (String, String)? {
        if let quote = text.first, quote == "'" || quote == "\"" {
            guard let end = text.dropFirst().firstIndex(of: quote) else { return nil }
            let after = text[text.index(after: end)...]
            guard after.hasPrefix(":") else { return nil }
            return (String(text[text.index(after: text.startIndex)..<end]), after.dropFirst().trimmingCharacters(in: .whitespaces))
        }
        guard let colon = text.range(of: ": ") ?? (text.hasSuffix(":") ? text.range(of: ":", options: .backwards) : nil) else { return nil }
        let key = String(text[..<colon.lowerBound])
        guard !key.isEmpty, !key.contains(" ") || key.hasPrefix("/") else { return nil }
        return (key, text[colon.upperBound...].trimmingCharacters(in: .whitespaces))
    }

    static func unquote(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == text.last, first == "'" || first == "\"" else { return text }
        let inner = String(text.dropFirst().dropLast())
        return first == "'" ? inner.replacingOccurrences(of: "''", with: "'") : inner.replacingOccurrences(of: "\\\"", with: "\"")
    }
}
