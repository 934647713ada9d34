import ParlorImages
import ParlorKit

/// Assembles PNG frames into one APNG by copying chunks, so browsers play a sticker sequence:
/// the first frame's IHDR (and palette and colour chunks), an acTL, then per frame an fcTL and
/// its image data (IDAT for frame 0, fdAT with sequence numbers after), each CRC computed here.
enum APNGAssembler {
    /// One frame: its bytes and the name used in errors ("Wave.stickersequence/02.png").
    struct Frame: Sendable {
        var name: String
        var bytes: [UInt8]
    }

    /// Chunks copied from the first frame, before the animation control: they describe pixels
    /// shared by every frame.
    private static let sharedChunkTypes: Set<String> = ["PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs"]

    /// The APNG playing `frames` in order with `timing`.
    /// - Throws: `MessagesError` naming the frame: `.fileNotFound` when there are no frames,
    ///   `.stickerFileImproperFileFormat` for a frame that is not a still PNG or whose pixel
    ///   format or palette differs from the first, `.stickerFileImproperFileAttributes` for a
    ///   frame of another size.
    static func assemble(_ frames: [Frame], timing: SequenceTiming, sequenceName: String) throws(MessagesError) -> [UInt8] {
        guard let first = frames.first else {
            throw MessagesError(.fileNotFound, "\(sequenceName) has no frames. List its PNG frames in its Contents.json or put them in the folder.")
        }
        let parsed = try frames.map { frame throws(MessagesError) in try stillPNGChunks(frame) }
        let header = parsed[0].first { $0.type == "IHDR" }?.data ?? []
        let shared = parsed[0].prefix { $0.type != "IDAT" }.filter { sharedChunkTypes.contains($0.type) }
        for (index, chunks) in parsed.enumerated().dropFirst() {
            try requireCompatible(chunks, with: header, shared: shared, frame: frames[index], first: first)
        }

        let delay = UInt16(timing.frameDelayMilliseconds(frameCount: frames.count))
        var output = PNGChunk.signature
        output += PNGChunk(type: "IHDR", data: header).encoded
        var control: [UInt8] = []
        control.appendBigEndian(UInt32(frames.count))
        control.appendBigEndian(timing.playCount)
        output += PNGChunk(type: "acTL", data: control).encoded
        for chunk in shared { output += chunk.encoded }

        var sequence: UInt32 = 0
        for (index, chunks) in parsed.enumerated() {
            var frameControl: [UInt8] = []
            frameControl.appendBigEndian(sequence)
            frameControl.append(contentsOf: header[0..<8])  // width, height
            frameControl.appendBigEndian(UInt32(0))  // x offset
            frameControl.appendBigEndian(UInt32(0))  // y offset
            frameControl.appendBigEndian(delay)
            frameControl.appendBigEndian(UInt16(1000))
            frameControl.append(contentsOf: [0, 0])  // dispose: none; blend: source (each frame replaces the canvas)
            output += PNGChunk(type: "fcTL", data: frameControl).encoded
            sequence += 1
            for chunk in chunks where chunk.type == "IDAT" {
                if index == 0 {
                    output += chunk.encoded
                } else {
                    var frameData: [UInt8] = []
                    frameData.appendBigEndian(sequence)
                    frameData += chunk.data
                    output += PNGChunk(type: "fdAT", data: frameData).encoded
                    sequence += 1
                }
            }
        }
        output += PNGChunk(type: "IEND", data: []).encoded
        return output
    }

    private static func stillPNGChunks(_ frame: Frame) throws(MessagesError) -> [PNGChunk] {
        let info: ImageInfo
        let chunks: [PNGChunk]
        do {
            info = try ImageInspector.inspect(frame.bytes)
            chunks = info.format == .png ? try PNGChunk.chunks(of: frame.bytes) : []
        } catch {
            throw MessagesError(.stickerFileImproperFileFormat, "The frame \(frame.name) \(error.reason). Sequence frames must be PNG images.")
        }
        guard info.format == .png else {
            throw MessagesError(
                .stickerFileImproperFileFormat,
                "The frame \(frame.name) is \(info.format == .apng ? "already an animated PNG" : "a \(info.format) image"); sequence frames must be still PNG images.")
        }
        return chunks
    }

    private static func requireCompatible(
        _ chunks: [PNGChunk], with header: [UInt8], shared: [PNGChunk], frame: Frame, first: Frame
    ) throws(MessagesError) {
        let frameHeader = chunks.first { $0.type == "IHDR" }?.data ?? []
        guard frameHeader.prefix(8).elementsEqual(header.prefix(8)) else {
            throw MessagesError(
                .stickerFileImproperFileAttributes,
                "The frame \(frame.name) is \(size(of: frameHeader)) but \(first.name) is \(size(of: header)); every frame of a sequence must be the same size.")
        }
        guard frameHeader == header else {
            throw MessagesError(
                .stickerFileImproperFileFormat,
                "The frame \(frame.name) uses another pixel format (bit depth, colour type or interlacing) than \(first.name); save every frame the same way.")
        }
        let palette = { (chunks: [PNGChunk]) in chunks.filter { $0.type == "PLTE" || $0.type == "tRNS" } }
        guard palette(chunks) == palette(shared) else {
            throw MessagesError(
                .stickerFileImproperFileFormat,
                "The frame \(frame.name) uses another colour palette than \(first.name); save the frames with one shared palette or as RGBA.")
        }
    }

    private static func size(of header: [UInt8]) -> String {
        var reader = ByteReader(header, format: "PNG")
        guard let width = try? reader.uint32BigEndian(), let height = try? reader.uint32BigEndian() else { return "of unknown size" }
        return "\(width)×\(height) px"
    }
}
