import ParlorKit

/// Something wrong with one sticker (or the pack's own files): which file, and the error with
/// its code and a sentence a person can act on.
///
/// ```swift
/// for problem in StickerPackLoader.validate(at: packURL) {
///     print(problem)  // "Cat.sticker/cat.png: stickerFileImproperFileSize (6): cat.png is 612 KB; …"
/// }
/// ```
public struct StickerProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file the problem is in, relative to the pack folder ("Cat.sticker/cat.png").
    public var file: String
    /// What is wrong: `code` says which rule, `message` how to fix it.
    public var error: MessagesError

    /// Creates a problem with `file` (relative to the pack folder) and its error.
    public init(file: String, error: MessagesError) {
        self.file = file
        self.error = error
    }

    /// The error's code.
    public var code: MessagesError.Code { error.code }
    /// The sentence saying what is wrong and what to do.
    public var message: String { error.message }

    /// `<file>: <code>: <message>`, for logs and the command line.
    public var description: String { "\(file): \(error)" }
}
