/// Checks bytes as UTF-8 as they arrive, a piece at a time, as RFC 6455 §8.1 asks of a text
/// message: a message is refused at the first byte that cannot be UTF-8, even in its first
/// fragment and even when a code point is split between fragments. Rejects what the Unicode
/// standard rejects (Table 3-7): overlong forms (`C0 80`, `E0 80 80`), surrogates (`ED A0 80`),
/// code points past U+10FFFF (`F4 90 80 80`), and the bytes `C0`, `C1`, `F5`…`FF`.
///
/// ```swift
/// var validator = UTF8Validator()
/// guard validator.consume(firstFragment) else { /* close with 1007 */ }
/// guard validator.consume(lastFragment), validator.isComplete else { /* close with 1007 */ }
/// ```
public struct UTF8Validator: Sendable {
    /// Continuation bytes the code point under way still needs.
    private var needed = 0
    /// The range the next continuation byte must be in (narrower right after some lead bytes).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// False once a byte could not be UTF-8; it stays false.
    public private(set) var isValid = true

    public init() {}

    /// Whether everything consumed is valid UTF-8 and no code point is left half-way.
    public var isComplete: Bool { isValid && needed == 0 }

    /// Consumes the next bytes.
    /// - Returns: whether every byte so far can still be UTF-8.
    @discardableResult
    public mutating func consume(_ bytes: some Sequence<UInt8>) -> Bool {
        Array(bytes).withUnsafeBytes { consume($0) }
    }

    /// Consumes the next bytes, in place (a frame's buffer): one loop, with no generic code to
    /// specialise across modules.
    /// - Returns: whether every byte so far can still be UTF-8.
    @discardableResult
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard isValid else { return false }
        for byte in bytes {
            guard needed == 0 else {
                guard byte >= lower, byte <= upper else { return fail() }
                needed -= 1
                (lower, upper) = (0x80, 0xBF)
                continue
            }
            switch byte {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: needed = 1
            case 0xE0: (needed, lower) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE, 0xEF: needed = 2
            case 0xED: (needed, upper) = (2, 0x9F)
            case 0xF0: (needed, lower) = (3, 0x90)
            case 0xF1...0xF3: needed = 3
            case 0xF4: (needed, upper) = (3, 0x8F)
            default: return fail()
            }
        }
        return true
    }

    /// Whether `bytes` are a whole valid UTF-8 text.
    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var validator = UTF8Validator()
        return validator.consume(bytes) && validator.isComplete
    }

    private mutating func fail() -> Bool {
        isValid = false
        return false
    }
}
