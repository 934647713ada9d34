import Foundation

/// Why the feed could not be loaded, with a sentence to show above the Retry and Choose feed buttons.
///
/// Kept in the app's state, so the error stays on screen (beside the last good list) until a
/// refresh succeeds.
public struct FeedError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The server could not be reached (no connection, refused, a name that does not resolve).
        public static let unreachable = Code(rawValue: "unreachable")
        /// The server did not answer within the app's timeout.
        public static let timedOut = Code(rawValue: "timedOut")
        /// The server answered with a status other than 200.
        public static let badStatus = Code(rawValue: "badStatus")
        /// The answer is not a feed LinkShare reads (a Reddit listing, RSS or Atom).
        public static let malformed = Code(rawValue: "malformed")
    }

    public var code: Code
    /// A sentence a person can act on.
    public var message: String
    /// For `.badStatus`: the HTTP status.
    public var status: Int?

    public init(_ code: Code, _ message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    public var description: String { "\(code): \(message)" }

    static func unreachable(_ host: String) -> FeedError {
        FeedError(.unreachable, "Couldn't reach \(host). Check your connection, or choose another feed.")
    }

    static func timedOut(_ host: String, after timeout: Duration) -> FeedError {
        FeedError(.timedOut, "\(host) didn't answer within \(timeout.spoken). Retry in a moment, or choose another feed.")
    }

    static func badStatus(_ status: Int, host: String) -> FeedError {
        let message = switch status {
        case 404: "There is no feed at this address (\(host) answered HTTP 404). Check the address, or choose another feed."
        case 429: "\(host) is limiting requests (HTTP 429). Wait a moment, then retry."
        case 500...599: "\(host) is having trouble (HTTP \(status)). Retry in a moment."
        default: "\(host) answered with an error (HTTP \(status)). Retry later, or choose another feed."
        }
        return FeedError(.badStatus, message, status: status)
    }

    /// - Parameter detail: what the answer is instead ("not JSON, RSS or Atom").
    static func malformed(_ detail: String) -> FeedError {
        FeedError(.malformed, "This address doesn't give a feed LinkShare can read (\(detail)). Choose an RSS, Atom or Reddit feed.")
    }
}

extension Duration {
    /// "10 seconds", "1 second", "250 milliseconds".
    var spoken: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        return milliseconds == 1 ? "1 millisecond" : "\(milliseconds) milliseconds"
    }
}
