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

    /// Changes what `user` shows of themselves and their settings, all or nothing: every part is
    /// checked before any is saved, so a refused part leaves the others as they were. A nil part
    /// stays as it is.
    /// - Parameters:
    ///   - displayName: the name they show to others, under the rules of sign-up (`NameRules`;
    ///     spaces around it trimmed).
    ///   - about: the line they write about themselves (`NameRules`, at most `maxAboutLength`
    ///     characters, checked as typed); `.some(nil)` or a blank one removes it.
    ///   - avatar: `.some(hash)` sets their picture (an image they uploaded: a photo someone else sent, which they can see, is not theirs to show to everyone they talk to), `.some(nil)` clears it.
    /// - Returns: what changed that everyone they talk to must be told of.
    /// - Throws: `invalidValue` (400) with the rule broken; `avatarNotFound` (404) or
    ///   `improperFileType` (400) for the picture; `tooManyNameChanges` (429) past
    ///   `nameChangesPerHour` (a name and an about changed together count once: they are told once).
    func changeProfile(
        of user: User, displayName: String?, about: String??, avatar: String??, sharesReadReceipts: Bool?
    ) async throws -> ProfileChanges {
        let name = try displayName.map { try NameRules.check($0, what: "A display name", maxLength: Self.maxDisplayNameLength) }
        let newName = name == user.displayName ? nil : name
        let newAbout: String?? = try about.flatMap { proposed in
            let typed = proposed ?? ""
            // Blank removes it; anything else is checked as typed, so a line break or an invisible
            // character at an end is refused, not dropped without a word.
            let kept = typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                ? nil : try NameRules.check(typed, what: "What you write about yourself", maxLength: Self.maxAboutLength)
            return kept == user.about ? nil : .some(kept)
        }
        if case let hash?? = avatar { try await store.requireOwnImage(hash, of: user.id, as: "A profile picture") }
        let changes = ProfileChanges(toldToEveryone: newName != nil || newAbout != nil, picture: avatar != nil)
        if changes.toldToEveryone { try await countProfileChange(of: user.id) }
        if let newName { try await store.setDisplayName(newName, user: user.id) }
        if let newAbout { try await store.setAbout(newAbout, user: user.id) }
        if let avatar { try await store.setAvatar(avatar, user: user.id) }
        if let sharesReadReceipts { try await store.setSharesReadReceipts(sharesReadReceipts, user: user.id) }
        return changes
    }

    /// What `changeProfile` changed that others must learn of.
    struct ProfileChanges {
        /// Their name or about: told to everyone they talk to.
        var toldToEveryone: Bool
        /// Their picture (set or cleared): every node's caches read it again.
        var picture: Bool
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
