// What Parlor gives a module (docs/APPS-WASM.md §2): random bytes, the time, a log line, HTTP,
// storing an image. The
// imports are declared in runtime.c, with C's calling convention (a Swift function has more
// parameters in WebAssembly than it shows).

@_extern(c, "parlor_random_bytes")
func parlorRandomBytes(_ pointer: UnsafeMutableRawPointer, _ length: Int32)

@_extern(c, "parlor_log")
func parlorLog(_ pointer: UnsafeRawPointer, _ length: Int32)

@_extern(c, "parlor_now_ms")
func parlorNowMilliseconds() -> Int64

@_extern(c, "parlor_fetch")
func parlorFetch(_ request: UnsafeRawPointer, _ length: Int32, _ out: UnsafeMutableRawPointer, _ capacity: Int32) -> Int32

@_extern(c, "parlor_upload")
func parlorUpload(_ image: UnsafeRawPointer, _ length: Int32, _ out: UnsafeMutableRawPointer, _ capacity: Int32) -> Int32

/// The answer to `Host.fetch`, whatever its status.
public struct FetchResponse {
    /// The HTTP status code (200, 404).
    public var status: Int
    /// The header fields, as an object of strings.
    public var headers: JSON
    /// The body, as UTF-8 text.
    public var body: String
}

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
        let bytes = utf8Bytes(of: line)
        bytes.withUnsafeBytes { if let base = $0.baseAddress { parlorLog(base, Int32($0.count)) } }
    }

    /// Milliseconds since 1970, the same through one call.
    public static func nowMilliseconds() -> Int64 { parlorNowMilliseconds() }

    /// Sends an HTTP request through Parlor, only to the hosts the manifest allows
    /// (`allowedHosts`), from the hooks that run for a person (`handle`, `willBecomeActive`,
    /// `didReceive`…; not `body`), within the call's time; docs/APPS-WASM.md §2 has the limits.
    public static func fetch(
        _ url: String, method: String = "GET", headers: [(String, String)] = [], body: String? = nil
    ) -> Result<FetchResponse, AppError> {
        var members: [(String, JSON)] = [("url", .string(url)), ("method", .string(method.uppercased()))]
        if !headers.isEmpty { members.append(("headers", .object(headers.map { ($0.0, JSON.string($0.1)) }))) }
        if let body { members.append(("body", .string(body))) }
        var request: [UInt8] = []
        JSON.object(members).write(to: &request)
        switch ask(parlorFetch, request, failure: .networkFailure) {
        case .failure(let error): return .failure(error)
        case .success(let answer):
            return .success(FetchResponse(status: answer["status"].int ?? 0, headers: answer["headers"], body: answer["body"].string ?? ""))
        }
    }

    /// Stores `image` (a PNG, JPEG, GIF or WebP file) for the person, under the rules of every
    /// upload (size and pixels, a photo's hidden details removed), from the hooks that run for a
    /// person (not `body`), at most 8 a call; show it with `ImageSource.upload(id)`. The same
    /// bytes give the same id.
    public static func upload(_ image: [UInt8]) -> Result<String, AppError> {
        switch ask(parlorUpload, image, failure: .unknown) {
        case .failure(let error): return .failure(error)
        case .success(let answer):
            guard let id = answer["upload"].string else { return .failure(AppError(.unknown, "Parlor's answer names no upload.")) }
            return .success(id)
        }
    }

    /// Asks the host function `function` with `request`, and reads its JSON answer: given more
    /// room when the answer did not fit (the host keeps it: the request is not made again); an
    /// answer `{"error": {"code", "message"}}` is that failure.
    private static func ask(
        _ function: (UnsafeRawPointer, Int32, UnsafeMutableRawPointer, Int32) -> Int32, _ request: [UInt8], failure: ErrorCode
    ) -> Result<JSON, AppError> {
        var out = [UInt8](repeating: 0, count: 4096)
        while true {
            let length = request.withUnsafeBytes { requestBytes in
                out.withUnsafeMutableBytes { outBytes -> Int32 in
                    guard let requestBase = requestBytes.baseAddress ?? UnsafeRawPointer(outBytes.baseAddress), let outBase = outBytes.baseAddress else { return -2 }
                    return function(requestBase, Int32(requestBytes.count), outBase, Int32(outBytes.count))
                }
            }
            guard length >= 0 else { return .failure(AppError(failure, "Parlor did not answer.")) }
            // Too long for the room given: asked again with room, it is not made again.
            if Int(length) > out.count {
                out = [UInt8](repeating: 0, count: Int(length))
                continue
            }
            let read: JSON? = out.withUnsafeBufferPointer { buffer in
                do throws(JSONError) {
                    return try JSON(parsing: UnsafeBufferPointer(rebasing: buffer[0..<Int(length)]))
                } catch {
                    return nil
                }
            }
            guard let answer = read else { return .failure(AppError(failure, "Parlor's answer could not be read.")) }
            if !answer["error"].isNull {
                let code = answer["error"]["code"].string.flatMap { ErrorCode(rawValue: $0) } ?? failure
                return .failure(AppError(code, answer["error"]["message"].string ?? "It failed."))
            }
            return .success(answer)
        }
    }
}
