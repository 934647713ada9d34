extension HTMLEntities {
    /// The characters `&#128;`–`&#159;` stand for, as the HTML standard maps them (Windows-1252's,
    /// which pages meant); a zero where the number is kept as it is (0x81, 0x8D, 0x8F, 0x90, 0x9D).
    static let windows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// The largest number kept while reading digits: anything past U+10FFFF is the same error.
    private static let saturation: UInt32 = 0x11_0000

    /// The character of the numeric reference at `start` (`&#…`) and its length in bytes; nil
    /// when no digit follows `&#` or `&#x`.
    static func numericReference(in bytes: [UInt8], at start: Int) -> (String, Int)? {
        var index = start + 2
        var radix: UInt32 = 10
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 1
        }
        let firstDigit = index
        var number: UInt32 = 0
        while index < bytes.count, let digit = digitValue(bytes[index], radix: radix) {
            number = min(number * radix + digit, saturation)
            index += 1
        }
        guard index > firstDigit else { return nil }
        if index < bytes.count, bytes[index] == semicolon { index += 1 }
        return (character(forNumber: number), index - start)
    }

    /// What a numeric reference to `number` reads as, by the standard's rules.
    static func character(forNumber number: UInt32) -> String {
        if (0x80...0x9F).contains(number), let scalar = Unicode.Scalar(windows1252[Int(number - 0x80)]), scalar != "\0" {
            return String(Character(scalar))
        }
        guard number != 0, let scalar = Unicode.Scalar(number) else { return "\u{FFFD}" }  // 0, surrogates, past U+10FFFF
        return String(Character(scalar))
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
