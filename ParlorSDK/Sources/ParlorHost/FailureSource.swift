/// Where a failure an `AppInstance` records came from, named in its log line (`InstanceFailure.detail`).
enum FailureSource: Sendable, Equatable, CustomStringConvertible {
    /// A hook of the app protocol.
    case hook(AppWire.Hook)
    /// A sticker the person inserted from the app's sticker browser: the host inserts it through
    /// the app's conversation, with no hook of the app's.
    case insertSticker

    var description: String {
        switch self {
        case .hook(let hook): hook.rawValue
        case .insertSticker: "insertSticker"
        }
    }
}
