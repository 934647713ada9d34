/// The JSON shapes of Parlor's protocols. docs/PROTOCOL.md documents them.
///
/// Declared here with the frames clients send (`ClientRequest`), which the fuzzer reads; the
/// shapes the server sends extend it in ParlorServer.
public enum Wire {
    /// The WebSocket protocol's version; `hello` frames name it.
    public static let protocolVersion = 1

    /// One field of a frame, as the frame tables list it (docs/PROTOCOL.md §3–4, docs/protocol.json).
    public struct Field: Sendable, Hashable {
        public var name: String
        /// Whether every frame of its type carries it; an optional field may be left out.
        public var isRequired: Bool

        public static func required(_ name: String) -> Field { Field(name: name, isRequired: true) }
        public static func optional(_ name: String) -> Field { Field(name: name, isRequired: false) }
    }
}
