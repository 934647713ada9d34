import Foundation

/// UUIDs to and from their canonical text, and new random ones, without Foundation's C helpers:
/// on Linux it formats with `snprintf`, parses with `sscanf` and opens `/dev/urandom` for every
/// new UUID (about 1.5% of a server's CPU under a tic-tac-toe game, where every identifier crosses
/// the wire as text). The same upper-case text; the parser takes the canonical form only (36
/// characters, dashes at 8, 13, 18 and 23, hex digits of either case everywhere else), where
/// Foundation's `sscanf` on Linux also took spaces, signs, `0x` and a string cut by a NUL, so that
/// different texts named one id.
@_spi(Hosting) public enum UUIDText {
    /// A new version 4 (random) UUID, from the system's secure generator.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }

    /// `uuid.uuidString`.
    public static func string(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var index = 0
                for (offset, byte) in bytes.enumerated() {
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                        out[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    out[index] = Hex.digits[Int(byte >> 4)]
                    out[index + 1] = Hex.digits[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }

    /// `UUID(uuidString: text)`.
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard utf8[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = Hex.value(utf8[position]), let low = Hex.value(utf8[position + 1]) else { return false }
                    out[index] = high << 4 | low
                    position += 2
                }
                return true
            }
            return parsed ? UUID(uuid: bytes) : nil
        }
    }
}
