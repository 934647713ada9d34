import Foundation
import ParlorImages
import ParlorKit
@testable import ParlorStickers

/// Synthesizes minimal, well-formed image files of any declared size (headers only; the
/// pixels are not meant to decode) and writes packs into a temporary folder.
enum Fixtures {
    /// A PNG declaring `width`×`height`, padded with `padding` bytes of IDAT data.
    static func png(width: Int, height: Int, padding: Int = 16, colorType: UInt8 = 6, seed: UInt8 = 0) -> Data {
        Data(pngBytes(width: width, height: height, padding: padding, colorType: colorType, seed: seed))
    }

    static func pngBytes(width: Int, height: Int, padding: Int = 16, colorType: UInt8 = 6, seed: UInt8 = 0) -> [UInt8] {
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(truncatingIfNeeded: width))
        header.appendBigEndian(UInt32(truncatingIfNeeded: height))
        header += [8, colorType, 0, 0, 0]
        var bytes = PNGChunk.signature
        bytes += PNGChunk(type: "IHDR", data: header).encoded
        if colorType == 3 { bytes += PNGChunk(type: "PLTE", data: [0, 0, 0, 255, 255, 255]).encoded }
        bytes += PNGChunk(type: "IDAT", data: (0..<padding).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) }).encoded
        bytes += PNGChunk(type: "IEND", data: []).encoded
        return bytes
    }

    /// A GIF declaring `width`×`height` with `frames` images.
    static func gif(width: Int, height: Int, frames: Int = 1) -> Data {
        var bytes = Array("GIF89a".utf8)
        bytes += littleEndian(width) + littleEndian(height)
        bytes += [0x80, 0, 0]  // a global colour table of 2 entries
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]  // loop forever
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0x08, 10, 0, 0, 0]  // graphic control: 100 ms, restore to background
            bytes += [0x2C, 0, 0, 0, 0] + littleEndian(width) + littleEndian(height) + [0]
            bytes += [2, 2, 0x4C, 0x01, 0]  // LZW minimum code size 2, one sub-block, terminator
        }
        bytes.append(0x3B)
        return Data(bytes)
    }

    /// A baseline JPEG declaring `width`×`height`.
    static func jpeg(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xDB, 0, 67, 0] + [UInt8](repeating: 1, count: 64)
        bytes += [0xFF, 0xC0, 0, 17, 8] + bigEndian16(height) + bigEndian16(width) + [3, 1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0]
        bytes += [0xFF, 0xDA, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0]
        bytes += [0x12, 0x34, 0xFF, 0x00, 0x56]  // entropy-coded data, 0xFF stuffed
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    private static func littleEndian(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}

/// A temporary folder for one test.
struct TemporaryFolder {
    let url: URL

    /// Runs `body` with a new empty folder, removed afterwards.
    static func with<Result>(_ body: (TemporaryFolder) throws -> Result) throws -> Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-stickers-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(TemporaryFolder(url: url))
    }

    /// Writes `data` at `path` (folders created as needed) and returns its URL.
    @discardableResult
    func write(_ data: Data, to path: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Writes `text` at `path`.
    @discardableResult
    func write(_ text: String, to path: String) throws -> URL {
        try write(Data(text.utf8), to: path)
    }

    /// Creates the folder `path` and returns its URL.
    func folder(_ path: String) throws -> URL {
        let folder = url.appendingPathComponent(path, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
