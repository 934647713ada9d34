import Foundation
import NIOCore
import ParlorImages
import ParlorKit
import ParlorStore

/// Uploads (`POST /api/blobs`, `GET /blobs/:hash`): stored once by content hash within each
/// person's quota, read back only by who may see them, and swept when no message uses them.
struct Uploads: Sendable {
    let store: any BlobStore
    /// The most bytes one person's uploads take (`uploadQuotaBytes`).
    let quota: Int64
    /// The largest one upload may be (`maxBlobBytes`).
    let maxBytes: Int
    /// The most pixels an uploaded image may have (`imageBudget`).
    let budget: PixelBudget

    init(store: any BlobStore, configuration: ServerConfiguration) {
        self.store = store
        quota = configuration.uploadQuotaBytes
        maxBytes = configuration.maxBlobBytes
        budget = configuration.imageBudget
    }

    /// Cleans and stores an upload for `owner` (`POST /api/blobs`, or an app's
    /// `conversation.upload(image:)`, which takes images only): the same rules either way.
    /// - Parameter anyFile: whether files that are not images are taken (attachments).
    /// - Returns: the upload's hash, and its media type and size as stored.
    /// - Throws: `mediaExceedsMaxSize` over `maxBytes`; `emptyUpload`; the image's refusal
    ///   (`AppRoutes.cleaned`); `uploadQuotaExceeded`.
    func store(_ bytes: ByteBuffer, anyFile: Bool = false, owner: UserID) async throws -> (hash: String, contentType: String, size: Int) {
        guard bytes.readableBytes <= maxBytes else { throw tooLarge }
        guard bytes.readableBytes > 0 else { throw APIError(.badRequest, code: .emptyUpload, "The file is empty: there is nothing to send.") }
        let (clean, type) = try await AppRoutes.cleaned(bytes, anyFile: anyFile, budget: budget)
        let hash = Digest.sha256Hex(clean)
        try await put(clean, hash: hash, contentType: type, owner: owner)
        return (hash, type, clean.count)
    }

    /// The refusal of an upload over `maxBytes`.
    var tooLarge: MessagesError { MessagesError(.mediaExceedsMaxSize, "A file can be at most \(ByteCount.limit(maxBytes)); this one is larger.") }

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

extension BlobStore {
    /// Checks that `hash` is an image `owner` uploaded, to be shown to others as `what` ("A
    /// profile picture", "A group photo"). A photo someone else sent, which `owner` can see, is
    /// not theirs to show to everyone (nor to keep showing once its sender unsent it).
    /// - Throws: `avatarNotFound` (404) for a blob that is not their upload; `improperFileType`
    ///   (400) for one that is not an image.
    func requireOwnImage(_ hash: String, of owner: UserID, as what: String) async throws {
        guard hash.count == 64, let blob = try await uploadInfo(hash: hash, owner: owner) else {
            throw APIError(.notFound, code: .avatarNotFound, "There is no upload of yours with that hash; upload the picture first.")
        }
        guard blob.contentType.hasPrefix("image/") else {
            throw APIError(.badRequest, code: .improperFileType, "\(what) is an image: PNG, JPEG, GIF or WebP.")
        }
    }
}
