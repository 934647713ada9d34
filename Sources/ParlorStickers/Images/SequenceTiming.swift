/// How an animated sticker sequence plays, from a `.stickersequence`'s properties.
public struct SequenceTiming: Sendable, Hashable, Codable {
    /// How `duration` is read (Apple's `duration-type`).
    public enum DurationType: String, Sendable, Hashable, Codable {
        /// `duration` is the length of one animation cycle in seconds.
        case fixed
        /// `duration` is the frame rate in frames per second.
        case fps
    }

    /// Seconds per cycle (`.fixed`) or frames per second (`.fps`).
    public var duration: Double
    /// How `duration` is read.
    public var durationType: DurationType
    /// How many times the animation repeats after it first plays; 0 plays it forever.
    public var repetitions: Int

    /// Xcode's defaults: 15 frames per second, forever.
    public static let standard = SequenceTiming(duration: 15, durationType: .fps, repetitions: 0)

    /// Creates a timing; see the properties for the meaning of each value.
    public init(duration: Double, durationType: DurationType, repetitions: Int) {
        self.duration = duration
        self.durationType = durationType
        self.repetitions = repetitions
    }

    /// How long each of `frameCount` frames shows, in milliseconds (1 to 65,535, what an APNG
    /// frame can hold); a duration that is zero, negative or not a number falls back to 15 fps.
    public func frameDelayMilliseconds(frameCount: Int) -> Int {
        let seconds: Double
        switch durationType {
        case .fps: seconds = 1 / duration
        case .fixed: seconds = duration / Double(max(frameCount, 1))
        }
        guard seconds.isFinite, seconds > 0 else { return Int((1000 / 15.0).rounded()) }
        return Int(min(max((seconds * 1000).rounded(), 1), 65_535))
    }

    /// The APNG `num_plays`: 0 for forever, else the first play plus the repetitions.
    var playCount: UInt32 {
        repetitions <= 0 ? 0 : UInt32(min(repetitions, Int(UInt32.max) - 1) + 1)
    }
}
