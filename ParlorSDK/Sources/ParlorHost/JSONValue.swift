import Foundation
@_spi(Hosting) import ParlorKit

/// Any JSON value: the state and actions of an app that runs outside the server, which the host
/// stores and passes on without knowing their shape.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any value. A decoder cannot say what kind of value it holds, only fail to decode
    /// the wrong kind, and each failure builds an error; so the kinds that cost most to reach are
    /// tried first (a string, then an object, then an array), and objects and arrays are read
    /// member by member. A number pays for it with four failures (it paid one when bools and
    /// numbers came first), which a state made of strings and objects more than makes up for.
    /// Member names are read with the decoder's key strategy: with anything but
    /// `.useDefaultKeys` they would be converted (nothing in Parlor sets another).
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let object = try? decoder.container(keyedBy: MemberName.self) {
            let names = object.allKeys
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(names.count)
            for name in names {
                members[name.stringValue] = try object.decode(JSONValue.self, forKey: name)
            }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count ?? 0)
            while !array.isAtEnd {
                elements.append(try array.decode(JSONValue.self))
            }
            self = .array(elements)
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? value.decode(Int64.self) {
            self = .int(int)
        } else {
            self = .double(try value.decode(Double.self))
        }
    }

    /// An object's member name.
    private struct MemberName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses JSON text.
    /// - Throws: `MessagesError(.invalidValue)` when it is not JSON.
    public init(json: Data) throws(MessagesError) {
        do {
            self = try CompactJSONDecoder().decode(JSONValue.self, from: json)
        } catch {
            throw MessagesError(.invalidValue, "That is not JSON.")
        }
    }

    /// The value as compact JSON text, keys sorted.
    public var json: Data {
        (try? Self.encoder.encode(self)) ?? Data("null".utf8)
    }

    private static let encoder = CompactJSONEncoder(escapesSlashes: false, sortsDictionaryKeys: true)
}

