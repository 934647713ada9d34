import Foundation

/// A value whose JSON can be written once and then copied, as it is, into every larger value that
/// holds it: a message fanned out to many people and acknowledged to its sender is encoded once,
/// and each frame carrying it is still encoded by the frame's own `encode(to:)`.
///
/// The copy is made only by a `CompactJSONEncoder` with the settings the bytes were written with;
/// any other encoder (Foundation's, or one with other settings) encodes `value` as usual, so the
/// output never depends on whether the bytes were made ahead.
@_spi(Hosting)
public struct EncodedJSON<Value: Encodable & Sendable>: Encodable, Sendable {
    public let value: Value
    private let encoded: (bytes: [UInt8], by: CompactJSONEncoder)?

    /// The value, encoded wherever it is written.
    public init(_ value: Value) {
        self.value = value
        encoded = nil
    }

    /// The value, encoded now by `encoder` for every later encoding by the same settings.
    /// - Throws: what `encoder` throws for `value`.
    public init(encodingNow value: Value, by encoder: CompactJSONEncoder) throws {
        self.value = value
        encoded = (try encoder.bytes(of: value), encoder)
    }

    public func encode(to encoder: any Encoder) throws {
        guard let encoded, let stream = encoder as? JSONStreamEncoder, stream.writer.writes(like: encoded.by) else {
            // Through a single value container, so that the encoder writes a Date, URL or Data its
            // own way, as it would for the value itself.
            var container = encoder.singleValueContainer()
            try container.encode(value)
            return
        }
        try stream.beginSingleValue()
        stream.writer.writeEncoded(encoded.bytes)
    }
}

extension EncodedJSON: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        self.init(try Value(from: decoder))
    }
}

extension JSONStreamWriter {
    /// Whether this writer writes what `encoder` writes.
    func writes(like encoder: CompactJSONEncoder) -> Bool {
        dates == encoder.dates && escapesSlashes == encoder.escapesSlashes && sortsDictionaryKeys == encoder.sortsDictionaryKeys
    }
}
