import Foundation
import ParlorKit

/// A stored blob: content-addressed bytes with their media type.
public struct Blob: Sendable, Hashable {
    /// Lowercase hex SHA-256 of `data`.
    public var hash: String
    public var contentType: String
    public var data: Data

    /// A blob as a store read it.
    public init(hash: String, contentType: String, data: Data) {
        self.hash = hash
        self.contentType = contentType
        self.data = data
    }
}
