import Foundation

extension Identifier {
    /// The number of characters of `compactString`.
    public static var compactLength: Int { 22 }

    /// The id's 16 bytes as unpadded base64url: 22 characters instead of the UUID string's 36,
    /// for URLs that carry many ids (an RSVP holds 160 answers in its 5,000 characters).
    public var compactString: String {
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) } + [0, 0]  // 18 bytes: six groups of three
        var characters: [UInt8] = []
        characters.reserveCapacity(24)
        for start in stride(from: 0, to: 18, by: 3) {
            let group = UInt32(bytes[start]) << 16 | UInt32(bytes[start + 1]) << 8 | UInt32(bytes[start + 2])
            for shift in [18, 12, 6, 0] { characters.append(Base64URL.alphabet[Int(group >> UInt32(shift) & 63)]) }
        }
        return String(decoding: characters.prefix(Self.compactLength), as: UTF8.self)
    }

    /// Reads `compactString`'s form; nil unless `text` is exactly the 22 characters of an id.
    /// - Parameter text: an id as `compactString` writes it.
    public init?(compactString text: String) {
        self.init(compact: Array(text.utf8)[...])
    }

    /// Reads 22 base64url bytes; nil when they are not the canonical spelling of 16 bytes.
    private init?(compact characters: ArraySlice<UInt8>) {
        guard characters.count == Self.compactLength else { return nil }
        var sextets: [UInt8] = []
        sextets.reserveCapacity(24)
        for character in characters {
            guard let value = Base64URL.values[Int(character)] else { return nil }
            sextets.append(value)
        }
        // 22 characters carry 132 bits: the last character's 4 spare bits must be zero.
        guard sextets[21] & 0b1111 == 0 else { return nil }
        sextets += [0, 0]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(18)
        for start in stride(from: 0, to: 24, by: 4) {
            let group = UInt32(sextets[start]) << 18 | UInt32(sextets[start + 1]) << 12 | UInt32(sextets[start + 2]) << 6 | UInt32(sextets[start + 3])
            bytes += [UInt8(group >> 16 & 255), UInt8(group >> 8 & 255), UInt8(group & 255)]
        }
        let b = bytes
        self.init(UUID(uuid: (
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
    }

    /// Reads ids written one after another in their compact form.
    /// - Parameters:
    ///   - text: the ids' `compactString`s, one after another.
    ///   - item: the URL item the list comes from, named in the error.
    /// - Throws: `.malformedURLState` naming `item` when the text is not a whole number of valid ids.
    public static func list(compact text: String, item: String) throws(MessagesError) -> [Self] {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: compactLength) else {
            throw MessagesError(.malformedURLState, "The '\(item)' list of ids is cut short.")
        }
        var ids: [Self] = []
        for start in stride(from: 0, to: characters.count, by: compactLength) {
            guard let id = Self(compact: characters[start..<start + compactLength]) else {
                throw MessagesError(.malformedURLState, "The '\(item)' list holds something that is not an id.")
            }
            ids.append(id)
        }
        return ids
    }
}

/// The base64url alphabet (RFC 4648 §5), and each byte's value in it.
private enum Base64URL {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    static let values: [UInt8?] = (0..<256).map { byte in alphabet.firstIndex(of: UInt8(byte)).map(UInt8.init) }
}
