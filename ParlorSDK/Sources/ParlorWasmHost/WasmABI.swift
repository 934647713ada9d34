/// The WebAssembly app ABI (docs/APPS-WASM.md), written once: the names a module exports and may
/// import, and the custom section that carries its manifest. Calls and answers are the app
/// connection protocol's JSON (docs/APPS-PROTOCOL.md), carried through the module's memory.
public enum WasmABI {
    /// The ABI's version, which `docs/APPS-WASM.md` describes.
    public static let version = 1

    /// The module's linear memory, exported.
    public static let memoryExport = "memory"
    /// `parlor_alloc(size: i32) -> i32`: a place for `size` bytes the host writes a call into; 0
    /// when there is none.
    public static let allocExport = "parlor_alloc"
    /// `parlor_call(pointer: i32, length: i32) -> i64`: answers the call (an `AppWire.Call` as
    /// JSON at `pointer`); returns where its answer is, `pointer << 32 | length`, an
    /// `AppWire.AppFrame` (`result` or `refuse`) as JSON.
    public static let callExport = "parlor_call"

    /// The one module apps import from.
    public static let importModule = "parlor"

    /// What an app may ask the host for: nothing else (no file, socket or clock of its own).
    public enum HostFunction: String, CaseIterable, Sendable {
        /// `log(pointer: i32, length: i32)`: a line of UTF-8 for the operator's log.
        case log
        /// `now_ms() -> i64`: milliseconds since 1970, the same through one call.
        case nowMilliseconds = "now_ms"
        /// `random_bytes(pointer: i32, length: i32)`: fills the place with random bytes.
        case randomBytes = "random_bytes"
        /// `container_get(key: i32, keyLength: i32, out: i32, capacity: i32) -> i32`: copies the
        /// JSON stored under the key (in the person's container) to `out`, up to `capacity`
        /// bytes; returns its whole length (larger than `capacity`: ask again with room), -1 when
        /// nothing is stored, -2 when the read is refused (too many in one call, or the container
        /// did not answer in time).
        case containerGet = "container_get"
        /// `fetch(request: i32, requestLength: i32, out: i32, capacity: i32) -> i32`: sends the
        /// HTTP request described at `request` (`{"url", "method", "headers", "body"}` as JSON;
        /// all but `url` may be left out) through Parlor, to the hosts the manifest allows only,
        /// and copies its answer to `out` as JSON, up to `capacity` bytes: `{"status", "headers",
        /// "body"}` (the body as UTF-8 text) or `{"error": {"code", "message"}}` (a description
        /// Parlor cannot read, more than `maxFetchesPerCall` requests, a hook with no person
        /// behind it such as `render`, a host the manifest does not allow, a failure). Returns the
        /// answer's whole length; larger than `capacity`, nothing was copied: ask again with room,
        /// which does not send the request again.
        case fetch
        /// `upload(image: i32, length: i32, out: i32, capacity: i32) -> i32`: stores the image
        /// at `image` (a PNG, JPEG, GIF or WebP file) for the person, under the rules of every
        /// upload (APPS-PROTOCOL's `upload`: size and pixel limits, a photo's hidden details
        /// removed, the person's quota), and copies `{"upload": "<id>"}` to `out`, the id an image
        /// source names (`{"upload": id}`), or `{"error": {"code", "message"}}` (more than
        /// `AppWire.maxUploadsPerCall` in one call, a hook with no person behind it, a file that
        /// is not an image). Returns the answer's whole length, as `fetch` does.
        case upload

        /// Its WebAssembly signature.
        var signature: (parameters: [Kind], results: [Kind]) {
            switch self {
            case .log, .randomBytes: ([.i32, .i32], [])
            case .nowMilliseconds: ([], [.i64])
            case .containerGet, .fetch, .upload: ([.i32, .i32, .i32, .i32], [.i32])
            }
        }
    }

    /// A value's type in a signature.
    enum Kind: Sendable { case i32, i64 }

    /// The custom section holding the app's manifest (`AppManifest` as JSON).
    public static let manifestSection = "parlor.manifest"
    /// What `container_get` answers when nothing is stored, and when it refuses.
    static let absent: Int32 = -1
    static let refused: Int32 = -2
    /// The most requests one call sends, the longest request description, and the largest
    /// answer one copies in (a longer body fails that request with `networkFailure`).
    static let maxFetchesPerCall = 4
    static let maxFetchRequestBytes = 64 * 1024
    static let maxFetchAnswerBytes = 1024 * 1024
    /// The most log lines one call writes, and the longest.
    static let maxLogLinesPerCall = 16
    static let maxLogLineBytes = 1024
}
