/// The JSON shapes of Parlor's protocols. docs/PROTOCOL.md documents them.
///
/// Declared here with the frames clients send (`ClientRequest`), which the fuzzer reads; the
/// shapes the server sends extend it in ParlorServer.
public enum Wire {
    /// The WebSocket protocol's version; `hello` frames name it.
    public static let protocolVersion = 1
}
