extension MetadataStripper {
    /// The ancillary PNG chunks kept: transparency, colour (so the pixels show in the colours
    /// meant), background, pixel density (WebKit sizes images by it), histogram, and the APNG
    /// animation chunks. Everything else is dropped: eXIf, tEXt, zTXt, iTXt, tIME, sPLT, oFFs,
    /// pCAL, sCAL, sTER, dSIG, C2PA's caBX, and private chunks.
    static let keptPNGChunks: Set<String> = [
        "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "cICP", "mDCv", "cLLI", "bKGD", "pHYs", "hIST",
        "acTL", "fcTL", "fdAT",
    ]

    /// The critical chunks a PNG decoder knows.
    private static let criticalPNGChunks: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND"]

    /// A PNG or APNG with only the critical chunks and `keptPNGChunks`, each copied with its
    /// data and CRC unchanged; bytes after IEND are dropped.
    static func strippedPNG(_ bytes: [UInt8]) throws(ImageParseError) -> [UInt8] {
        var output = PNGChunk.signature
        output.reserveCapacity(bytes.count)
        for chunk in try PNGChunk.chunks(of: bytes) {
            if chunk.isCritical {
                guard criticalPNGChunks.contains(chunk.type) else {
                    throw ImageParseError("is a PNG with a \(chunk.type) chunk, which no browser can show")
                }
                output += chunk.encoded
            } else if keptPNGChunks.contains(chunk.type) {
                output += chunk.encoded
            }
        }
        return output
    }
}
