/// The audio recordings a voice message may be, recognised by their first bytes (never by a name
/// or a type the sender claims): what browsers' `MediaRecorder` writes — WebM (Chromium), Ogg
/// (Firefox) and MP4 (Safari).
enum RecordingFormat: String, CaseIterable, Sendable {
    case webm = "audio/webm"
    case ogg = "audio/ogg"
    case mp4 = "audio/mp4"

    /// The media type an upload is stored and served as.
    var mediaType: String { rawValue }

    /// The format `bytes` begin with, or nil.
    init?(of bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(64))
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]), Self.contains(head, "webm") {
            self = .webm  // An EBML header whose DocType is "webm".
        } else if head.starts(with: Array("OggS".utf8)) {
            self = .ogg
        } else if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8), Self.mp4Brands.contains(Array(head[8..<12])) {
            self = .mp4  // An ISO base media file whose first box, `ftyp`, names an audio or plain MP4 brand.
        } else {
            return nil
        }
    }

    /// The format's name, as people know it.
    var name: String {
        switch self {
        case .webm: "WebM"
        case .ogg: "Ogg"
        case .mp4: "MP4"
        }
    }

    /// "WebM, Ogg or MP4": every format's name, for a sentence.
    static var names: String {
        let names = allCases.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// Whether `type` is one of these formats.
    static func isRecording(_ type: String) -> Bool { allCases.contains { $0.mediaType == type } }

    /// The major brands of MP4 files a recorder writes; others in the same container (HEIC and
    /// AVIF photos: `heic`, `mif1`, `avif`…) are not recordings.
    private static let mp4Brands: Set<[UInt8]> = Set(["M4A ", "M4B ", "mp41", "mp42", "isom", "iso2", "iso4", "iso5", "iso6", "dash"].map { Array($0.utf8) })

    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
