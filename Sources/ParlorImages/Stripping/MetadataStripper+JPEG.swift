extension MetadataStripper {
    /// A JPEG with only the segments a decoder needs: frame and scan headers, tables
    /// (DQT, DHT, DAC, DRI, DNL, DHP, EXP), the entropy-coded data, the JFIF header without its
    /// thumbnail, ICC profile chunks (APP2) and the Adobe colour-transform header (APP14). Exif,
    /// XMP and extended XMP (APP1), IPTC (APP13), comments, JFXX thumbnails, MPF indexes, maker
    /// APPn segments and everything after EOI are dropped. An Exif orientation other than 1 is
    /// written back as a minimal Exif segment holding that one tag, so the photo still turns the
    /// right way up.
    ///
    /// Output order: SOI, the JFIF header, the orientation, then the kept segments in file order.
    static func strippedJPEG(_ bytes: [UInt8]) throws(ImageParseError) -> [UInt8] {
        let structure = try JPEGStructure(bytes)
        var jfif: [UInt8] = []
        var body: [UInt8] = []
        body.reserveCapacity(bytes.count)
        for part in structure.parts {
            switch part {
            case .segment(let marker, let payload):
                let data = bytes[payload]
                if marker == 0xE0 {
                    if jfif.isEmpty, let header = jfifWithoutThumbnail(data) { jfif = segment(0xE0, header) }
                } else if marker == 0xEE {
                    if data.starts(with: Array.ascii("Adobe")), data.count >= 12 { body += segment(0xEE, data.prefix(12)) }
                } else if keepsJPEGSegment(marker, data) {
                    body += segment(marker, data)
                }
            case .standalone(let marker):
                body += [0xFF, marker]
            case .entropyCodedData(let range):
                body += bytes[range]
            }
        }
        var output: [UInt8] = [0xFF, 0xD8] + jfif
        if let orientation = ExifOrientation.first(in: bytes, structure) {
            output += segment(0xE1, ExifOrientation.minimalExif(orientation))
        }
        return output + body + [0xFF, 0xD9]
    }

    /// Whether a segment other than APP0 and APP14 is one a decoder needs.
    private static func keepsJPEGSegment(_ marker: UInt8, _ data: ArraySlice<UInt8>) -> Bool {
        switch marker {
        case 0xC0...0xCF:  // SOFn, DHT, DAC; not JPG (C8), reserved for extensions
            marker != 0xC8
        case 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF:  // SOS, DQT, DNL, DRI, DHP, EXP
            true
        case 0xE2:  // APP2: ICC profile chunks only (not MPF, not FlashPix)
            data.starts(with: Array.ascii("ICC_PROFILE\u{0}"))
        default:  // APP1 (Exif, XMP), APP3–APP13, APP15, COM, JPGn, reserved markers
            false
        }
    }

    /// A JFIF APP0 payload with its thumbnail removed (version, units and density kept), or nil
    /// for an APP0 that is not JFIF (JFXX holds only a thumbnail).
    private static func jfifWithoutThumbnail(_ data: ArraySlice<UInt8>) -> [UInt8]? {
        guard data.starts(with: Array.ascii("JFIF\u{0}")), data.count >= 14 else { return nil }
        return Array(data.prefix(12)) + [0, 0]
    }

    /// A marker segment: 0xFF, the marker, the big-endian length (payload + 2), the payload.
    private static func segment<Payload: Collection>(_ marker: UInt8, _ payload: Payload) -> [UInt8] where Payload.Element == UInt8 {
        var bytes: [UInt8] = [0xFF, marker]
        bytes.appendBigEndian(UInt16(payload.count + 2))
        bytes += payload
        return bytes
    }
}
