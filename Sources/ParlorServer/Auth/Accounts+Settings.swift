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
        if let hash { try await store.requireOwnImage(hash, of: user, as: "A profile picture") }
        try await store.setAvatar(hash, user: user)
    }

    /// Changes the name `user` shows to others, under the rules of sign-up (`NameRules`).
    /// - Returns: the name as kept (spaces around it trimmed), or nil when it is the name they have.
    /// - Throws: `invalidValue` (400) with the rule broken; `tooManyNameChanges` (429) past
    ///   `nameChangesPerHour`, since each change is told to everyone they talk to.
    func setDisplayName(_ proposed: String, of user: User) async throws -> String? {
        let name = try NameRules.check(proposed, what: "A display name", maxLength: Self.maxDisplayNameLength)
        guard name != user.displayName else { return nil }
        try await countProfileChange(of: user.id)
        try await store.setDisplayName(name, user: user.id)
        return name
    }

    /// Sets the line `user` writes about themselves (`NameRules`, at most `maxAboutLength`
    /// characters); a blank one, or nil, removes it. Counted with name changes: each is told to
    /// everyone they talk to.
    /// - Returns: whether it changed.
    /// - Throws: `invalidValue` with the rule broken; `tooManyNameChanges` (429).
    func setAbout(_ proposed: String?, of user: User) async throws -> Bool {
        let typed = proposed ?? ""
        // Blank removes it; anything else is checked as typed, so a line break or an invisible
        // character at an end is refused, not dropped without a word.
        let about = typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            ? nil : try NameRules.check(typed, what: "What you write about yourself", maxLength: Self.maxAboutLength)
        guard about != user.about else { return false }
        try await countProfileChange(of: user.id)
        try await store.setAbout(about, user: user.id)
        return true
    }

    /// Counts a change everyone `user` talks to is told of (their name, or what they say about
    /// themselves).
    /// - Throws: `tooManyNameChanges` (429) past `nameChangesPerHour`.
    private func countProfileChange(of user: UserID) async throws {
        guard let wait = await nameChanges.take(user.description) else { return }
        let minutes = max(1, (wait + 59) / 60)
        throw APIError.tooMany(
            .tooManyNameChanges,
            "You changed your name or what you say about yourself \(Self.nameChangesPerHour) times in the last hour; try again in \(minutes) minute\(minutes == 1 ? "" : "s").",
            retryAfter: wait)
    }
}
