import Testing
@testable import ParlorImages

@Suite("The pixel budget refuses huge images from their headers, with the limit in the sentence")
struct PixelBudgetTests {
    static let limits = "images are limited to 40 megapixels and 16384 pixels a side. Send a smaller version."

    @Test("Huge declared sizes in a file of a few hundred bytes are refused, saying the size and the limits", arguments: [
        ("PNG", HeaderFixtures.png(width: 50_000, height: 50_000), "This image is 50000×50000 pixels (2.5 gigapixels); "),
        ("GIF", HeaderFixtures.gif(width: 65_535, height: 65_535), "This image is 65535×65535 pixels (4.3 gigapixels); "),
        ("JPEG SOF2", HeaderFixtures.jpeg(width: 20_000, height: 20_000, sof: 0xC2), "This image is 20000×20000 pixels (400 megapixels); "),
        ("WebP", HeaderFixtures.webp(width: 16_385, height: 16, animatedFrames: 1), "This image is 16385×16 pixels; "),
        ("APNG", HeaderFixtures.apng(width: 10_000, height: 5_000, frames: 2), "This image is 10000×5000 pixels (50 megapixels); "),
    ])
    func hugeHeadersRefused(format: String, bytes: [UInt8], size: String) throws {
        #expect(bytes.count < 1024, "\(format) fixture should be tiny")
        for check in [{ try UploadedImage.prepare(bytes) as Any }, { try UploadedImage.checkBudget(bytes) as Any }] {
            let refusal = try #require(throws: ImageRefusal.self) { try check() }
            #expect(refusal.code == .tooManyPixels)
            #expect(refusal.message == size + Self.limits, "\(format)")
        }
    }

    @Test("A 4000×3000 photo, a 16384-wide WebP and a 36-megapixel PNG pass")
    func photosPass() throws {
        let photo = try UploadedImage.prepare(HeaderFixtures.jpeg(width: 4000, height: 3000))
        #expect(photo.info.width == 4000 && photo.info.height == 3000)
        #expect(try UploadedImage.checkBudget(HeaderFixtures.simpleWebP(width: 16_384, height: 100)).width == 16_384)
        #expect(try UploadedImage.checkBudget(HeaderFixtures.png(width: 6000, height: 6000)).height == 6000)
    }

    @Test("A GIF frame placed outside a small logical screen counts at its own size")
    func gifFrameOutsideScreen() throws {
        let bytes = HeaderFixtures.gif(width: 100, height: 100, frameWidth: 20_000, frameHeight: 20_000)
        let refusal = try #require(throws: ImageRefusal.self) { try UploadedImage.prepare(bytes) }
        #expect(refusal.code == .tooManyPixels)
        #expect(refusal.message.hasPrefix("This image is 20000×20000 pixels (400 megapixels)"))
    }

    @Test("Of several JPEG frame headers the largest counts")
    func largestJPEGFrame() throws {
        let bytes = HeaderFixtures.jpeg(frames: [(100, 100), (20_000, 20_000)], sof: 0xC1)
        #expect(try ImageInfo.inspect(bytes).width == 20_000)
        #expect(throws: ImageRefusal.self) { try UploadedImage.prepare(bytes) }
        let twoFrames = HeaderFixtures.jpeg(frames: [(300, 50), (40, 200)])
        #expect(try ImageInfo.inspect(twoFrames) == ImageInfo(format: .jpeg, width: 300, height: 200, byteCount: twoFrames.count))
    }

    @Test("Animations are limited to 400 megapixels of frames × canvas", arguments: [ImageFormat.gif, .apng, .webp])
    func animationBudget(format: ImageFormat) throws {
        let animation = { (frames: Int) in
            switch format {
            case .apng: HeaderFixtures.apng(width: 5000, height: 5000, frames: frames)
            case .webp: HeaderFixtures.webp(width: 5000, height: 5000, animatedFrames: frames)
            default: HeaderFixtures.gif(width: 5000, height: 5000, frames: frames)
            }
        }
        #expect(try UploadedImage.checkBudget(animation(16)).frameCount == 16, "\(format): 16 × 25 megapixels is exactly the limit")
        let refusal = try #require(throws: ImageRefusal.self) { try UploadedImage.prepare(animation(17)) }
        #expect(refusal.code == .animationTooLarge)
        #expect(refusal.message == "This animation has 17 frames of 5000×5000 pixels (425 megapixels in all); animations are limited to 400 megapixels in all, frames times size. Send a shorter or smaller version.")
    }

    @Test("A smaller budget says its own limits")
    func customBudget() throws {
        let budget = PixelBudget(maxPixels: 1_000_000, maxSide: 2048)
        let refusal = try #require(throws: ImageRefusal.self) { try UploadedImage.prepare(HeaderFixtures.jpeg(width: 4000, height: 3000), budget: budget) }
        #expect(refusal.message == "This image is 4000×3000 pixels (12 megapixels); images are limited to 1 megapixel and 2048 pixels a side. Send a smaller version.")
        #expect(budget.maxAnimationPixels == 10_000_000)
        #expect(throws: ImageRefusal.self) { try PixelBudget(maxPixels: 500, maxSide: 100).check(ImageInfo(format: .png, width: 30, height: 20, byteCount: 1)) }
        let small = try #require(throws: ImageRefusal.self) { try PixelBudget(maxPixels: 500).check(ImageInfo(format: .png, width: 30, height: 20, byteCount: 1)) }
        #expect(small.message.hasPrefix("This image is 30×20 pixels (600 pixels); images are limited to 500 pixels and"))
    }
}
