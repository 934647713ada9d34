// The bytes the kit writes (an answer, a URL, a string read with escapes), appended with the
// engine's own memory.copy. An `[UInt8]`'s `append(contentsOf:)` copies byte by byte in Embedded
// Swift, and under Parlor's interpreter every byte copied that way costs several operators.

@_extern(c, "memcmp")
func memcmp(_ a: UnsafeRawPointer?, _ b: UnsafeRawPointer?, _ count: Int) -> Int32

/// A growing run of bytes, owned by whoever holds it.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// Whether the bytes are still this writer's (`finish` hands them over).
    private var owns = true

    deinit { if owns { base.deallocate() } }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        UnsafeMutableRawPointer(larger).copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = larger
        capacity = grown
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { reserve(1) }
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: from, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends a literal's bytes, read where the literal is.
    mutating func appendLiteral(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ text: String) {
        withBytes(of: text) { append($0) }
    }

    /// Appends `value` in decimal, as JSON writes a whole number.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let start = count
        var rest = value.magnitude
        repeat {
            append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        // Written from the last digit: put them in order.
        var low = start, high = count - 1
        while low < high {
            (base[low], base[high]) = (base[high], base[low])
            low += 1
            high -= 1
        }
    }

    /// Takes back the last byte written.
    mutating func removeLast() {
        if count > 0 { count -= 1 }
    }

    /// The bytes as a string (bytes that are not UTF-8 replaced, as `String(decoding:)` does).
    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// The bytes written, handed over as they are, without a copy: the writer is done with.
    consuming func finish() -> WrittenBytes {
        owns = false
        return WrittenBytes(base: base, count: count)
    }

    /// The bytes as an array.
    var array: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let to = buffer.baseAddress, count > 0 { UnsafeMutableRawPointer(to).copyMemory(from: base, byteCount: count) }
            initialized = count
        }
    }
}

/// Bytes a `ByteWriter` wrote, kept where it wrote them (a view's text, an answer).
final class WrittenBytes {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    init(base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { base.deallocate() }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
}
