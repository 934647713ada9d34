import Foundation
import ParlorKit

/// An error from a store: a code and a message safe to show. SQL and its arguments never appear here.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }
        /// A unique value (a username) is taken.
        public static let conflict = Code(name: "conflict")
        /// The thing does not exist, or the user may not see it.
        public static let notFound = Code(name: "notFound")
        /// The input breaks a rule of the store (an empty title, too many members).
        public static let invalid = Code(name: "invalid")
        /// Something holds as many as it may (a message's kinds of reaction).
        public static let full = Code(name: "full")
        /// The database failed.
        public static let unavailable = Code(name: "unavailable")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
