/// The WebAssembly binary format as far as Parlor reads and writes it itself (WasmKit parses the
/// rest): LEB128 numbers, names, and sections. Written once for the reset plan's rewriting, the
/// start-function check and the manifest's custom section.
enum WasmBinary {
    /// The sections after the 8-byte header, in order; nil when a size runs past the end.
    static func sections(of bytes: [UInt8]) -> [(id: UInt8, payload: ArraySlice<UInt8>)]? {
        guard bytes.count >= 8 else { return nil }
        var reader = Reader(bytes: bytes, at: 8)
        var sections: [(id: UInt8, payload: ArraySlice<UInt8>)] = []
        while !reader.atEnd {
            guard let id = reader.byte(), let size = reader.u32(), let payload = reader.take(Int(size)) else { return nil }
            sections.append((id, payload))
        }
        return sections
    }

    /// A section: its id, its size and its payload.
    static func section(_ id: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [id] + leb(UInt32(payload.count)) + payload
    }

    static func leb(_ value: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        var rest = value
        repeat {
            let byte = UInt8(rest & 0x7F)
            rest >>= 7
            out.append(byte | (rest == 0 ? 0 : 0x80))
        } while rest != 0
        return out
    }

    static func name(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return leb(UInt32(bytes.count)) + bytes
    }

    /// Reads a module's bytes; every read answers nil past the end or for a malformed number.
    struct Reader {
        let bytes: [UInt8]
        var at: Int

        var atEnd: Bool { at >= bytes.count }

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= bytes.count - at else { return nil }
            defer { at += count }
            return bytes[at..<at + count]
        }

        /// An unsigned LEB128 of at most 32 bits.
        mutating func u32() -> UInt32? {
            var value: UInt32 = 0
            for shift in stride(from: 0, through: 28, by: 7) {
                guard let byte = byte() else { return nil }
                value |= UInt32(byte & 0x7F) << UInt32(shift)
                if byte < 0x80 { return shift == 28 && byte > 0x0F ? nil : value }
            }
            return nil
        }

        /// A signed LEB128 of at most `bits` bits, skipped.
        mutating func skipSigned(bits: Int) -> Bool {
            for _ in 0..<(bits + 6) / 7 {
                guard let byte = byte() else { return false }
                if byte < 0x80 { return true }
            }
            return false
        }

        mutating func name() -> [UInt8]? {
            guard let count = u32(), let bytes = take(Int(count)) else { return nil }
            return Array(bytes)
        }

        /// Skips a constant expression through its `end`; false for an instruction this reader
        /// does not know there.
        mutating func constantExpression() -> Bool {
            while let opcode = byte() {
                switch opcode {
                case 0x0B: return true  // end
                case 0x41: guard skipSigned(bits: 32) else { return false }  // i32.const
                case 0x42: guard skipSigned(bits: 64) else { return false }  // i64.const
                case 0x43: guard take(4) != nil else { return false }  // f32.const
                case 0x44: guard take(8) != nil else { return false }  // f64.const
                case 0x23, 0xD2: guard u32() != nil else { return false }  // global.get, ref.func
                case 0xD0: guard byte() != nil else { return false }  // ref.null
                case 0x6A, 0x6B, 0x6C, 0x7C, 0x7D, 0x7E: break  // extended constants: add, sub, mul
                default: return false
                }
            }
            return false
        }
    }
}
