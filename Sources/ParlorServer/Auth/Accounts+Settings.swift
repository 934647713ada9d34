import Foundation
import ParlorKit
import ParlorStore

extension Accounts {
    /// `user` as stored now (nil once deleted).
    func user(id user: UserID) async throws -> User? {
        try await store.user(id: user)
    }

    /// Whether `user` lets others see how far they have read.
    func sharesReadReceipts(of user: UserID) async throws -> Bool {
        try await store.sharesReadReceipts(user)
    }

    /// Lets others see how far `user` has read, or not.
    func setSharesReadReceipts(_ shares: Bool, of user: UserID) async throws {
        try await store.setSharesReadReceipts(shares, user: user)
    }

    /// Sets `user`'s profile picture to an image they uploaded, or clears it (nil). A photo someone
    /// else sent, which `user` can see, is not theirs to show to everyone they talk to (nor to keep
    /// showing once its sender unsent it).
    /// - Throws: `avatarNotFound` (404) for a blob that is not their upload; `improperFileType`
    ///   (400) for one that is not an image.
    func setAvatar(_ hash: String?, of user: UserID) async throws {
        if let hash {
            guard hash.count == 64, let blob = try await store.uploadInfo(hash: hash, owner: user) else {
                throw APIError(.notFound, code: .avatarNotFound, "There is no upload of yours with that hash; upload the picture first.")
            }
            guard blob.contentType.hasPrefix("image/") else {
                throw APIError(.badRequest, code: .improperFileType, "A profile picture is an image: PNG, JPEG or GIF.")
            }
        }
        try await store.setAvatar(hash, user: user)
    }
}
