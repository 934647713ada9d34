import Foundation
import ParlorKit

/// Uploads, stored once by their content hash, with each owner's quota.
public protocol BlobStore: Sendable {
    /// Records `owner`'s upload of bytes stored under their content hash (lowercase hex SHA-256,
    /// computed by the caller); the same bytes are stored once whoever uploads them. Uploading
    /// again what one already uploaded costs no quota and renews the upload's time.
    /// - Returns: false, storing nothing, when the owner's uploads would then pass `quota` bytes.
    func putBlob(_ data: Data, hash: String, contentType: String, owner: UserID, quota: Int64, at time: Date) async throws -> Bool
    /// The blob, when `reader` may see it: they uploaded it. (Until messages can carry uploads,
    /// nobody else may.)
    func blob(hash: String, readableBy reader: UserID) async throws -> Blob?
    /// A blob's type and size, when `reader` may fetch it (as `blob(hash:readableBy:)` says),
    /// without reading its bytes.
    func blobInfo(hash: String, readableBy reader: UserID) async throws -> (contentType: String, size: Int64)?
    /// A blob's type and size when `owner` uploaded it (and the upload has not been swept), what a
    /// profile picture must be: someone else's photo that `owner` can see is not theirs to show.
    func uploadInfo(hash: String, owner: UserID) async throws -> (contentType: String, size: Int64)?
    /// Forgets uploads made before `cutoff` that no message uses, and the bytes no upload holds.
    /// - Returns: how many uploads were forgotten.
    func removeUnusedUploads(before cutoff: Date) async throws -> Int
}
