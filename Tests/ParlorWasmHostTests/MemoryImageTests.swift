import Foundation
@testable import ParlorWasmHost
import Testing

/// `MemoryImage`, what an instance's memory is put back to after each call: kept as its pages that
/// hold something, and put back whatever a call wrote, wherever.
@Suite("A module's first memory, put back after a call")
struct MemoryImageTests {
    @Test("Whatever a call wrote (in the image's data, in pages that were zeros, at the first and last byte), the memory is the image again, byte for byte; the image keeps only its pages that hold something")
    func putBack() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let pages = Int.random(in: 1...40, using: &generator)
            var first = [UInt8](repeating: 0, count: pages * MemoryImage.pageBytes)
            // Data here and there: a run of pages, a lone byte, the very last byte sometimes.
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let at = Int.random(in: 0..<first.count, using: &generator)
                for index in at..<min(first.count, at + Int.random(in: 1...9000, using: &generator)) { first[index] = UInt8.random(in: 1...255, using: &generator) }
            }
            if Bool.random(using: &generator) { first[first.count - 1] = 7 }
            let image = MemoryImage(first)
            let held = image.runs.reduce(0) { $0 + $1.bytes.count }
            let nonZeroPages = stride(from: 0, to: first.count, by: MemoryImage.pageBytes).filter { page in
                first[page..<(page + MemoryImage.pageBytes)].contains { $0 != 0 }
            }.count
            #expect(held == nonZeroPages * MemoryImage.pageBytes, "only the pages that hold something")

            var memory = first
            for _ in 0..<Int.random(in: 1...50, using: &generator) {
                memory[Int.random(in: 0..<memory.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            memory[0] = 0xAA
            memory[memory.count - 1] = 0xBB
            memory.withUnsafeMutableBytes { image.put(into: $0) }
            #expect(memory == first)
        }
    }

    @Test("A memory of another size is left alone (the caller drops that instance)")
    func otherSize() {
        let image = MemoryImage([UInt8](repeating: 1, count: MemoryImage.pageBytes))
        var grown = [UInt8](repeating: 9, count: 2 * MemoryImage.pageBytes)
        grown.withUnsafeMutableBytes { image.put(into: $0) }
        #expect(grown.allSatisfy { $0 == 9 })
    }
}
