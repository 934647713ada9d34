import ParlorImages

/// Files whose headers declare any size, with a token of image data: enough for everything
/// read from headers (inspection, the pixel budget, stripping), not meant to decode.
enum HeaderFixtures {
    /// A PNG declaring `width`×`height` with 16 bytes of IDAT data.
    static func png(width: Int, height: Int) -> [UInt8] {
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(truncatingIfNeeded: width))
        header.appendBigEndian(UInt32(truncatingIfNeeded: height))
        header += [8, 6, 0, 0, 0]
        var bytes = PNGChunk.signature
        bytes += PNGChunk(type: "IHDR", data: header).encoded
        bytes += PNGChunk(type: "IDAT", data: (0..<16).map { UInt8($0) }).encoded
        bytes += PNGChunk(type: "IEND", data: []).encoded
        return bytes
    }

    /// An APNG declaring a `width`×`height` canvas and `frames` full-canvas frames, each with
    /// 16 bytes of data.
    static func apng(width: Int, height: Int, frames: Int) -> [UInt8] {
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]
        var control: [UInt8] = []
        control.appendBigEndian(UInt32(frames))
        control.appendBigEndian(UInt32(0))
        var bytes = PNGChunk.signature + PNGChunk(type: "IHDR", data: header).encoded + PNGChunk(type: "acTL", data: control).encoded
        var sequence: UInt32 = 0
        for frame in 0..<frames {
            var frameControl: [UInt8] = []
            frameControl.appendBigEndian(sequence)
            frameControl += header[0..<8] + [UInt8](repeating: 0, count: 8) + [0, 10, 0, 100, 0, 0]
            bytes += PNGChunk(type: "fcTL", data: frameControl).encoded
            sequence += 1
            let data = (0..<16).map { UInt8($0) }
            if frame == 0 {
                bytes += PNGChunk(type: "IDAT", data: data).encoded
            } else {
                var frameData: [UInt8] = []
                frameData.appendBigEndian(sequence)
                bytes += PNGChunk(type: "fdAT", data: frameData + data).encoded
                sequence += 1
            }
        }
        return bytes + PNGChunk(type: "IEND", data: []).encoded
    }

    /// A GIF whose logical screen is `width`×`height`, with `frames` image blocks of
    /// `frameWidth`×`frameHeight` (the screen's size unless given).
    static func gif(width: Int, height: Int, frames: Int = 1, frameWidth: Int? = nil, frameHeight: Int? = nil) -> [UInt8] {
        var bytes = Array("GIF89a".utf8)
        bytes += littleEndian16(width) + littleEndian16(height)
        bytes += [0x80, 0, 0]  // a global colour table of 2 entries
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]  // loop forever
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0x08, 10, 0, 0, 0]  // graphic control: 100 ms, restore to background
            bytes += [0x2C, 0, 0, 0, 0] + littleEndian16(frameWidth ?? width) + littleEndian16(frameHeight ?? height) + [0]
            bytes += [2, 2, 0x4C, 0x01, 0]  // LZW minimum code size 2, one sub-block, terminator
        }
        return bytes + [0x3B]
    }

    /// A JPEG with a frame header of type `sof` (0xC0 baseline, 0xC2 progressive…) per size in
    /// `frames`, then one scan.
    static func jpeg(frames: [(width: Int, height: Int)], sof: UInt8 = 0xC0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xDB, 0, 67, 0] + [UInt8](repeating: 1, count: 64)
        for frame in frames {
            bytes += [0xFF, sof, 0, 17, 8] + bigEndian16(frame.height) + bigEndian16(frame.width) + [3, 1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0]
        }
        bytes += [0xFF, 0xDA, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0]
        bytes += [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD0, 0x78]  // entropy-coded data: a stuffed 0xFF, an RST0
        return bytes + [0xFF, 0xD9]
    }

    /// A JPEG of one `width`×`height` frame.
    static func jpeg(width: Int, height: Int, sof: UInt8 = 0xC0) -> [UInt8] { jpeg(frames: [(width, height)], sof: sof) }

    /// An extended WebP whose canvas is `width`×`height`: animated, with `frames` ANMF frames of
    /// 1×1 pixel (so any canvas up to 2^24 a side can be declared), or a still lossless image of
    /// the canvas's size.
    static func webp(width: Int, height: Int, animatedFrames frames: Int? = nil) -> [UInt8] {
        var header: [UInt8] = [frames == nil ? 0x00 : 0x02, 0, 0, 0]
        header += littleEndian24(width - 1) + littleEndian24(height - 1)
        var chunks = chunk("VP8X", header)
        if let frames {
            chunks += chunk("ANIM", [0, 0, 0, 0, 0, 0])
            for _ in 0..<frames {
                let frameHeader = littleEndian24(0) + littleEndian24(0) + littleEndian24(0) + littleEndian24(0) + littleEndian24(100) + [0]
                chunks += chunk("ANMF", frameHeader + chunk("VP8L", vp8l(width: 1, height: 1)))
            }
        } else {
            chunks += chunk("VP8L", vp8l(width: width, height: height))
        }
        return Array("RIFF".utf8) + MetadataFixtures.littleEndian32(chunks.count + 4) + Array("WEBP".utf8) + chunks
    }

    /// A simple lossless WebP declaring `width`×`height` (at most 16,384 a side).
    static func simpleWebP(width: Int, height: Int) -> [UInt8] {
        let chunks = chunk("VP8L", vp8l(width: width, height: height))
        return Array("RIFF".utf8) + MetadataFixtures.littleEndian32(chunks.count + 4) + Array("WEBP".utf8) + chunks
    }

    /// A VP8L header (signature, 14-bit width - 1 and height - 1) and a few bytes of data.
    static func vp8l(width: Int, height: Int) -> [UInt8] {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14
        return [0x2F] + MetadataFixtures.littleEndian32(Int(bits)) + [0, 0, 0]
    }

    static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + MetadataFixtures.littleEndian32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    static func littleEndian16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func littleEndian24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
    static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
