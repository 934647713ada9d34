import ParlorHost

/// What one WebAssembly app may use: checked once when it is added (size, memory) and at each
/// call (fuel, answer size).
public struct WasmLimits: Sendable, Hashable {
    /// The largest module, in bytes.
    public var maxModuleBytes: Int
    /// The most 64 KiB pages of memory a module may declare as its maximum (a module must declare one).
    public var maxMemoryPages: UInt64
    /// The fuel one call may burn (about one unit per WebAssembly instruction): a loop that does
    /// not end stops here, with the app's `appUnavailable`. 0 turns metering off, for measuring
    /// what it costs only: a loop would then never end.
    public var fuelPerCall: UInt64
    /// The largest answer, in bytes of JSON: the app protocol's frame limit.
    public var maxAnswerBytes: Int

    public init(
        maxModuleBytes: Int = 8 * 1024 * 1024, maxMemoryPages: UInt64 = 256, fuelPerCall: UInt64 = 50_000_000,
        maxAnswerBytes: Int = AppWire.maxFrameBytes
    ) {
        self.maxModuleBytes = maxModuleBytes
        self.maxMemoryPages = maxMemoryPages
        self.fuelPerCall = fuelPerCall
        self.maxAnswerBytes = maxAnswerBytes
    }

    /// Bytes in one page of WebAssembly memory.
    public static let pageBytes: UInt64 = 65_536
}
