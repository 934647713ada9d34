import Foundation
import ParlorHost

/// docs/openapi.yaml: its operations, and a checker for response bodies against its schemas.
///
/// The checker knows the schema keywords the spec uses: `$ref`, `type` (one or a list), `required`,
/// `properties`, `additionalProperties` (false or a schema), `items`, `enum` and `format: uuid`/`date-time`.
struct OpenAPISpec {
    struct Operation: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        var description: String { "\(method) \(path)" }
    }

    let root: YAMLNode
    static let methods = ["get", "put", "post", "delete", "patch", "head", "options"]

    /// The spec in the package's docs folder.
    static func load() throws -> OpenAPISpec {
        let url = packageRoot.appendingPathComponent("docs/openapi.yaml")
        return OpenAPISpec(root: try YAMLReader.parse(try String(contentsOf: url, encoding: .utf8)))
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    var operations: [Operation] {
        root["paths"]?.entries.flatMap { path, item in
            item.entries.filter { Self.methods.contains($0.key) }.map { Operation(method: $0.key.uppercased(), path: path) }
        } ?? []
    }

    func operation(_ operation: Operation) -> YAMLNode? { root["paths"]?[operation.path]?[operation.method.lowercased()] }

    /// The documented path a concrete path matches (`/api/conversations/{id}` for `/api/conversations/ABC`).
    func template(for path: String) -> String? {
        let segments = path.split(separator: "?").first.map { $0.split(separator: "/", omittingEmptySubsequences: false) } ?? []
        let candidates = root["paths"]?.entries.map(\.key) ?? []
        return candidates.first { candidate in
            let parts = candidate.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == segments.count else { return false }
            return zip(parts, segments).allSatisfy { part, segment in part == segment || (part.hasPrefix("{") && part.hasSuffix("}") && !segment.isEmpty) }
        }
    }

    /// Follows `$ref`s to what they name.
    func resolve(_ node: YAMLNode) -> YAMLNode {
        var node = node
        var hops = 0
        while let reference = node["$ref"]?.string, reference.hasPrefix("#/"), hops < 20 {
            var target: YAMLNode? = root
            for key in reference.dropFirst(2).split(separator: "/") { target = target?[String(key)] }
            guard let target else { return .map([]) }
            node = target
            hops += 1
        }
        return node
    }

    /// The documented response for `status`, resolved.
    func response(_ operation: Operation, status: Int) -> YAMLNode? {
        self.operation(operation)?["responses"]?[String(status)].map(resolve)
    }

    /// What is wrong with `value` as an instance of `schema` (empty when it conforms).
    func problems(_ value: JSONValue, schema: YAMLNode, at path: String = "$") -> [String] {
        let schema = resolve(schema)
        var problems: [String] = []
        if let allowed = schema["enum"]?.items.compactMap(\.string), case .string(let string) = value, !allowed.contains(string) {
            problems.append("\(path): '\(string)' is not one of \(allowed)")
        }
        let types = schema["type"].map { $0.string.map { [$0] } ?? $0.items.compactMap(\.string) } ?? []
        if !types.isEmpty, !types.contains(where: { Self.value(value, hasType: $0) }) {
            return problems + ["\(path): expected \(types.joined(separator: " or ")), got \(Self.kind(of: value))"]
        }
        switch value {
        case .string(let string):
            if schema["format"]?.string == "uuid", UUID(uuidString: string) == nil { problems.append("\(path): '\(string)' is not a UUID") }
            if schema["format"]?.string == "date-time", ISO8601DateFormatter().date(from: string) == nil {
                problems.append("\(path): '\(string)' is not an ISO 8601 date-time")
            }
        case .array(let items):
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() { problems += self.problems(item, schema: itemSchema, at: "\(path)[\(index)]") }
            }
        case .object(let object):
            for key in schema["required"]?.items.compactMap(\.string) ?? [] where object[key] == nil {
                problems.append("\(path): required '\(key)' is missing")
            }
            let properties = schema["properties"]
            for (key, member) in object {
                if let property = properties?[key] {
                    problems += self.problems(member, schema: property, at: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] {
                    if additional.string == "false" {
                        problems.append("\(path): '\(key)' is not in the schema")
                    } else if additional.string == nil {
                        problems += self.problems(member, schema: additional, at: "\(path).\(key)")
                    }
                }
            }
        default:
            break
        }
        return problems
    }

    private static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double),
            ("string", .string), ("array", .array), ("object", .object):
            true
        default:
            false
        }
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
