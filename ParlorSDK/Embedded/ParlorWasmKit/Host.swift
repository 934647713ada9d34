// What Parlor gives a module (docs/APPS-WASM.md §2): random bytes, the time, a log line. The
// imports are declared in runtime.c, with C's calling convention (a Swift function has more
// parameters in WebAssembly than it shows).

@_extern(c, "parlor_random_bytes")
func parlorRandomBytes(_ pointer: UnsafeMutableRawPointer, _ length: Int32)

@_extern(c, "parlor_log")
func parlorLog(_ pointer: UnsafeRawPointer, _ length: Int32)

@_extern(c, "parlor_now_ms")
func parlorNowMilliseconds() -> Int64

public enum Host {
    /// A new random UUID in upper case (a new session's id).
    public static func newID() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { parlorRandomBytes(base, 16) } }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        return uuidText(bytes)
    }

    /// A line in the operator's log (at most 16 a call, 1 KiB each).
    public static func log(_ line: String) {
        let bytes = Array(line.utf8)
        bytes.withUnsafeBytes { if let base = $0.baseAddress { parlorLog(base, Int32($0.count)) } }
    }

    /// Milliseconds since 1970, the same through one call.
    public static func nowMilliseconds() -> Int64 { parlorNowMilliseconds() }
}
