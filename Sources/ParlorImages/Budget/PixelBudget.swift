/// How large an image may be before Parlor refuses it, checked on the size its headers declare,
/// so an image that would take gigabytes to decode is refused without decoding it.
///
/// Three limits:
/// - `maxPixels` and `maxSide` bound one frame: the canvas (for a GIF, the logical screen grown
///   to take in every image block, since some decoders grow the screen to show a block placed
///   outside it; for a JPEG with several frame headers, the widest and the tallest).
/// - `maxAnimationPixels` bounds an animation as frames × canvas: what a viewer composites to
///   play it through once (APNG acTL frames, GIF image blocks, WebP ANMF chunks). The default,
///   ten times `maxPixels` (400 megapixels), takes a 10-second 720p animation at 30 frames a
///   second (276 megapixels) or 1,500 frames of 480×270, and refuses a decompression bomb made of
///   many huge frames each within `maxPixels`.
///
/// ```swift
/// let budget = PixelBudget(maxPixels: 24_000_000)
/// try budget.check(ImageInfo(format: .jpeg, width: 6000, height: 4000, byteCount: 0))
/// ```
public struct PixelBudget: Sendable, Hashable {
    /// The most pixels one frame may declare (width × height). Default 40,000,000.
    public var maxPixels: Int
    /// The longest side one frame may declare, in pixels. Default 16,384.
    public var maxSide: Int
    /// The most pixels an animation may declare in all, counted as frames × canvas. Default ten
    /// times `maxPixels`.
    public var maxAnimationPixels: Int

    /// Creates a budget.
    /// - Parameters:
    ///   - maxPixels: the most pixels of one frame.
    ///   - maxSide: the longest side of one frame.
    ///   - maxAnimationPixels: the most pixels of all frames together; `nil` for ten times
    ///     `maxPixels`.
    public init(maxPixels: Int = 40_000_000, maxSide: Int = 16_384, maxAnimationPixels: Int? = nil) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
        self.maxAnimationPixels = maxAnimationPixels ?? Self.product(maxPixels, 10)
    }

    /// Checks the size an image declares, by its canvas. (`UploadedImage` checks by the
    /// inspector's extent instead, which also takes in GIF frames placed outside the screen.)
    /// - Parameter info: what `ImageInfo.inspect` read.
    /// - Throws: `ImageRefusal` with `.tooManyPixels` when a side or the pixel count is over
    ///   the limit, `.animationTooLarge` when the frames add up to too much; its message names
    ///   the image's size and the limit.
    public func check(_ info: ImageInfo) throws(ImageRefusal) {
        try check(width: info.width, height: info.height, frames: info.frameCount)
    }

    /// Checks a geometry the inspector read, by its extent rather than its canvas.
    func check(_ geometry: ImageGeometry) throws(ImageRefusal) {
        try check(width: geometry.extentWidth, height: geometry.extentHeight, frames: geometry.info.frameCount)
    }

    private func check(width: Int, height: Int, frames: Int) throws(ImageRefusal) {
        let pixels = Self.product(width, height)
        if width > maxSide || height > maxSide || pixels > maxPixels {
            let amount = pixels > maxPixels ? " (\(Self.amount(pixels, roundingUp: true)))" : ""
            throw ImageRefusal(
                .tooManyPixels,
                "This image is \(width)×\(height) pixels\(amount); images are limited to \(Self.amount(maxPixels, roundingUp: false)) and \(maxSide) pixels a side. Send a smaller version.")
        }
        let total = Self.product(pixels, max(frames, 1))
        if total > maxAnimationPixels {
            throw ImageRefusal(
                .animationTooLarge,
                "This animation has \(frames) frames of \(width)×\(height) pixels (\(Self.amount(total, roundingUp: true)) in all); animations are limited to \(Self.amount(maxAnimationPixels, roundingUp: false)) in all, frames times size. Send a shorter or smaller version.")
        }
    }

    /// `a × b`, or `Int.max` when that overflows.
    static func product(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : value
    }
}
