// Hello in Embedded Swift, as one WebAssembly file Parlor runs itself (docs/APPS-WASM.md): the
// smallest app the ABI allows, built by the Swift toolchain alone (./build). Embedded Swift has no
// Foundation and no Codable, so the answer is written as bytes; every call answers with the same
// view, which is a valid answer to every hook (no state, no effects; `validate` accepts).

/// The answer of the last call, kept alive until Parlor reads it.
nonisolated(unsafe) var answer: [UInt8] = []

@_expose(wasm, "parlor_alloc")
@_cdecl("parlor_alloc")
func parlorAlloc(_ size: Int32) -> UnsafeMutableRawPointer? {
    size < 0 ? nil : UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 16)
}

@_expose(wasm, "parlor_call")
@_cdecl("parlor_call")
func parlorCall(_ pointer: UnsafePointer<UInt8>, _ length: Int32) -> Int64 {
    let call = UnsafeBufferPointer(start: pointer, count: Int(length))
    // The call's JSON starts with its id: {"id":"<id>",… (Parlor writes it first).
    let prefix: [UInt8] = Array(#"{"id":""#.utf8)
    var id: [UInt8] = []
    if call.count > prefix.count, Array(call[0..<prefix.count]) == prefix {
        var index = prefix.count
        while index < call.count, call[index] != UInt8(ascii: "\"") {
            id.append(call[index])
            index += 1
        }
    }
    answer = Array(#"{"type":"result","result":{"id":""#.utf8) + id
        + Array(#"","view":{"type":"text","text":"Hello from Embedded Swift","style":"title"}}}"#.utf8)
    let address = answer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    return Int64(address) << 32 | Int64(answer.count)
}
