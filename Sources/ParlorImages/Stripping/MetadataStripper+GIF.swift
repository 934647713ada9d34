extension MetadataStripper {
    /// The application extensions kept: the looping ones (a loop count of 0 plays forever).
    private static let loopingApplications: Set<[UInt8]> = [.ascii("NETSCAPE2.0"), .ascii("ANIMEXTS1.0")]

    /// A GIF with its header, colour tables, image blocks and graphic control extensions (frame
    /// delays, disposal, transparency), and its looping extension reduced to the loop count.
    /// Comments (0xFE), plain text (0x01), every other application extension (XMP as
    /// "XMP DataXMP", ICC profiles, Photoshop resources) and bytes after the trailer are dropped.
    static func strippedGIF(_ bytes: [UInt8]) throws(ImageParseError) -> [UInt8] {
        let structure = try GIFStructure(bytes)
        var output = Array(bytes[0..<structure.headerEnd])
        output.reserveCapacity(bytes.count)
        for block in structure.blocks {
            switch block {
            case .image(let image):
                output += bytes[image.range]
            case .extensionBlock(let block):
                output += keptExtension(block, in: bytes)
            }
        }
        return output + [0x3B]
    }

    /// A graphic control extension as its one 4-byte sub-block, or a looping application
    /// extension as its identifier and loop count; nothing for any other extension.
    private static func keptExtension(_ block: GIFStructure.Extension, in bytes: [UInt8]) -> [UInt8] {
        let leading = block.leadingSubBlocks
        switch block.label {
        case 0xF9:  // graphic control
            guard let control = leading.first, control.count == 4 else { return [] }
            return [0x21, 0xF9, 4] + bytes[control] + [0]
        case 0xFF:  // application
            guard leading.count == 2, loopingApplications.contains(Array(bytes[leading[0]])) else { return [] }
            let loop = bytes[leading[1]]
            guard loop.count == 3, loop.first == 1 else { return [] }
            return [0x21, 0xFF, 11] + bytes[leading[0]] + [3] + loop + [0]
        default:
            return []
        }
    }
}
