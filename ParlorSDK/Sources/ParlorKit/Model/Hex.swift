/// Hexadecimal digits as bytes, for the hand-written codecs (`UUIDText`, `PercentEncoding`, and
/// percent-decoding in `QueryItems`).
enum Hex {
    /// The upper-case digits, by value.
    static let digits = Array("0123456789ABCDEF".utf8)

    /// The value of one hex digit of either case; nil for any other byte.
    static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
