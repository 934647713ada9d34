/// Why Parlor refused an uploaded or fetched image: a code to act on in code, and a message
/// safe to show the person who sent it (it names no file and quotes none of its bytes).
///
/// Map it to an HTTP status or a wire error at the edge: `.tooManyPixels` and
/// `.animationTooLarge` are 413-like, `.unsupportedFormat` 415-like, `.unreadable` 422-like.
public struct ImageRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal this is. A struct, not an enum, so new codes can be added without
    /// breaking a `switch`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's stable name ("tooManyPixels").
        public var rawValue: String

        /// Wraps a code name; use the static members.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The bytes are not a PNG, APNG, GIF, JPEG or WebP at all (HEIC, SVG, text…).
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// The bytes start like a supported format but are truncated or damaged.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The image (or one of its frames) declares more pixels, or a longer side, than the
        /// `PixelBudget` allows.
        public static let tooManyPixels = Code(rawValue: "tooManyPixels")
        /// An animation's frames add up to more pixels than the `PixelBudget` allows.
        public static let animationTooLarge = Code(rawValue: "animationTooLarge")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// What kind of refusal this is.
    public var code: Code
    /// A sentence or two for the person who sent the image: what is wrong and what to do,
    /// with the limit when a limit was passed.
    public var message: String

    /// Creates a refusal.
    /// - Parameters:
    ///   - code: what kind of refusal this is.
    ///   - message: what to show the person, safe to show as it is.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The refusal for bytes the inspector could not read.
    init(_ error: ImageParseError) {
        if error.isUnsupportedFormat {
            self.init(.unsupportedFormat, "This file \(error.reason). Send a JPEG, PNG, GIF or WebP image.")
        } else {
            self.init(.unreadable, "This file \(error.reason). Save or export the image again, then send it again.")
        }
    }
}
