import Foundation
import ParlorKit

/// A person mentioned in a text is a reference, not a name: `<@user id>` in the message's text,
/// which clients show as "@Name" from the conversation's members. The grammar is written here
/// once; the store records who each message mentions, the server checks them and resolves names
/// in previews.
public enum MentionTokens {
    /// What a mention starts with, before the user's id.
    public static let opening = "<@"
    /// What a mention ends with, after the user's id.
    public static let closing = ">"
    static let idLength = 36

    /// The people `text` mentions, each once, in order of first mention.
    public static func users(in text: String) -> [UserID] {
        var users: [UserID] = []
        guard mayMention(text) else { return users }
        forEachToken(in: text) { _, user in
            if !users.contains(user) { users.append(user) }
        }
        return users
    }

    /// `text` with each mention replaced by what `name` says for its person.
    public static func replacing(in text: String, with name: (UserID) -> String) -> String {
        guard mayMention(text) else { return text }
        var result = ""
        var cursor = text.startIndex
        forEachToken(in: text) { range, user in
            result += text[cursor..<range.lowerBound]
            result += name(user)
            cursor = range.upperBound
        }
        return result + text[cursor...]
    }

    /// The token mentioning `user`.
    public static func token(for user: UserID) -> String { opening + user.description + closing }

    /// Whether `text` has a `<@` at all: a scan of its bytes, much cheaper than a search through
    /// Foundation, and most texts mention nobody.
    private static let openingBytes = Array(opening.utf8)

    private static func mayMention(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == openingBytes[0], byte == openingBytes[1] { return true }
            previous = byte
        }
        return false
    }

    private static func forEachToken(in text: String, _ body: (Range<String.Index>, UserID) -> Void) {
        var searchFrom = text.startIndex
        while let open = text.range(of: opening, range: searchFrom..<text.endIndex) {
            searchFrom = open.upperBound
            guard let idEnd = text.index(open.upperBound, offsetBy: idLength, limitedBy: text.endIndex),
                  text[idEnd...].hasPrefix(closing),
                  let user = UserID(String(text[open.upperBound..<idEnd]))
            else { continue }
            let range = open.lowerBound..<text.index(idEnd, offsetBy: closing.count)
            body(range, user)
            searchFrom = range.upperBound
        }
    }
}

extension StoredContent {
    /// The people a text message mentions.
    public var mentionedUsers: [UserID] {
        guard case .text(let text, _, _) = self else { return [] }
        return MentionTokens.users(in: text)
    }

    /// The people a text message mentions and alerts (its quiet mentions left out): those whose
    /// unread mentions it counts and whose mute it gets through.
    public var alertedUsers: [UserID] {
        guard case .text(let text, _, let quiet) = self else { return [] }
        return MentionTokens.users(in: text).filter { !quiet.contains($0) }
    }
}
