extension MetadataStripper {
    /// A WebP with only the chunks a decoder needs. A simple file (VP8 or VP8L) keeps its one
    /// image chunk. An extended file (VP8X) keeps ICCP, ALPH and the image chunk, or for an
    /// animation ICCP, ANIM and each ANMF with only its ALPH and image sub-chunks; EXIF, XMP and
    /// unknown chunks are dropped, the VP8X header's EXIF and XMP flags (and its reserved bits)
    /// cleared, and the RIFF size written anew. Bytes after the RIFF chunk are dropped.
    static func strippedWebP(_ bytes: [UInt8]) throws(ImageParseError) -> [UInt8] {
        let structure = try WebPStructure(bytes)
        guard let first = structure.chunks.first else { throw ImageParseError("is a WebP image without any chunk") }
        var chunks: [UInt8] = []
        if first.fourCC != "VP8X" {
            chunks = riffChunk(first.fourCC, bytes[first.payload])
        } else {
            guard first.payload.count >= 10 else { throw ImageParseError("is a WebP image with a damaged VP8X header") }
            let flags = bytes[first.payload.lowerBound]
            let kept = flags & (WebPStructure.ExtendedFlag.iccProfile | WebPStructure.ExtendedFlag.alpha | WebPStructure.ExtendedFlag.animation)
            let canvas = bytes[first.payload.lowerBound + 4..<first.payload.lowerBound + 10]
            chunks = riffChunk("VP8X", [kept, 0, 0, 0] + canvas)
            let animated = kept & WebPStructure.ExtendedFlag.animation != 0
            let keptTypes: Set<String> = animated ? ["ICCP", "ANIM", "ANMF"] : ["ICCP", "ALPH", "VP8 ", "VP8L"]
            for chunk in firstOfEachKind(structure.chunks.dropFirst(), keptTypes, repeatable: "ANMF") {
                chunks += chunk.fourCC == "ANMF" ? try strippedFrame(chunk, in: bytes) : riffChunk(chunk.fourCC, bytes[chunk.payload])
            }
        }
        var output = Array.ascii("RIFF")
        output.appendLittleEndian(UInt32(truncatingIfNeeded: 4 + chunks.count))
        return output + Array.ascii("WEBP") + chunks
    }

    /// An ANMF chunk with its 16-byte frame header and only its ALPH, VP8 and VP8L sub-chunks.
    private static func strippedFrame(_ frame: WebPStructure.Chunk, in bytes: [UInt8]) throws(ImageParseError) -> [UInt8] {
        guard frame.payload.count >= 16 else { throw ImageParseError("is an animated WebP with a damaged frame header (ANMF)") }
        let dataStart = frame.payload.lowerBound + 16
        var payload = Array(bytes[frame.payload.lowerBound..<dataStart])
        let subChunks = try WebPStructure.chunks(in: bytes, range: dataStart..<frame.payload.upperBound)
        for chunk in firstOfEachKind(subChunks, ["ALPH", "VP8 ", "VP8L"]) {
            payload += riffChunk(chunk.fourCC, bytes[chunk.payload])
        }
        return riffChunk("ANMF", payload)
    }

    /// The chunks of `types`, each kind once (the first met; VP8 and VP8L are one kind, the
    /// image), except `repeatable`, kept every time: a decoder reads only the first, so a second
    /// could only carry something else.
    private static func firstOfEachKind<Chunks: Sequence>(
        _ chunks: Chunks, _ types: Set<String>, repeatable: String? = nil
    ) -> [WebPStructure.Chunk] where Chunks.Element == WebPStructure.Chunk {
        var seen: Set<String> = []
        return chunks.filter { chunk in
            guard types.contains(chunk.fourCC) else { return false }
            if chunk.fourCC == repeatable { return true }
            let kind = chunk.fourCC == "VP8L" ? "VP8 " : chunk.fourCC
            return seen.insert(kind).inserted
        }
    }

    /// A RIFF chunk: the four-character code, the little-endian payload size, the payload, and
    /// a zero byte when the size is odd.
    private static func riffChunk<Payload: Collection>(_ fourCC: String, _ payload: Payload) -> [UInt8] where Payload.Element == UInt8 {
        var bytes = Array.ascii(fourCC)
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: payload.count))
        bytes += payload
        if payload.count % 2 == 1 { bytes.append(0) }
        return bytes
    }
}
