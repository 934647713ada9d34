@testable import ParlorImages

/// A small deterministic random number generator (SplitMix64), so a failure reproduces.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes hold `text` (UTF-8) anywhere.
    func contains(text: String) -> Bool { firstRange(of: Array(text.utf8)) != nil }

    /// How many times `needle` occurs.
    func occurrences(of needle: [UInt8]) -> Int { ranges(of: needle).count }
}

/// The parts of an image, read with the module's own walkers, for comparing input and output.
enum Parts {
    /// A JPEG's marker segments as (marker, payload), up to EOI.
    static func jpegSegments(_ bytes: [UInt8]) throws -> [(marker: UInt8, payload: [UInt8])] {
        try JPEGStructure(bytes).parts.compactMap { part in
            guard case .segment(let marker, let payload) = part else { return nil }
            return (marker, Array(bytes[payload]))
        }
    }

    /// A JPEG from its first SOS marker to EOI: scan headers, tables between scans and the
    /// entropy-coded data.
    static func jpegScans(_ bytes: [UInt8]) throws -> [UInt8] {
        let structure = try JPEGStructure(bytes)
        for case .segment(JPEGStructure.startOfScan, let payload) in structure.parts {
            return Array(bytes[payload.lowerBound - 4..<structure.end])
        }
        return []
    }

    /// A WebP's top-level chunks as (fourCC, payload).
    static func webpChunks(_ bytes: [UInt8]) throws -> [(fourCC: String, payload: [UInt8])] {
        try WebPStructure(bytes).chunks.map { ($0.fourCC, Array(bytes[$0.payload])) }
    }

    /// A GIF's image blocks, each as its bytes.
    static func gifImages(_ bytes: [UInt8]) throws -> [[UInt8]] {
        try GIFStructure(bytes).blocks.compactMap { block in
            guard case .image(let image) = block else { return nil }
            return Array(bytes[image.range])
        }
    }
}
