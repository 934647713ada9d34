import CFuzzerDriver
import Foundation
import LinkShare
import ParlorInput
import ParlorImages
import ParlorKit
import ParlorStickers

/// The decoders that read what comes from outside, each a libFuzzer target (issue: "Security",
/// fuzzing). `scripts/fuzz` builds this with `-sanitize=fuzzer,address -DFUZZING` and picks the
/// target with `PARLOR_FUZZ_TARGET`; a normal build makes a replayer that runs inputs once
/// (`parlor-fuzz TARGET FILE…`), to reproduce a crash or check the corpus.
enum FuzzTarget: String, CaseIterable {
    /// A message URL's query and the state decoded from it (`QueryItems`, `URLState`).
    case urlState
    /// A client's WebSocket frame (`Wire.ClientRequest.decode`).
    case clientFrame
    /// A text message's bytes checked as UTF-8 in fragments (`UTF8Validator`), split where the
    /// first byte says: it must agree with the standard library's validation of the whole.
    case utf8Text
    /// A sticker file's headers (`ImageInfo.inspect`: PNG/APNG, GIF, JPEG, WebP).
    case stickerImage
    /// An uploaded image checked and cleaned (`UploadedImage.prepare`: the pixel budget, metadata
    /// stripped); what it accepts must be accepted again unchanged.
    case uploadedImage
    /// A feed as LinkShare reads it (`FeedDocument.read`): Reddit's JSON, RSS or Atom, told apart
    /// by content.
    case feed
    /// A web page's head as link previews read it (`LinkPreviewPage.preview`).
    case linkPreview
    /// HTML character references (`HTMLEntities.decode`, text and attribute values): text with
    /// every `&` escaped must come back as written.
    case htmlEntities

    /// A state of the shapes apps keep in their URLs.
    struct SampleState: Codable {
        var title: String?
        var count: Int?
        var done: Bool?
        var moves: [Int]?
        var names: [String: String]?
    }

    static let feedURL = URL(string: "https://www.reddit.com/r/programming.json") ?? URL(fileURLWithPath: "/")

    /// Feeds one input to the target; every outcome but a crash is fine.
    func run(_ data: Data) {
        switch self {
        case .urlState:
            let text = String(decoding: data, as: UTF8.self)
            _ = try? QueryItems(query: text)
            for candidate in [text, "https://example.org/state?" + text] {
                guard let url = URL(string: candidate) else { continue }
                _ = try? QueryItems(url: url)
                _ = try? URLState.value(SampleState.self, from: url)
            }
        case .clientFrame:
            _ = try? Wire.ClientRequest.decode(String(decoding: data, as: UTF8.self))
        case .utf8Text:
            let bytes = Array(data.dropFirst())
            let cut = data.first.map { bytes.isEmpty ? 0 : Int($0) % (bytes.count + 1) } ?? 0
            var validator = UTF8Validator()
            validator.consume(bytes[..<cut])
            validator.consume(bytes[cut...])
            precondition(validator.isComplete == (String(validating: bytes, as: UTF8.self) != nil), "UTF8Validator disagrees with the standard library")
        case .stickerImage:
            _ = try? ImageInfo.inspect(Array(data))
        case .uploadedImage:
            UploadedImage.fuzz(Array(data))
        case .feed:
            _ = try? FeedDocument.read(data, feedURL: Self.feedURL)
        case .linkPreview:
            _ = LinkPreviewPage.preview(of: String(decoding: data, as: UTF8.self), at: Self.feedURL)
        case .htmlEntities:
            let text = String(decoding: data, as: UTF8.self)
            _ = HTMLEntities.decode(text)
            _ = HTMLEntities.decode(attributeValue: text)
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;")
            precondition(
                Array(HTMLEntities.decode(escaped).unicodeScalars) == Array(text.unicodeScalars)
                    && Array(HTMLEntities.decode(attributeValue: escaped).unicodeScalars) == Array(text.unicodeScalars),
                "&amp; did not round-trip")
        }
    }
}

#if FUZZING
/// The target libFuzzer drives, read once.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["PARLOR_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("Set PARLOR_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue)).\n".utf8))
        exit(2)
    }
    return target
}()

/// SwiftPM calls an executable's entry point `ParlorFuzz_main`: hand over to libFuzzer's driver.
@_cdecl("ParlorFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    _ = selectedTarget
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, size in fuzzOneInput(bytes, size) }
}

/// One input through the selected target. Also libFuzzer's own entry point by name: in a debug
/// build (what `scripts/fuzz` makes) SwiftPM makes `main` an alias of `ParlorFuzz_main` only at the
/// link, so the linker also takes libFuzzer's `main` object, which needs this symbol; the driver
/// above is still what runs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let bytes else { return 0 }
    selectedTarget.run(Data(bytes: bytes, count: size))
    return 0
}
#else
@main
enum Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            print("usage: parlor-fuzz {\(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|"))} FILE…  (runs each input once)")
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                exit(1)
            }
            target.run(data)
        }
        print("\(arguments.count - 1) inputs ran through \(name) without a crash")
    }
}
#endif
