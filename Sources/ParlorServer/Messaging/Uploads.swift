import Foundation
import ParlorKit
import ParlorStore

/// Uploads (`POST /api/blobs`, `GET /blobs/:hash`): stored once by content hash within each
/// person's quota, read back only by who may see them, and swept when no message uses them.
struct Uploads: Sendable {
    let store: any BlobStore
    /// The most bytes one person's uploads take (`uploadQuotaBytes`).
    let quota: Int64

    /// Stores `data` as `owner`'s upload under `hash`.
    /// - Throws: `uploadQuotaExceeded` (413) when their uploads would then pass the quota.
    func put(_ data: Data, hash: String, contentType: String, owner: UserID) async throws {
        guard try await store.putBlob(data, hash: hash, contentType: contentType, owner: owner, quota: quota, at: Date()) else {
            throw APIError(
                .contentTooLarge, code: .uploadQuotaExceeded,
                "Your uploads take the \(ByteCount.limit(Int(quota))) they may; uploads no message uses are removed after a day.")
        }
    }

    /// The upload, when `reader` may see it.
    func blob(hash: String, readableBy reader: UserID) async throws -> Blob? {
        try await store.blob(hash: hash, readableBy: reader)
    }

    /// Whether `reader` may see the upload, without reading its bytes.
    func isReadable(hash: String, by reader: UserID) async throws -> Bool {
        try await store.blobInfo(hash: hash, readableBy: reader) != nil
    }

    /// Forgets uploads made more than `lifetime` ago that no message uses.
    /// - Returns: how many were forgotten.
    @discardableResult
    func removeUnused(olderThan lifetime: Duration) async throws -> Int {
        let seconds = TimeInterval(lifetime.components.seconds)
        return try await store.removeUnusedUploads(before: Date().addingTimeInterval(-seconds))
    }
}
